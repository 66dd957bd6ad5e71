"""What every protocol session shares: the read loop, room links, timed writes, the outbox.

A session speaks for one client. A subclass owns its sans-I/O codec and translates: bytes
in -> messages -> lobby and room calls (`_feed`), room log entries -> messages -> bytes
(`_room_messages`, `_encode`), and its protocol's goodbye (`_goodbye_bytes`). Everything
else lives here, once, for the Software-Challenge and Kettle sessions alike:

- `run()` handles what the client sends until the connection ends, each chunk in the
  transport's own callback (`server.net.feeding`: no reader task, no wake-up per
  message), then `_shutdown()` leaves every room (so the room can end the match the way
  the game says) and closes the socket;
- as a `PlayerLink`, `send_room_event` writes a seat's messages at once and returns when
  their bytes are written (the room starts the decision's clock then);
- as an `ObserverLink`, `offer_room_event` only queues (the outbox, drained by the
  session's own writer task): a slow observer never slows a match, a full queue drops it;
- `_write` encodes and writes under one lock; only when the transport really buffered
  bytes (the client reads slower than we write) does it drain, with a timeout: a client
  that stops reading is disconnected instead of holding the room. The common case costs
  no timer and no await;
- a player's news (`StateChanged`: a memento, a history block) are held back ("corked")
  and go out in the same write as what follows them in the same loop turn (normally the
  decision request to the player on move), or at the end of that turn: one send instead
  of two, the bytes on the wire unchanged;
- received bytes are stamped with when the kernel received them (`arrival_time`), not when
  the loop got round to reading them: a busy loop (a full garbage collection, hundreds of
  matches' work queued) must not turn into a bot's timeout.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import socket
import struct
import sys
import time
from collections import deque
from collections.abc import Hashable, Iterable
from typing import ClassVar, Generic, TypeVar

from protocols.base import LocalProtocolError
from server.net.feeding import FeedingReader, run_eagerly
from server.net.ratelimit import MessageRate
from server.net.slots import Slot, peer_address
from server.rooms import Entry, LeftCause, Lobby, Room, RoomClosed, StateChanged

log = logging.getLogger(__name__)

READ_SIZE = 65536  # well below the codecs' buffer limits
LINGER_SECONDS = 2.0
"""At the end of a session, how long the half-closed connection waits for the peer's end."""

# Linux `struct tcp_info` (<linux/tcp.h>): `tcpi_last_data_recv`, milliseconds since the
# connection last received data, is the u32 at byte 52 (a stable ABI).
_TCP_INFO = getattr(socket, "TCP_INFO", None) if sys.platform.startswith("linux") else None
_TCP_INFO_SIZE = 104
_LAST_DATA_RECV = struct.Struct("=I")
_LAST_DATA_RECV_OFFSET = 52


TICK_ROUNDING_MS = 20
"""The kernel counts in ticks (1-10 ms): a held time below this is its rounding, not a
wait, and taking it would put up to a tick into a move's measured time (it made the
benchmark's p99 per move 4.4 ms on a 250 Hz kernel). The read time is used then."""


def arrival_time(sock: object) -> float | None:
    """`time.monotonic()` of when the kernel last received data on TCP socket `sock`.

    A session reads after its loop got round to it; under load (a full garbage collection,
    the work of hundreds of matches queued in one loop turn) the answer may have waited in
    the socket for a second or more, and stamping it when read would charge that to the
    bot's clock (measured: docs/benchmarks.md, "Soak"). The kernel knows better, to its
    tick (1-10 ms; below `TICK_ROUNDING_MS` the read time is returned). When bytes
    arrived in several segments this is the last one's time: never earlier than the bytes
    just read. None where the platform cannot tell.
    """
    if _TCP_INFO is None:
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, _TCP_INFO_SIZE)  # type: ignore[attr-defined]
    except (AttributeError, OSError, TypeError, ValueError):
        return None
    now = time.monotonic()
    if not isinstance(info, bytes) or len(info) < _LAST_DATA_RECV_OFFSET + 4:
        return None
    held_ms = _LAST_DATA_RECV.unpack_from(info, _LAST_DATA_RECV_OFFSET)[0]
    if held_ms < TICK_ROUNDING_MS:
        return now
    return now - held_ms / 1000

