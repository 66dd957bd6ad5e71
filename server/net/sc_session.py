"""One Software-Challenge XML client: the SC codec and translation on the shared `Session`.

The session translates and never decides game questions: lobby requests go to the `Lobby`,
moves to their `Room`, and room events come back as SC messages (`sc_translate`). The read
loop, room links, timed writes, the observer outbox and shutdown live in `Session`.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Hashable, Iterable
from typing import Any

from protocols.base import NEED_DATA, ConnectionClosed, ProtocolError, StreamEnd
from protocols.sc import messages as m
from protocols.sc import texts
from protocols.sc.connection import ServerConnection
from server.net.lockout import Lockout
from server.net.sc_cache import SharedEncodings
from server.net.sc_translate import end_of_stream, error_packet, room_event_messages
from server.net.session import Outgoing, Session
from server.rooms import (
    Entry,
    LeftCause,
    Lobby,
    LobbyError,
    LobbyErrorKind,
    Room,
    SlotRequest,
    StateChanged,
    UnknownGameType,
)

log = logging.getLogger(__name__)

# How we end our side of the document (see `ScSession._feed`).
_GOODBYE_CLOSE = "close"  # <close/></protocol>: we stop on our own initiative
_GOODBYE_END = "end"  # </protocol>: the peer said <close/>
_GOODBYE_NONE = "none"  # drop the socket (garbage, unknown game type)


class ScSession(Session[m.ServerMessage]):
    """Speaks for one SC client; a connection may play in rooms, observe rooms and administer."""

    protocol = "sc"

    def __init__(
        self,
        reader: Any,
        writer: Any,
        lobby: Lobby,
        *,
        admin_password: str,
        observer_queue: int = 512,
        write_timeout: float = 30.0,
        shared: SharedEncodings | None = None,
        message_rate: tuple[float, int] = (1000.0, 2000),
        login_timeout: float | None = None,
        lockout: Lockout | None = None,
    ) -> None:
        super().__init__(reader, writer, lobby, observer_queue=observer_queue,
                         write_timeout=write_timeout, message_rate=message_rate,
                         login_timeout=login_timeout)
        self.conn = ServerConnection()
        self.authenticated = False
        self._admin_password = admin_password
        self._lockout = lockout or Lockout()
        self._shared = shared or SharedEncodings()
        self._goodbye = _GOODBYE_CLOSE

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
                    self.left_cause = LeftCause.LOST_CONNECTION
                    self._goodbye = _GOODBYE_CLOSE
                    return False
                if isinstance(event, m.Close):
                    self.left_cause = LeftCause.RECEIVED_DISCONNECT
                    self._goodbye = _GOODBYE_END
                    return False
                if self._over_rate(arrived):
                    # A flood: say why in the protocol's own error message, then hang up
                    # (inside a game that is a LEFT like any other protocol error).
                    await self._write(m.ErrorPacket(texts.rate_limited(self._rate.per_second)))
                    self.left_cause = LeftCause.PROTOCOL_ERROR
                    self._goodbye = _GOODBYE_CLOSE
                    return False
                await self._dispatch(event, arrived)
        except ProtocolError as exc:
            # Garbage: the official server drops the connection without an errorpacket.
            log.info("%s: protocol error, closing: %s", self.peer, exc.reason)
            self.left_cause = LeftCause.PROTOCOL_ERROR
            self._goodbye = _GOODBYE_NONE
            return False
        return not self._closed

    async def _dispatch(self, message: Any, arrived: float) -> None:
        try:
            match message:
                case m.RoomPacket(room_id=room_id, data=data):
                    self.lobby.room(room_id).submit(self, data, arrived)
                case m.Join() if (code := await self._launched()) is not None:
                    # A launched bot that knows only `--reservation` takes its own seat.
                    await self._seat(lambda: self.lobby.join_prepared(self, code, self.protocol),
                                     trusted=True)
                case m.Join(game_type=game_type):
                    # An admin's joins are not counted against the join quotas.
                    opener = None if self.authenticated else self.address
                    await self._seat(lambda: self.lobby.join(self, game_type, self.protocol,
                                                             opener=opener))
                case m.JoinRoom(room_id=room_id):
                    await self._seat(lambda: self.lobby.join_room(self, room_id, self.protocol))
                case m.JoinPrepared(reservation_code=code):
                    await self._seat(lambda: self.lobby.join_prepared(self, code, self.protocol),
                                     trusted=self.lobby.reserved(code))
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

    async def _launched(self) -> str | None:
        """The reservation of the launched seat whose bot opened this (loopback)
        connection, when that bot sent a plain join."""
        find = self.lobby.find_launched
        if find is None or self.authenticated or self.player_rooms:
            return None
        try:
            return await find(self.peer, self.writer.get_extra_info("sockname"))
        except Exception:  # a failed lookup only means a plain join
            log.exception("%s: looking up a launched bot failed", self.peer)
            return None

    async def _seat(self, take: Any, trusted: bool = False) -> None:
        if await self._no_slot(trusted):
            return
        try:
            seating = take()
        except UnknownGameType as exc:
            # The official server fails to load the plugin and drops the connection.
            log.info("%s: %s; closing", self.peer, exc)
            self._goodbye = _GOODBYE_NONE
            self._closed = True
            return
        self._settle()
        room = seating.room
        self.player_rooms[room.id] = room
        await self._write(m.Joined(room.id))
        self.lobby.seated(seating)

    def _authenticate(self, password: str) -> None:
        now = time.monotonic()
        if wait := self._lockout.locked(self.address, now):
            # Not even checked: a locked-out address learns nothing about its guesses.
            log.warning("%s: admin login refused, locked out for %.0f s more",
                        self.peer, wait)
            raise LobbyError(LobbyErrorKind.AUTH_LOCKED, self.address,
                             texts.authentication_locked(self._lockout.attempts, wait))
        if hmac.compare_digest(password.encode(), self._admin_password.encode()):
            self._lockout.succeeded(self.address)
            self.authenticated = True
            self._settle()  # the password always gets a slot
            self.lobby.add_admin(self)
            return
        self._lockout.failed(self.address, now)
        log.warning("%s: wrong admin password", self.peer)
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
                if not self.lobby.speaks(room, self.protocol):
                    raise LobbyError(LobbyErrorKind.BAD_REQUEST, room_id,
                                     f"{room.game_type} cannot be watched over {self.protocol}")
                room.add_observer(self)
                self.observed_rooms[room.id] = room
                await self._write(m.Observed(room.id))
            case m.Pause(room_id=room_id, pause=pause):
                self.lobby.room(room_id).pause(pause)
            case m.Step(room_id=room_id, forced=forced):
                self.lobby.room(room_id).step(forced)
            case m.Cancel(room_id=room_id):
                self.lobby.room(room_id).cancel()

    # ------------------------------------------------------------------ translation
    def _room_messages(self, room: Room, entry: Entry, seat: int | None
                       ) -> Iterable[Outgoing[m.ServerMessage]]:
        for message in room_event_messages(room, entry, seat):
            yield message, _share_key(room, entry, seat, message)

    def _encode(self, message: m.ServerMessage, key: Hashable | None) -> bytes:
        if key is None:
            return self.conn.send(message)
        # Encoded once for every connection that gets it; each frames it itself.
        return self.conn.send_body(self._shared.body(key, message))

    def _goodbye_bytes(self, server_initiated: bool) -> bytes:
        """`<close/></protocol>`, `</protocol>` or nothing (see `_feed`)."""
        goodbye = _GOODBYE_CLOSE if server_initiated else self._goodbye
        if goodbye == _GOODBYE_NONE:
            return b""
        data = b""
        if goodbye == _GOODBYE_CLOSE and not self.conn.send_closed:
            data = self.conn.send(m.Close())
        return data + end_of_stream(self.conn)

    def _refusal_bytes(self, reason: str, detail: str) -> bytes:
        """An errorpacket saying why, then `<close/></protocol>`."""
        data = self.conn.send(m.ErrorPacket(texts.refused(reason, detail)))
        return data + self.conn.send(m.Close()) + end_of_stream(self.conn)

    def _has_joined(self) -> bool:
        return self.authenticated or super()._has_joined()

    def offer_joined_game_room(self, room_id: str, player_count: int) -> bool:
        """AdminLink: tell an authenticated admin that a player joined a room."""
        return self._offer(m.JoinedGameRoom(room_id, player_count))


def _share_key(room: Room, entry: Entry, seat: int | None, message: m.ServerMessage
               ) -> Hashable | None:
    """Mementos go to several recipients: encode each once per (entry, what it shows).

    The audience part is None for the public view (every Blokus recipient), the seat for a
    view of its own, so a cached body never reaches a recipient that may not see it.
    """
    if not isinstance(message, m.Memento):
        return None
    event = entry.event
    audience = event.views.audience(seat) if isinstance(event, StateChanged) else None
    return (room.id, entry.seq, audience)
