"""A room: one match, one asyncio task, no wire formats.

The room owns the game, the seats, the clocks and the match log. Sessions talk to it through
small synchronous calls (`submit`, `player_gone`, `pause`, `step`, `cancel`) that only enqueue
commands; the room task handles them strictly in order, between moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.rooms.errors import LobbyError, LobbyErrorKind
from server.rooms.events import (
    Entry,
    GameOver,
    MatchLog,
    MoveRejected,
    MoveRequested,
    PauseChanged,
    RoomClosed,
    RoomEvent,
    StateChanged,
    Welcome,
)
from server.rooms.game import Game, RuleViolation
from server.rooms.result import Cause, LeftCause, MatchResult, Violation

log = logging.getLogger(__name__)
move_log = logging.getLogger("gauntlet.moves")

NOT_YOUR_TURN = "NOT_YOUR_TURN"
NOT_REQUESTED = "NOT_REQUESTED"


class PlayerLink(Protocol):
    """How a room reaches a player (a protocol session or an in-process bot)."""

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        """Deliver `entry`; return `time.monotonic()` once its bytes are written, None if gone."""
        ...


class ObserverLink(Protocol):
    """How a room reaches an observer: never blocks; False means "drop me, I am too slow"."""

    def offer_room_event(self, room: Room, entry: Entry) -> bool: ...


@dataclass
class Slot:
    """A seat of the room: who may take it and who has."""

    display_name: str = ""
    can_timeout: bool = True
    reserved: bool = False
    reservation: str | None = None
    player: PlayerLink | None = None
    present: bool = False  # the player has been told it joined; counts for the start


@dataclass(frozen=True)
class Clocks:
    """Per-room move clocks in seconds; `enabled` False is `--no-timeout`."""

    soft: float = 2.0
    hard: float = 10.0
    enabled: bool = True


@dataclass
class ServerStats:
    """Figures the benchmark reads: server processing per move and bots' think times."""

    move_processing_seconds: deque[float] = field(default_factory=lambda: deque(maxlen=200_000))
    think_seconds: deque[float] = field(default_factory=lambda: deque(maxlen=200_000))
    matches_finished: int = 0


# Commands a room task handles, in arrival order.
@dataclass(frozen=True)
class _Seated:
    seat: int


@dataclass(frozen=True)
class _Move:
    seat: int
    move: Any
    arrived: float


@dataclass(frozen=True)
class _Gone:
    seat: int
    cause: LeftCause


@dataclass(frozen=True)
class _Pause:
    paused: bool


@dataclass(frozen=True)
class _Step:
    forced: bool


@dataclass(frozen=True)
class _Cancel:
    pass


@dataclass(frozen=True)
class _Abandon:
    pass


_Command = _Seated | _Move | _Gone | _Pause | _Step | _Cancel | _Abandon
ResultHook = Callable[["Room", MatchResult], Awaitable[None]]


class _MatchOver(Exception):
    def __init__(self, result: MatchResult) -> None:
        self.result = result


class _Abandoned(Exception):
    """Nobody sat in the room before it started: it ends without a result."""