Out = TypeVar("Out")  # the protocol's server-to-client message type
Outgoing = tuple[Out, Hashable | None]  # a message and its shared-encoding key (None: private)


class Session(abc.ABC, Generic[Out]):
    """One client connection; subclasses add only their protocol's translation."""

    # The wire protocol's name: the lobby seats this session only in games that speak it.
    protocol: ClassVar[str]

    def __init__(
        self,
        reader: FeedingReader,
        writer: asyncio.StreamWriter,
        lobby: Lobby,
        *,
        observer_queue: int = 512,
        write_timeout: float = 30.0,
        message_rate: tuple[float, int] = (1000.0, 2000),
        login_timeout: float | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.lobby = lobby
        self.peer = writer.get_extra_info("peername")
        self.address = peer_address(self.peer)
        # This connection's place among the listener's (None: not counted, in-process use).
        self.slot: Slot | None = None
        # Asked for each read's arrival time (None: the read time is used).
        self._sock: object | None = writer.get_extra_info("socket")
        self.player_rooms: dict[str, Room] = {}
        self.observed_rooms: dict[str, Room] = {}
        # Why this client leaves its rooms when the connection ends (set by `_feed`).
        self.left_cause = LeftCause.LOST_CONNECTION
        self._write_timeout = write_timeout
        self._write_lock = asyncio.Lock()
        self._outbox: asyncio.Queue[Outgoing[Out]] = asyncio.Queue(observer_queue)
        self._outbox_task: asyncio.Task[None] | None = None
        self._closed = False
        self._goodbye_done = False
        self._rate = MessageRate(*message_rate)
        # Encoded news waiting for the next write or the end of this loop turn (see above).
        self._corked: list[bytes] = []
        # A connection that has not joined anything (nor authenticated) after this many
        # seconds is refused and closed: silent and byte-at-a-time clients alike.
        self._login_timeout = login_timeout
        self._login_timer: asyncio.TimerHandle | None = None
        self._refusing: asyncio.Task[None] | None = None
        self._joined_ever = False
        # Reading (see `run`): chunks not handled yet, the task of one whose handling
        # waits, and the future `run` waits on for the end.
        self._backlog: deque[tuple[bytes, float]] = deque()
        self._handling: asyncio.Task[None] | None = None
        self._ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # ------------------------------------------------------------------ protocol hooks
    @abc.abstractmethod
    async def _feed(self, data: bytes, arrived: float) -> bool:
        """Handle received bytes (empty = end of file), stamped with their arrival time;
        False when the connection must end (set `left_cause` first)."""

    @abc.abstractmethod
    def _encode(self, message: Out, key: Hashable | None) -> bytes:
        """The bytes of one message; `key` names a message other recipients get too, so
        its encoding may be shared (see `server.net.sc_cache`)."""

    @abc.abstractmethod
    def _room_messages(self, room: Room, entry: Entry, seat: int | None) -> Iterable[Outgoing[Out]]:
        """The messages for one log entry, for `seat` (None = an observer), with their
        shared-encoding keys. A key must name what the recipient may see: (room, seq,
        `views.audience(seat)`) for news, so that no seat ever gets another seat's bytes."""

    @abc.abstractmethod
    def _goodbye_bytes(self, server_initiated: bool) -> bytes:
        """The protocol's last bytes (may be empty: drop without a word)."""

    @abc.abstractmethod
    def _refusal_bytes(self, reason: str, detail: str) -> bytes:
        """The protocol's words for turning the connection away (`reason` is a Kettle
        nack reason: server_full, too_many_connections, login_timeout), goodbye included."""

    def _has_joined(self) -> bool:
        """Whether the client has done what a connection is for (joined a room, observes,
        authenticated); until then the login deadline runs."""
        return self._joined_ever or bool(self.player_rooms or self.observed_rooms)

    async def refuse(self, reason: str, detail: str) -> None:
        """Turn the client away in its own protocol, then close (nothing else is read)."""
        self._closed = True
        if not self.writer.is_closing() and not self._goodbye_done:
            self._goodbye_done = True
            async with self._write_lock:
                with contextlib.suppress(ConnectionError, OSError, TimeoutError,
                                         LocalProtocolError):
                    await self._send(self._refusal_bytes(reason, detail),
                                     min(self._write_timeout, 5.0))
        if not self.writer.is_closing():
            self.writer.close()

    def _login_expired(self) -> None:
        if self._closed or self._has_joined():
            return
        self.turn_away("login_timeout", f"nothing joined within {self._login_timeout:g} s")

    def turn_away(self, reason: str, detail: str) -> None:
        """Refuse the client now (a timer or another connection decided it), then close."""
        if self._closed or self._refusing is not None:
            return
        log.info("%s: %s (%s); closing", self.peer, reason, detail)
        self.left_cause = LeftCause.PROTOCOL_ERROR
        self._closed = True  # nothing it sends from now on is handled (no join sneaks in)
        self._refusing = asyncio.get_running_loop().create_task(self.refuse(reason, detail))

    async def _no_slot(self, trusted: bool) -> bool:
        """Before a first join or authentication: True (and the client is refused) when
        the server or this address has no slot for it. `trusted`: the request carries a
        valid reservation or the admin password, which always get one."""
        refusal = self.slot.refusal(trusted) if self.slot is not None else None
        if refusal is None:
            return False
        log.info("%s: %s (%s); refusing", self.peer, *refusal)
        self.left_cause = LeftCause.PROTOCOL_ERROR
        await self.refuse(*refusal)
        return True

    def _settle(self) -> None:
        """The client joined or authenticated: it keeps its slot (never evicted)."""
        if self.slot is not None:
            self.slot.settle()

    # ------------------------------------------------------------------ main loop
    async def run(self, first: bytes, arrived: float) -> None:
        """Handle the connection until it ends; `first` are the sniffed first bytes.

        After them the reader hands each chunk to `_received` as it arrives (see
        `server.net.feeding`); this task only waits for the end.
        """
        self._outbox_task = asyncio.create_task(
            self._drain_outbox(), name=f"{self.protocol}-out-{self.peer}")
        if self._login_timeout is not None:
            # The deadline counts from the first byte (the listener's sniff is bounded too).
            remaining = max(0.0, self._login_timeout - (time.monotonic() - arrived))
            self._login_timer = asyncio.get_running_loop().call_later(
                remaining, self._login_expired)
        try:
            if await self._feed(first, arrived) and not self._closed:
                self.reader.attach(self._received)
                await self._ended
        except (ConnectionError, OSError) as exc:
            log.info("%s: connection error %s", self.peer, exc)
            self.left_cause = LeftCause.LOST_CONNECTION
        finally:
            self.reader.detach()
            await self._shutdown()

    def _received(self, data: bytes | BaseException) -> None:
        """The reader's sink: a chunk (b"": the end of the stream; an exception: the
        connection failed), handled now unless an earlier chunk's handling still waits."""
        if self._ended.done():
            return
        if isinstance(data, BaseException) or self._closed:
            self._end(data if isinstance(data, BaseException) else None)
            return
        self._backlog.append((data, self._arrived() if data else time.monotonic()))
        if self._handling is None:
            self._handle_backlog()
        else:
            self.reader.pause()  # until the backlog is handled

    def _handle_backlog(self) -> None:
        while self._backlog and not self._ended.done():
            data, stamp = self._backlog.popleft()
            handling = run_eagerly(self._feed(data, stamp), self._fed, self._end)
            if handling is not None:  # it waits: the rest follows when it is done
                self._handling = handling
                handling.add_done_callback(self._waited)
                return
        if not self._ended.done():
            self.reader.resume()

    def _waited(self, _: asyncio.Task[None]) -> None:
        self._handling = None
        self._handle_backlog()

    def _fed(self, going: bool) -> None:
        if not going or self._closed:
            self._end()

    def _end(self, error: BaseException | None = None) -> None:
        """The connection ends (`run` then shuts the session down); `error` is raised there."""
        if self._ended.done():
            return
        if error is None or isinstance(error, asyncio.CancelledError):
            self._ended.set_result(None)
        else:
            self._ended.set_exception(error)

    def _arrived(self) -> float:
        """When the bytes just read arrived (see `arrival_time`), at the latest now."""
        now = time.monotonic()
        if self._sock is None:
            return now
        arrived = arrival_time(self._sock)
        if arrived is None:
            self._sock = None  # not TCP, or not Linux: do not ask again
            return now
        return min(arrived, now)

    def _over_rate(self, arrived: float) -> bool:
        """Spend one incoming message; True when the client floods (the caller hangs up)."""
        if self._rate.take(arrived):
            return False
        log.info("%s: over %s messages/s, closing", self.peer, self._rate.per_second)
        return True

    # ------------------------------------------------------------------ room links
    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        """PlayerLink: write the event's messages now; the time they were written."""
        self._joined_ever = True
        if isinstance(entry.event, RoomClosed):
            self.player_rooms.pop(room.id, None)
        if isinstance(entry.event, StateChanged):
            return self._cork(room, entry, seat)
        written: float | None = None
        for message, key in self._room_messages(room, entry, seat):
            written = await self._write(message, key)
        return written

    def _cork(self, room: Room, entry: Entry, seat: int) -> float | None:
        """Encode news now (in log order), write them with the next write or at the end of
        this loop turn, whichever comes first."""
        if self._closed or self.writer.is_closing():
            return None
        try:
            encoded = [self._encode(message, key)
                       for message, key in self._room_messages(room, entry, seat)]
        except LocalProtocolError as exc:
            log.info("%s: write failed (%s); closing", self.peer, type(exc).__name__)
            self._abort()
            return None
        self._cork_bytes(encoded)
        return time.monotonic()

    def _cork_bytes(self, encoded: list[bytes]) -> None:
        """Hold encoded messages for the next write or the end of this loop turn."""
        if encoded:
            if not self._corked:
                asyncio.get_running_loop().call_soon(self._uncork)
            self._corked.extend(encoded)

    def _uncork(self) -> None:
        """End of the loop turn: write what is still corked (without waiting)."""
        if not self._corked:
            return
        if self._write_lock.locked():
            # A write is waiting for the socket; a queued writer appends after it.
            asyncio.get_running_loop().create_task(self._write_corked())
            return
        self._send_now(b"")

    async def _write_corked(self) -> None:
        async with self._write_lock:
            if self._corked and not self._closed:
                try:
                    await self._send(b"")
                except (ConnectionError, OSError, TimeoutError) as exc:
                    log.info("%s: write failed (%s); closing", self.peer, type(exc).__name__)
                    self._abort()

    def _uncorked(self, data: bytes) -> bytes:
        """`data` after whatever is corked (taken off the cork)."""
        if self._corked:
            data = b"".join((*self._corked, data))
            self._corked.clear()
        return data

    def _send_now(self, data: bytes) -> None:
        """Write `data` after whatever is corked, without waiting."""
        data = self._uncorked(data)
        if self._closed or self.writer.is_closing():
            return
        try:
            self.writer.write(data)
        except (ConnectionError, OSError) as exc:
            log.info("%s: write failed (%s); closing", self.peer, type(exc).__name__)
            self._abort()

    async def _send(self, data: bytes, timeout: float | None = None) -> None:
        """Write `data` (after what is corked); wait only if the transport buffered bytes.

        Raises what writing raises (the caller decides what failing means).
        """
        writer = self.writer
        writer.write(self._uncorked(data))
        if writer.transport.get_write_buffer_size():
            # wait_for, not asyncio.timeout: this may run outside any task (see `run`).
            await asyncio.wait_for(writer.drain(),
                                   self._write_timeout if timeout is None else timeout)

    def offer_room_event(self, room: Room, entry: Entry) -> bool:
        """ObserverLink: queue the event's messages; False (drop me) when the queue is full."""
        if self._closed:
            return False
        if isinstance(entry.event, RoomClosed):
            self.observed_rooms.pop(room.id, None)
        try:
            for outgoing in self._room_messages(room, entry, None):
                self._outbox.put_nowait(outgoing)
        except asyncio.QueueFull:
            self.observed_rooms.pop(room.id, None)
            return False
        return True

    def _offer(self, message: Out, key: Hashable | None = None) -> bool:
        """Queue a message for the writer task (never blocks); False when the queue is full."""
        if self._closed:
            return False
        try:
            self._outbox.put_nowait((message, key))
        except asyncio.QueueFull:
            return False
        return True

    # ------------------------------------------------------------------ writing
    async def _write(self, message: Out, key: Hashable | None = None) -> float | None:
        """Encode and write one message, wait for the socket; None if the connection is gone.

        With no other write waiting for the socket (the usual case) it is written at once,
        without the lock: the lock is for waiting, when the transport had to buffer.
        """
        if self._closed or self.writer.is_closing():
            return None
        try:
            if self._write_lock.locked():
                data: bytes | None = None  # encoded in its turn: the codec's state follows the wire
            else:
                self.writer.write(self._uncorked(self._encode(message, key)))
                if not self.writer.transport.get_write_buffer_size():
                    return time.monotonic()
                data = b""  # written; left to do: wait for the socket
            async with self._write_lock:
                if self._closed:  # closed while we waited for the lock
                    return None
                await self._send(self._encode(message, key) if data is None else data)
        except (ConnectionError, OSError, TimeoutError, LocalProtocolError) as exc:
            log.info("%s: write failed (%s); closing", self.peer, type(exc).__name__)
            self._abort()
            return None
        return time.monotonic()

    async def _write_end(self, server_initiated: bool = False) -> None:
        """The protocol's goodbye, once."""
        if self.writer.is_closing() or self._goodbye_done:
            return
        async with self._write_lock:
            if self._goodbye_done:
                return
            self._goodbye_done = True
            with contextlib.suppress(ConnectionError, OSError, TimeoutError, LocalProtocolError):
                data = self._goodbye_bytes(server_initiated)
                if data or self._corked:
                    await self._send(data, min(self._write_timeout, 5.0))

    async def _drain_outbox(self) -> None:
        while True:
            message, key = await self._outbox.get()
            if await self._write(message, key) is None:
                return

    def _abort(self) -> None:
        self._closed = True
        self.writer.transport.abort()

    # ------------------------------------------------------------------ the end
    async def _shutdown(self) -> None:
        """Leave every room first (nothing below may prevent that), then say goodbye."""
        self._closed = True
        if self._login_timer is not None:
            self._login_timer.cancel()
        if self._handling is not None:
            self._handling.cancel()
            await asyncio.wait([self._handling])
        if self._refusing is not None:
            await asyncio.wait([self._refusing])
        self.lobby.remove_admin(self)  # type: ignore[arg-type]  # only admins are listed
        for room in list(self.observed_rooms.values()):
            room.remove_observer(self)
        for room in list(self.player_rooms.values()):
            room.player_gone(self, self.left_cause)
        self.observed_rooms.clear()
        self.player_rooms.clear()
        if self._outbox_task is not None:
            self._outbox_task.cancel()
            # wait() neither raises the task's exception nor swallows our own cancellation.
            await asyncio.wait([self._outbox_task])
            # Its CancelledError's traceback holds the frame that holds this session: let
            # reference counting free the connection, not the cyclic collector.
            self._outbox_task = None
        await self._write_end()
        await self._linger()
        if not self.writer.is_closing():
            self.writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            async with asyncio.timeout(1.0):
                await self.writer.wait_closed()

    async def _linger(self) -> None:
        """Half-close, then wait a little for the peer's end before closing: a socket closed
        with received bytes still unread sends an RST, and an RST can destroy what was just
        written before the peer reads it (a client still sending an oversize frame lost the
        `frame_too_large` refusal that way). The peer sees the end at once either way; what
        it still sends is dropped (the reader is detached)."""
        writer = self.writer
        if writer.is_closing() or not writer.can_write_eof():
            return
        with contextlib.suppress(ConnectionError, OSError, TimeoutError, RuntimeError):
            writer.write_eof()
            self.reader.resume()
            async with asyncio.timeout(LINGER_SECONDS):
                await self.reader.read()  # b"" at the peer's end

    async def close(self) -> None:
        """Server shutdown: the protocol's goodbye, then drop the connection."""
        await self._write_end(server_initiated=True)
        self._closed = True
        if not self.writer.is_closing():
            self.writer.close()
