"""One Software-Challenge XML client: feeds the sans-I/O codec, dispatches, writes bytes.

The session translates and never decides game questions: lobby requests go to the `Lobby`,
moves to their `Room`, and room events come back through `send_room_event` (players, awaited:
the room's move clock starts when the moveRequest bytes are written) or `offer_room_event`
(observers, never blocking: a bounded queue drained by the session's own writer task).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import Hashable
from typing import Any

from protocols.base import (
    NEED_DATA,
    ConnectionClosed,
    LocalProtocolError,
    ProtocolError,
    StreamEnd,
)
from protocols.sc import messages as m
from protocols.sc import texts
from protocols.sc.connection import ServerConnection
from server.net.ratelimit import MessageRate
from server.net.sc_cache import SharedEncodings
from server.net.sc_translate import end_of_stream, error_packet, room_event_messages
from server.rooms import (
    Entry,
    LeftCause,
    Lobby,
    LobbyError,
    LobbyErrorKind,
    Room,
    RoomClosed,
    SlotRequest,
    UnknownGameType,
)

log = logging.getLogger(__name__)


def _share_key(room: Room, entry: Entry, message: m.ServerMessage) -> Hashable | None:
    """Mementos are identical for every recipient: encode them once per log entry."""
    return (room.id, entry.seq) if isinstance(message, m.Memento) else None

READ_SIZE = 65536  # well below the codec's max_buffered_bytes - max_message_bytes

# How we end our side of the document (see `ScSession._feed`).
_GOODBYE_CLOSE = "close"  # <close/></protocol>: we stop on our own initiative
_GOODBYE_END = "end"  # </protocol>: the peer said <close/>
_GOODBYE_NONE = "none"  # drop the socket (garbage, unknown game type)


class ScSession:
    """Speaks for one SC client; a connection may play in rooms, observe rooms and administer."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        lobby: Lobby,
        *,
        admin_password: str,
        observer_queue: int = 512,
        write_timeout: float = 30.0,
        shared: SharedEncodings | None = None,
        message_rate: tuple[float, int] = (1000.0, 2000),
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.lobby = lobby
        self.conn = ServerConnection()
        self.peer = writer.get_extra_info("peername")
        self.authenticated = False
        self.player_rooms: dict[str, Room] = {}
        self.observed_rooms: dict[str, Room] = {}
        self._admin_password = admin_password
        self._write_timeout = write_timeout
        self._write_lock = asyncio.Lock()
        self._shared = shared or SharedEncodings()
        self._outbox: asyncio.Queue[tuple[m.ServerMessage, Hashable | None]] = asyncio.Queue(
            observer_queue)
        self._outbox_task: asyncio.Task[None] | None = None
        self._closed = False
        self._left_cause = LeftCause.LOST_CONNECTION
        self._goodbye = _GOODBYE_CLOSE
        self._rate = MessageRate(*message_rate)

    # ------------------------------------------------------------------ main loop
    async def run(self, first: bytes, arrived: float) -> None:
        """Handle the connection until it ends; `first` are the sniffed first bytes."""
        self._outbox_task = asyncio.create_task(self._drain_outbox(), name=f"sc-out-{self.peer}")
        try:
            data, stamp = first, arrived
            while not self._closed:
                if not await self._feed(data, stamp):
                    break
                data = await self.reader.read(READ_SIZE)
                stamp = time.monotonic()
        except (ConnectionError, OSError) as exc:
            log.info("%s: connection error %s", self.peer, exc)
            self._left_cause = LeftCause.LOST_CONNECTION
        finally:
            await self._shutdown()

    async def _feed(self, data: bytes, arrived: float) -> bool:
        """Feed bytes, handle every complete message; False when the connection must end.

        How it ends decides the LEFT cause and our goodbye, as the official server does:
        the peer's `<close/>` (RECEIVED_DISCONNECT) gets our `</protocol>`; a bare
        `</protocol>` or end of file (LOST_CONNECTION) gets `<close/></protocol>`, since we
        stop on our own initiative; garbage (PROTOCOL_ERROR) is dropped without a word.
        """
        try:
            self.conn.receive_data(data)
            while not self._closed:
                event = self.conn.next_event()
                if event is NEED_DATA:
                    return bool(data)
                if isinstance(event, ConnectionClosed | StreamEnd):
                    self._left_cause = LeftCause.LOST_CONNECTION
                    self._goodbye = _GOODBYE_CLOSE
                    return False
                if isinstance(event, m.Close):
                    self._left_cause = LeftCause.RECEIVED_DISCONNECT
                    self._goodbye = _GOODBYE_END
                    return False
                if not self._rate.take(arrived):
                    # A flood: say why in the protocol's own error message, then hang up
                    # (inside a game that is a LEFT like any other protocol error).
                    log.info("%s: over %s messages/s, closing", self.peer, self._rate.per_second)
                    await self._write(m.ErrorPacket(texts.rate_limited(self._rate.per_second)))
                    self._left_cause = LeftCause.PROTOCOL_ERROR
                    self._goodbye = _GOODBYE_CLOSE
                    return False
                await self._dispatch(event, arrived)
        except ProtocolError as exc:
            # Garbage: the official server drops the connection without an errorpacket.
            log.info("%s: protocol error, closing: %s", self.peer, exc.reason)
            self._left_cause = LeftCause.PROTOCOL_ERROR
            self._goodbye = _GOODBYE_NONE
            return False
        return not self._closed

    async def _dispatch(self, message: Any, arrived: float) -> None:
        try:
            match message:
                case m.RoomPacket(room_id=room_id, data=data):
                    self.lobby.room(room_id).submit(self, data, arrived)
                case m.Join(game_type=game_type):
                    await self._seat(lambda: self.lobby.join(self, game_type))
                case m.JoinRoom(room_id=room_id):
                    await self._seat(lambda: self.lobby.join_room(self, room_id))
                case m.JoinPrepared(reservation_code=code):
                    await self._seat(lambda: self.lobby.join_prepared(self, code))
                case m.Authenticate(password=password):
                    self._authenticate(password)
                case m.Prepare() | m.Observe() | m.Pause() | m.Step() | m.Cancel():
                    if not self.authenticated:
                        raise LobbyError(LobbyErrorKind.UNAUTHENTICATED, message)
                    await self._admin(message)
                case _:
                    log.warning("%s: unexpected message %r", self.peer, message)
        except LobbyError as exc:
            await self._write(error_packet(exc, message))

    async def _seat(self, take: Any) -> None:
        try:
            seating = take()
        except UnknownGameType as exc:
            # The official server fails to load the plugin and drops the connection.
            log.info("%s: %s; closing", self.peer, exc)
            self._goodbye = _GOODBYE_NONE
            self._closed = True
            return
        room = seating.room
        self.player_rooms[room.id] = room
        await self._write(m.Joined(room.id))
        self.lobby.seated(seating)

    def _authenticate(self, password: str) -> None:
        if hmac.compare_digest(password.encode(), self._admin_password.encode()):
            self.authenticated = True
            self.lobby.add_admin(self)
            return
        raise LobbyError(LobbyErrorKind.AUTH_FAILED)

    async def _admin(self, message: Any) -> None:
        match message:
            case m.Prepare(game_type=game_type, pause=pause, slots=slots):
                try:
                    room, codes = self.lobby.prepare(
                        game_type,
                        [SlotRequest(s.display_name, s.can_timeout, s.reserved) for s in slots],
                        pause,
                    )
                except UnknownGameType as exc:
                    raise LobbyError(LobbyErrorKind.BAD_REQUEST, game_type, str(exc)) from None
                await self._write(m.Prepared(room.id, tuple(codes)))
            case m.Observe(room_id=room_id):
                room = self.lobby.room(room_id)
                room.add_observer(self)
                self.observed_rooms[room.id] = room
                await self._write(m.Observed(room.id))
            case m.Pause(room_id=room_id, pause=pause):
                self.lobby.room(room_id).pause(pause)
            case m.Step(room_id=room_id, forced=forced):
                self.lobby.room(room_id).step(forced)
            case m.Cancel(room_id=room_id):
                self.lobby.room(room_id).cancel()

    # ------------------------------------------------------------------ room links
    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        """PlayerLink: write the event's messages now; the time they were written."""
        if isinstance(entry.event, RoomClosed):
            self.player_rooms.pop(room.id, None)
        written: float | None = None
        for message in room_event_messages(room, entry, seat):
            written = await self._write(message, _share_key(room, entry, message))
        return written

    def offer_room_event(self, room: Room, entry: Entry) -> bool:
        """ObserverLink: queue the event's messages; False (drop me) when the queue is full."""
        if self._closed:
            return False
        if isinstance(entry.event, RoomClosed):
            self.observed_rooms.pop(room.id, None)
        try:
            for message in room_event_messages(room, entry, None):
                self._outbox.put_nowait((message, _share_key(room, entry, message)))
        except asyncio.QueueFull:
            self.observed_rooms.pop(room.id, None)
            return False
        return True

    def offer_joined_game_room(self, room_id: str, player_count: int) -> bool:
        """AdminLink: tell an authenticated admin that a player joined a room."""
        if self._closed:
            return False
        try:
            self._outbox.put_nowait((m.JoinedGameRoom(room_id, player_count), None))
        except asyncio.QueueFull:
            return False
        return True

    # ------------------------------------------------------------------ writing
    async def _write(self, message: m.ServerMessage, key: Hashable | None = None
                     ) -> float | None:
        """Encode and write one message, wait for the socket; None if the connection is gone.

        `key` names a message that other connections get too: its bytes are encoded once.
        """
        if self._closed or self.writer.is_closing():
            return None
        async with self._write_lock:
            if self._closed:  # closed while we waited for the lock
                return None
            try:
                if key is None:
                    data = self.conn.send(message)
                else:
                    data = self.conn.send_body(self._shared.body(key, message))
                async with asyncio.timeout(self._write_timeout):
                    self.writer.write(data)
                    await self.writer.drain()
            except (ConnectionError, OSError, TimeoutError, LocalProtocolError) as exc:
                log.info("%s: write failed (%s); closing", self.peer, type(exc).__name__)
                self._abort()
                return None
        return time.monotonic()

    async def _write_end(self) -> None:
        """Our goodbye (see `_feed`): `<close/></protocol>`, `</protocol>` or nothing."""
        if self.writer.is_closing() or self._goodbye == _GOODBYE_NONE:
            return
        async with self._write_lock:
            with contextlib.suppress(ConnectionError, OSError, TimeoutError, LocalProtocolError):
                data = b""
                if self._goodbye == _GOODBYE_CLOSE and not self.conn.send_closed:
                    data = self.conn.send(m.Close())
                data += end_of_stream(self.conn)
                if data:
                    async with asyncio.timeout(min(self._write_timeout, 5.0)):
                        self.writer.write(data)
                        await self.writer.drain()
            self._goodbye = _GOODBYE_NONE

    async def _drain_outbox(self) -> None:
        while True:
            message, key = await self._outbox.get()
            if await self._write(message, key) is None:
                return

    def _abort(self) -> None:
        self._closed = True
        self.writer.transport.abort()

    async def _shutdown(self) -> None:
        """Leave every room first (nothing below may prevent that), then say goodbye."""
        self._closed = True
        self.lobby.remove_admin(self)
        for room in list(self.observed_rooms.values()):
            room.remove_observer(self)
        for room in list(self.player_rooms.values()):
            room.player_gone(self, self._left_cause)
        self.observed_rooms.clear()
        self.player_rooms.clear()
        if self._outbox_task is not None:
            self._outbox_task.cancel()
            # wait() neither raises the task's exception nor swallows our own cancellation.
            await asyncio.wait([self._outbox_task])
        await self._write_end()
        if not self.writer.is_closing():
            self.writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            async with asyncio.timeout(1.0):
                await self.writer.wait_closed()

    async def close(self) -> None:
        """Server shutdown: `<close/></protocol>`, then drop the connection."""
        self._goodbye = _GOODBYE_CLOSE
        await self._write_end()
        self._closed = True
        if not self.writer.is_closing():
            self.writer.close()