class Room:
    """One match. Create through the `Lobby`; `start_task()` runs it.

    Seat `i` is slot `i` (slot 0 = the first team). Room ids and reservations are uuid4
    strings (unguessable).
    """

    def __init__(
        self,
        game: Game,
        slots: list[Slot],
        *,
        clocks: Clocks,
        paused: bool = False,
        stats: ServerStats | None = None,
        on_result: ResultHook | None = None,
        on_closed: Callable[[Room], None] | None = None,
        inbox_size: int = 64,
        max_observers: int = 16,
        empty_timeout: float | None = 600.0,
    ) -> None:
        self.id = str(uuid.uuid4())
        self.game = game
        self.slots = slots
        self.clocks = clocks
        self.paused = paused
        self.stats = stats or ServerStats()
        self.log = MatchLog()
        self.observers: list[ObserverLink] = []
        self.started = False
        self.closed = False
        self.result: MatchResult | None = None
        self.created_at = time.time()
        self.max_observers = max_observers
        # A room nobody sits in is closed after this long (prepared rooms nobody joined,
        # rooms whose players left before the start); None keeps it forever, as officially.
        self.empty_timeout = empty_timeout
        self._on_result = on_result
        self._on_closed = on_closed
        self._inbox: asyncio.Queue[_Command] = asyncio.Queue(inbox_size)
        # Arrival stamp of the last applied move until the next request/result is written.
        self._pending_arrival: float | None = None
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ queries
    @property
    def game_type(self) -> str:
        return self.game.game_type

    @property
    def player_count(self) -> int:
        return sum(1 for s in self.slots if s.player is not None)

    def seat_of(self, link: object) -> int | None:
        for i, slot in enumerate(self.slots):
            if slot.player is link:
                return i
        return None

    def free_unreserved_seat(self) -> int | None:
        if self.started or self.closed:
            return None
        for i, slot in enumerate(self.slots):
            if slot.player is None and not slot.reserved:
                return i
        return None

    def display_name(self, seat: int | None) -> str:
        return self.slots[seat].display_name if seat is not None else ""

    # ------------------------------------------------------------------ commands (non-blocking)
    def _put(self, command: _Command) -> None:
        if self.closed:
            raise LobbyError(LobbyErrorKind.ROOM_NOT_FOUND, self.id)
        try:
            self._inbox.put_nowait(command)
        except asyncio.QueueFull:
            raise LobbyError(LobbyErrorKind.LIMIT, self.id, "room inbox full") from None

    def seated(self, seat: int) -> None:
        """The session has told its client it joined; the room may start once all are seated."""
        self.slots[seat].present = True
        self._put(_Seated(seat))

    def submit(self, link: object, data: Any, arrived: float) -> None:
        """A room packet from `link`; `arrived` is `time.monotonic()` when its bytes were read."""
        seat = self.seat_of(link)
        if seat is None:
            raise LobbyError(LobbyErrorKind.NOT_A_MEMBER, self.id)
        if not self.game.is_move(data):
            raise LobbyError(LobbyErrorKind.NON_MOVE, data)
        self._put(_Move(seat, data, arrived))

    def player_gone(self, link: object, cause: LeftCause) -> None:
        """The player's connection ended or it left; before the start this frees the seat."""
        seat = self.seat_of(link)
        if seat is None or self.closed:
            return
        if not self.started:
            self.slots[seat].player = None
            self.slots[seat].present = False
            with contextlib.suppress(LobbyError):
                if self.player_count == 0 and not any(s.reserved for s in self.slots):
                    # Nobody can come back to a plain `join` room: nothing to wait for.
                    self._put(_Abandon())
                else:
                    self._put(_Seated(seat))  # wakes the room: its empty-room clock may start
            return
        with contextlib.suppress(LobbyError):
            self._put(_Gone(seat, cause))

    def pause(self, paused: bool) -> None:
        self._put(_Pause(paused))

    def step(self, forced: bool = False) -> None:
        self._put(_Step(forced))

    def cancel(self) -> None:
        self._put(_Cancel())

    def add_observer(self, link: ObserverLink) -> None:
        if link in self.observers:
            return
        if len(self.observers) >= self.max_observers:
            raise LobbyError(LobbyErrorKind.LIMIT, self.id, "too many observers")
        self.observers.append(link)

    def remove_observer(self, link: ObserverLink) -> None:
        if link in self.observers:
            self.observers.remove(link)

    # ------------------------------------------------------------------ task
    def start_task(self) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self._run(), name=f"room-{self.id}")
        return self._task

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self._task

    async def _run(self) -> None:
        try:
            try:
                await self._wait_for_start()
                await self._play()
            except _MatchOver as over:
                await self._finish(over.result)
            except _Abandoned:
                log.info("room %s closed: nobody sat in it", self.id)
        except asyncio.CancelledError:
            self._close()
            raise
        except Exception:
            # A bug in one match must not take others down: end it as nobody's fault.
            log.exception("room %s crashed", self.id)
            if self.result is None:
                with contextlib.suppress(Exception):
                    await self._finish(MatchResult.regular_end(self.game.points()))
        finally:
            self._close()

    def _close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._on_closed is not None:
            self._on_closed(self)

    # ------------------------------------------------------------------ delivery
    async def _emit(self, event: RoomEvent, seats: set[int] | frozenset[int] = frozenset(),
                    observers: bool = False) -> float | None:
        """Log `event` and deliver it: observers first (never blocking), then the seats.

        Returns the time the last player write completed (for clocks and stats).
        """
        entry = self.log.append(event, seats, observers)
        if observers:
            for link in list(self.observers):
                if not link.offer_room_event(self, entry):
                    log.warning("room %s: dropping a slow observer", self.id)
                    self.remove_observer(link)
        written: float | None = None
        for seat in sorted(entry.seats):
            player = self.slots[seat].player
            if player is not None:
                t = await player.send_room_event(self, seat, entry)
                if t is not None:
                    written = t
        return written

    def _all_seats(self) -> frozenset[int]:
        return frozenset(range(len(self.slots)))

    # ------------------------------------------------------------------ phases
    async def _wait_for_start(self) -> None:
        while not all(s.player is not None and s.present for s in self.slots):
            empty = self.player_count == 0
            try:
                async with asyncio.timeout(self.empty_timeout if empty else None):
                    command = await self._inbox.get()
            except TimeoutError:
                raise _Abandoned from None
            match command:
                case _Abandon():
                    if self.player_count == 0:
                        raise _Abandoned
                case _Step(forced=True) | _Cancel():
                    if all(s.player is not None and s.present for s in self.slots):
                        if isinstance(command, _Cancel):
                            raise _MatchOver(self._cancel_result())
                        break
                    raise _MatchOver(self._not_connected_result())
                case _Pause(paused=paused):
                    await self._set_paused(paused)
                case _Move(seat=seat, move=move):
                    raise _MatchOver(await self._not_requested(seat, move))
                case _:
                    pass
        self.started = True

    async def _play(self) -> None:
        seats = self._all_seats()
        for seat in sorted(seats):
            await self._emit(Welcome(seat), {seat})
        await self._emit(StateChanged(self.game.snapshot()),
                         frozenset() if self.paused else seats, observers=True)
        while True:
            if self.game.is_over:
                raise _MatchOver(MatchResult.regular_end(self.game.points()))
            if self.paused:
                self._pending_arrival = None  # a pause is not server processing time
                if not await self._wait_while_paused():
                    continue
            seat = self.game.seat_to_move()
            requested = await self._emit(MoveRequested(seat), {seat})
            if requested is None:  # the player's connection is gone; its reader reports why
                requested = time.monotonic()
            self._record_processing(requested)
            await self._await_move(seat, requested)

    async def _wait_while_paused(self) -> bool:
        """Handle commands while paused; True when a move should be requested now."""
        command = await self._inbox.get()
        match command:
            case _Step():
                await self._emit(StateChanged(self.game.snapshot()), self._all_seats())
                return True
            case _Pause(paused=False):
                await self._set_paused(False)
                await self._emit(StateChanged(self.game.snapshot()), self._all_seats())
                return True
            case _Pause(paused=True):
                return False
            case _Move(seat=seat, move=move):
                raise _MatchOver(await self._not_requested(seat, move))
            case _Gone(seat=seat, cause=cause):
                raise _MatchOver(self._left_result(seat, cause))
            case _Cancel():
                raise _MatchOver(self._cancel_result())
        return False

    def _record_processing(self, written: float | None) -> None:
        if self._pending_arrival is not None and written is not None:
            self.stats.move_processing_seconds.append(written - self._pending_arrival)
        self._pending_arrival = None

    async def _await_move(self, seat: int, requested: float) -> None:
        """Wait for the requested move and apply it."""
        timed = self.clocks.enabled and self.slots[seat].can_timeout
        deadline = requested + self.clocks.hard
        while True:
            try:
                if timed:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise TimeoutError
                    async with asyncio.timeout(remaining):
                        command = await self._inbox.get()
                else:
                    command = await self._inbox.get()
            except TimeoutError:
                move_log.info("room %s seat %d: no move within %.3f s", self.id, seat,
                              self.clocks.hard)
                raise _MatchOver(self._violation(Violation(Cause.HARD_TIMEOUT, seat))) from None
            match command:
                case _Move(seat=mover, move=move, arrived=arrived):
                    if mover != seat:
                        raise _MatchOver(await self._not_your_turn(mover, seat, move))
                    think = arrived - requested
                    self.stats.think_seconds.append(think)
                    move_log.info("room %s seat %d moved after %.3f s", self.id, seat, think)
                    if timed and think > self.clocks.soft:
                        raise _MatchOver(self._violation(Violation(Cause.SOFT_TIMEOUT, seat)))
                    await self._apply(seat, move)
                    self._pending_arrival = arrived
                    return
                case _Pause(paused=paused):
                    await self._set_paused(paused)
                case _Gone(seat=gone, cause=cause):
                    raise _MatchOver(self._left_result(gone, cause))
                case _Cancel():
                    raise _MatchOver(self._cancel_result())
                case _:
                    pass  # step while a move is pending, duplicate seat notices

    async def _apply(self, seat: int, move: Any) -> None:
        try:
            self.game.apply(seat, move)
        except RuleViolation as exc:
            await self._emit(
                MoveRejected(seat, move, True, mistake_name=exc.name, mistake_text=exc.text),
                {seat}, observers=True,
            )
            raise _MatchOver(self._violation(Violation(
                Cause.RULE_VIOLATION, seat, mistake_name=exc.name, mistake_text=exc.text,
                move=move,
            ))) from None
        # Paused: the new state goes to observers only, except the final one, which the
        # players need before the result.
        to_players = not self.paused or self.game.is_over
        await self._emit(StateChanged(self.game.snapshot()),
                         self._all_seats() if to_players else frozenset(), observers=True)

    async def _set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        await self._emit(PauseChanged(paused), observers=True)

    # ------------------------------------------------------------------ results
    async def _not_requested(self, seat: int, move: Any) -> MatchResult:
        await self._emit(MoveRejected(seat, move, False, process=NOT_REQUESTED), {seat})
        return self._violation(Violation(Cause.PROCESS_VIOLATION, seat, move=move,
                                         process=NOT_REQUESTED))

    async def _not_your_turn(self, seat: int, expected: int, move: Any) -> MatchResult:
        await self._emit(MoveRejected(seat, move, False, process=NOT_YOUR_TURN,
                                      expected_seat=expected), {seat})
        return self._violation(Violation(Cause.PROCESS_VIOLATION, seat, move=move,
                                         process=NOT_YOUR_TURN, expected_seat=expected))

    def _violation(self, violation: Violation) -> MatchResult:
        return MatchResult.violated(self.game.points(), violation)

    def _left_result(self, seat: int, cause: LeftCause) -> MatchResult:
        self.slots[seat].player = None
        return self._violation(Violation(Cause.LEFT, seat, left_cause=cause))

    def _not_connected_result(self) -> MatchResult:
        missing = [i for i, s in enumerate(self.slots) if s.player is None or not s.present]
        seat = missing[0] if len(missing) == 1 else None
        return self._violation(Violation(Cause.LEFT, seat, left_cause=LeftCause.NOT_CONNECTED))

    def _cancel_result(self) -> MatchResult:
        if all(s.player is not None for s in self.slots):
            return MatchResult.regular_end(self.game.points())
        return self._not_connected_result()

    async def _finish(self, result: MatchResult) -> None:
        """Store the result (replay, later the database), then announce it, then close."""
        self.result = result
        if self._on_result is not None:
            try:
                await self._on_result(self, result)
            except Exception:
                log.exception("room %s: storing the result failed", self.id)
        seats = frozenset(i for i, s in enumerate(self.slots) if s.player is not None)
        self._record_processing(await self._emit(GameOver(result), seats, observers=True))
        await self._emit(RoomClosed(), seats, observers=True)
        self.stats.matches_finished += 1
        log.info("room %s finished: %s", self.id, result)
