"""The lobby: matches clients to rooms (join, joinRoom, joinPrepared) and admins to rooms.

Everything here is synchronous and quick; rooms run in their own tasks.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from server.rooms.errors import LobbyError, LobbyErrorKind
from server.rooms.inprocess import IN_PROCESS
from server.rooms.room import Clocks, ResultHook, Room, ServerStats, Slot

if TYPE_CHECKING:
    from server.games.registry import GameRegistry
    from server.rooms.game import Game

log = logging.getLogger(__name__)

class AdminLink(Protocol):
    """An authenticated admin connection: told whenever a player joins a room."""

    def offer_joined_game_room(self, room_id: str, player_count: int) -> bool: ...


@dataclass(frozen=True)
class SlotRequest:
    """One slot of an admin `prepare`."""

    display_name: str = ""
    can_timeout: bool = True
    reserved: bool = True


@dataclass(frozen=True)
class Seating:
    room: Room
    seat: int


class Lobby:
    """All open rooms of a server, for every registered game.

    Player calls name the caller's wire `protocol` ("sc", "kettle"): a client is only seated
    in a game its protocol can seat (the game's plugin says which).

    >>> import asyncio
    >>> async def demo():
    ...     lobby = Lobby()
    ...     a, b = object(), object()
    ...     first = lobby.join(a, None)
    ...     second = lobby.join(b, None)
    ...     return first.room is second.room, first.seat, second.seat
    >>> asyncio.run(demo())
    (True, 0, 1)
    """

    def __init__(
        self,
        *,
        clocks: Clocks | None = None,
        paused: bool = False,
        stats: ServerStats | None = None,
        on_result: ResultHook | None = None,
        max_rooms: int = 1000,
        max_observers: int = 16,
        games: GameRegistry | None = None,
        seed: int | None = None,
        empty_room_timeout: float | None = 600.0,
        max_waiting_seats: int = 8,
        max_join_rooms: int = 512,
        max_join_rooms_per_address: int = 256,
    ) -> None:
        if games is None:
            from server.games.registry import GameRegistry

            games = GameRegistry.from_entry_points()
        self.rooms: dict[str, Room] = {}
        self.clocks = clocks or Clocks()
        self.paused = paused
        self.stats = stats or ServerStats()
        self.admins: list[AdminLink] = []
        self._reservations: dict[str, tuple[Room, int]] = {}
        self._on_result = on_result
        self._max_rooms = max_rooms
        self._max_observers = max_observers
        self.games = games
        # Seeds the games in room-creation order, so that a series can be replayed exactly;
        # None: every game draws fresh randomness.
        self._seeds = random.Random(seed) if seed is not None else None
        self._empty_room_timeout = empty_room_timeout
        self._max_waiting_seats = max_waiting_seats
        # Rooms open now that an unauthenticated join opened, by the opener's address: a
        # client without a secret may not fill the server (or its store) with matches.
        self._max_join_rooms = max_join_rooms
        self._max_join_rooms_per_address = max_join_rooms_per_address
        self.join_openers: dict[str, str] = {}
        self._join_rooms_at: Counter[str] = Counter()
        # Told of every new room, in order, synchronously, before its task first runs: the
        # store's recorder (a match row per room, whoever created it), the spectators' hub,
        # a worker's outlet. Append to subscribe.
        self.room_listeners: list[Callable[[Room], object]] = []
        # (client, server) address of a loopback connection -> the reservation of the
        # launched seat whose bot holds it (MatchService.launched_reservation), or None.
        self.find_launched: Callable[[Any, Any], Awaitable[str | None]] | None = None
        # Asked before a client is seated or a room prepared: a text refuses (the store
        # cannot write, so no new match could keep its result); None lets it through.
        self.gate: Callable[[], str | None] | None = None

    # ------------------------------------------------------------------ rooms
    def _new_room(self, game_type: str, slots: list[Slot], paused: bool,
                  clocks: Clocks | None = None, seed: int | None = None,
                  opener: str | None = None, room_id: str | None = None,
                  game: Game | None = None) -> Room:
        plugin = self.games.get(game_type)  # UnknownGameType propagates: the caller drops
        if len(self.rooms) >= self._max_rooms:
            raise LobbyError(LobbyErrorKind.LIMIT, None, "too many rooms")
        if seed is None and self._seeds is not None:
            seed = self._seeds.getrandbits(32)
        if game is None:
            game = plugin.new_game(seed)
        room = Room(
            game, slots, clocks=clocks or self.clocks, paused=paused, stats=self.stats,
            on_result=self._on_result, on_closed=self._room_closed,
            max_observers=self._max_observers, empty_timeout=self._empty_room_timeout,
            plugin=plugin, room_id=room_id,
        )
        self.rooms[room.id] = room
        if opener is not None:  # before the hook: the store marks the match as a join's
            self.join_openers[room.id] = opener
            self._join_rooms_at[opener] += 1
        room.start_task()
        for listener in list(self.room_listeners):
            listener(room)
        log.info("room %s created (%s)", room.id, game.game_type)
        return room

    def _room_closed(self, room: Room) -> None:
        self.rooms.pop(room.id, None)
        opener = self.join_openers.pop(room.id, None)
        if opener is not None:
            self._join_rooms_at[opener] -= 1
            if self._join_rooms_at[opener] <= 0:
                del self._join_rooms_at[opener]
        for code in [c for c, (r, _) in self._reservations.items() if r is room]:
            del self._reservations[code]

    def room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None or room.closed:
            raise LobbyError(LobbyErrorKind.ROOM_NOT_FOUND, room_id)
        return room

    # ------------------------------------------------------------------ players
    def _check_gate(self) -> None:
        reason = self.gate() if self.gate is not None else None
        if reason is not None:
            raise LobbyError(LobbyErrorKind.STORE_FAILED, None, reason)

    def _check_waiting(self, link: object) -> None:
        """One connection must not hold rooms hostage with seats in games that never start."""
        waiting = sum(1 for r in self.rooms.values()
                      if not r.started and r.seat_of(link) is not None)
        if waiting >= self._max_waiting_seats:
            raise LobbyError(LobbyErrorKind.LIMIT, None,
                             f"more than {self._max_waiting_seats} rooms waiting for this client")

    def speaks(self, room: Room, protocol: str) -> bool:
        """Whether a client of `protocol` can play or watch `room`'s game (an in-process
        seat, `server.rooms.inprocess`, plays any)."""
        if protocol == IN_PROCESS:
            return room.game_type in self.games
        return room.game_type in self.games and self.games.get(room.game_type).speaks(protocol)

    def _check_protocol(self, room: Room, protocol: str) -> None:
        if not self.speaks(room, protocol):
            raise LobbyError(LobbyErrorKind.BAD_REQUEST, room.id,
                             f"{room.game_type} cannot be played over {protocol}")

    def _check_join_quota(self, opener: str) -> None:
        """Whether an unauthenticated client at `opener` may open one more room."""
        if len(self.join_openers) >= self._max_join_rooms:
            raise LobbyError(LobbyErrorKind.QUOTA, None,
                             f"{self._max_join_rooms} rooms opened by joins are open; "
                             "join one of them or try again when one ends")
        if self._join_rooms_at[opener] >= self._max_join_rooms_per_address:
            raise LobbyError(LobbyErrorKind.QUOTA, None,
                             f"{self._max_join_rooms_per_address} rooms opened by joins from "
                             f"{opener} are open; try again when one ends")

    def join(self, link: object, game_type: str | None, protocol: str = "sc", *,
             opener: str | None = None) -> Seating:
        """Any free unreserved seat in a game `protocol` can seat (the game type itself is not
        checked, as officially), else a new room of `game_type` (None: the protocol's default).

        `opener` is the address of an unauthenticated client: a room it opens counts against
        the join quotas (`max_join_rooms`, `max_join_rooms_per_address`; None: not counted).
        """
        self._check_gate()
        self._check_waiting(link)
        for room in self.rooms.values():
            seat = room.free_unreserved_seat()
            if seat is not None and room.seat_of(link) is None and self.speaks(room, protocol):
                return self._take(room, seat, link)
        game_id = game_type or self.games.default_for(protocol)
        if game_type is not None and game_id in self.games \
                and not self.games.get(game_id).speaks(protocol):
            raise LobbyError(LobbyErrorKind.BAD_REQUEST, game_id,
                             f"{game_id} cannot be played over {protocol}")
        if opener is not None:
            self._check_join_quota(opener)
        room = self._new_room(game_id or "", [Slot(), Slot()], self.paused, opener=opener)
        return self._take(room, 0, link)

    def join_room(self, link: object, room_id: str, protocol: str = "sc") -> Seating:
        room = self.room(room_id)
        self._check_protocol(room, protocol)
        self._check_gate()
        self._check_waiting(link)
        seat = room.free_unreserved_seat()
        if seat is None:
            raise LobbyError(LobbyErrorKind.ROOM_FULL, room_id)
        return self._take(room, seat, link)

    def reserved(self, code: str) -> bool:
        """Whether `code` is the reservation of a seat in an open room (an admin or the
        server itself handed it out)."""
        found = self._reservations.get(code)
        return found is not None and not found[0].closed

    def join_prepared(self, link: object, code: str, protocol: str = "sc") -> Seating:
        found = self._reservations.get(code)
        if found is None or found[0].closed:
            raise LobbyError(LobbyErrorKind.RESERVATION_NOT_FOUND, code)
        room, seat = found
        self._check_protocol(room, protocol)
        self._check_gate()
        self._check_waiting(link)
        if room.slots[seat].player is not None or room.started:
            # Taken (a reservation seats one player); it stays valid until the room starts,
            # so a bot that lost its connection before the start can come back with it.
            raise LobbyError(LobbyErrorKind.RESERVATION_NOT_FOUND, code)
        return self._take(room, seat, link)

    def _take(self, room: Room, seat: int, link: object) -> Seating:
        if room.seat_of(link) is not None:
            # One connection, one seat per room: moves are attributed by connection.
            raise LobbyError(LobbyErrorKind.BAD_REQUEST, room.id, "already a player in this room")
        room.slots[seat].player = link  # type: ignore[assignment]
        room.slots[seat].present = False
        return Seating(room, seat)

    def seated(self, seating: Seating) -> None:
        """Call after the client was told it joined: the room may start; admins hear of it."""
        seating.room.seated(seating.seat)
        self.notify_admins(seating.room)

    def notify_admins(self, room: Room) -> None:
        for admin in list(self.admins):
            if not admin.offer_joined_game_room(room.id, room.player_count):
                self.admins.remove(admin)

    # ------------------------------------------------------------------ admins
    def add_admin(self, link: AdminLink) -> None:
        if link not in self.admins:
            self.admins.append(link)

    def remove_admin(self, link: AdminLink) -> None:
        if link in self.admins:
            self.admins.remove(link)

    def prepare(self, game_type: str | None, slots: list[SlotRequest], pause: bool,
                clocks: Clocks | None = None, seed: int | None = None,
                room_id: str | None = None, game: Game | None = None
                ) -> tuple[Room, list[str]]:
        """A room of any registered game (None: the SC protocol's default) with the given
        slots; one reservation per reserved slot, in slot order.

        `clocks` overrides the server's clocks for this room only; `seed` seeds its game;
        `room_id` is the room's id (a worker playing a match the store has already; None:
        a new unguessable one); `game` the room's game when it is not a new one of the
        game's (a match started from a position, `GamePlugin.position`).
        """
        self._check_gate()
        plugin = self.games.get(game_type or self.games.default_for("sc"))  # or UnknownGameType
        game_id, seats = plugin.game_id, plugin.seat_count
        if len(slots) != seats:
            raise LobbyError(LobbyErrorKind.BAD_REQUEST, None,
                             f"a room needs exactly {seats} slots")
        room = self._new_room(
            game_id,
            [Slot(s.display_name, s.can_timeout, s.reserved) for s in slots],
            pause,
            clocks,
            seed,
            room_id=room_id,
            game=game,
        )
        codes: list[str] = []
        for seat, slot in enumerate(room.slots):
            if slot.reserved:
                # 128 bits from `secrets`, in the UUID shape clients know.
                code = str(uuid.UUID(bytes=secrets.token_bytes(16)))
                slot.reservation = code
                self._reservations[code] = (room, seat)
                codes.append(code)
        return room, codes

    async def close(self) -> None:
        """Cancel every room task (server shutdown)."""
        tasks = [r.task for r in self.rooms.values() if r.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
