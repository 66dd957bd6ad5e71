"""A room: one match, one asyncio task, no wire formats.

The room owns the game, the seats, the clocks and the match log. It asks the game which
seats must decide (`Game.pending()`), requests each new decision from its seat, awaits
answers from all of them at once (a mulligan asks both seats), checks each answer's arrival
stamp against that seat's clock, applies it and logs the news per recipient.

Sessions talk to the room through small synchronous calls (`submit`, `concede`,
`player_gone`, `pause`, `step`, `cancel`) that only enqueue commands; the room task handles
them strictly in order, between answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from server.rooms.errors import LobbyError, LobbyErrorKind
from server.rooms.events import (
    DecisionRequested,
    Entry,
    GameOver,
    MatchLog,
    MoveRejected,
    PauseChanged,
    RoomClosed,
    RoomEvent,
    StateChanged,
    Welcome,
)
from server.rooms.game import Clock, Decision, Game, OnRefusal, RuleViolation
from server.rooms.result import Cause, LeftCause, MatchResult, Outcome, Violation

if TYPE_CHECKING:  # a room only holds it: the games layer sits above the rooms
    from server.games.registry import GamePlugin

log = logging.getLogger(__name__)
move_log = logging.getLogger("gauntlet.moves")

STATS_SAMPLES = 50_000  # per figure: 40 games x 84 moves is 3,360

NOT_YOUR_TURN = "NOT_YOUR_TURN"
NOT_REQUESTED = "NOT_REQUESTED"

FAILED_SEAT_WAIT = 10.0
"""Seconds a room that has not started waits, after a seat failed (`Room.seat_failed`), for
each other seat to join or to fail too: the failed seat loses whatever happens, but only
waiting tells a win of its opponent from a double loss (both bots broken)."""


class PlayerLink(Protocol):
    """How a room reaches a player: a protocol session or an in-process seat.

    The room calls `send_room_event` for every entry addressed to the seat (welcome, news,
    decision requests, refusals, the result, the room's end) and waits for it; the return
    value is `time.monotonic()` once the bytes are written (a decision's clock starts
    then), None if the player is gone. Answers go back through `Room.submit`.
    """

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None: ...


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
    """Per-room clocks in seconds; `enabled` False is `--no-timeout` (no clock at all).

    `soft`/`hard` time `Clock.MOVE` decisions (Software-Challenge, per move); `decision`
    and `turn` time `Clock.DECISION` decisions (Hearth: each decision, and all decisions
    of one turn together). `min_move_time` paces a match for people watching: the next
    decision is asked no sooner than that many seconds after the one before (0: as fast as
    the bots answer); the wait is not the bots' time and not the server's.
    """

    soft: float = 2.0
    hard: float = 10.0
    decision: float = 10.0
    turn: float = 75.0
    enabled: bool = True
    min_move_time: float = 0.0


@dataclass
class ServerStats:
    """Figures the benchmark reads: server processing per move, bots' think times, and the
    wait for each result's commit.

    Only the latest samples are kept (enough for percentiles over a benchmark phase of a
    few hundred games; a server running for weeks must not grow).
    """

    move_processing_seconds: deque[float] = field(
        default_factory=lambda: deque(maxlen=STATS_SAMPLES))
    think_seconds: deque[float] = field(default_factory=lambda: deque(maxlen=STATS_SAMPLES))
    # How long each result waited to be stored before it could be announced (DESIGN rule 5).
    result_store_seconds: deque[float] = field(
        default_factory=lambda: deque(maxlen=STATS_SAMPLES))
    matches_finished: int = 0


# Commands a room task handles, in arrival order.
@dataclass(frozen=True)
class _Seated:
    seat: int


@dataclass(slots=True)  # one per move: not frozen, which costs four times as much to make
class _Move:
    seat: int
    move: Any
    arrived: float


@dataclass(frozen=True)
class _Gone:
    seat: int
    cause: LeftCause


@dataclass(frozen=True)
class _Concede:
    seat: int


@dataclass(frozen=True)
class _Failed:
    seat: int


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


@dataclass(frozen=True)
class _Wake:
    """The room's alarm rang (`Room._arm`): look at the clocks again."""


_WAKE = _Wake()

_Command = (_Seated | _Move | _Gone | _Concede | _Failed | _Pause | _Step | _Cancel | _Abandon
            | _Wake)
ResultHook = Callable[["Room", MatchResult], Awaitable[None]]


class _Inbox:
    """A room's commands in arrival order, for its task alone (one reader, so one waiter:
    an `asyncio.Queue`'s general machinery cost each move about 3.5 µs, docs/benchmarks.md).
    """

    def __init__(self, maxsize: int) -> None:
        self._commands: deque[_Command] = deque()
        self._maxsize = maxsize
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, command: _Command) -> None:
        """Queue `command`; `asyncio.QueueFull` when `maxsize` commands wait already
        (`maxsize` 0 or less: no bound, as for `asyncio.Queue`)."""
        if len(self._commands) >= self._maxsize > 0:
            raise asyncio.QueueFull
        self._commands.append(command)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> _Command:
        while not self._commands:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._commands.popleft()


@dataclass(slots=True)
class _Open:
    """A decision requested from a seat and not answered yet."""

    decision: Decision
    requested: float  # when the request's bytes were written: the clock starts there
    deadline: float | None  # None = untimed (clocks off, or the seat may not time out)


class _MatchOver(Exception):
    def __init__(self, result: MatchResult) -> None:
        self.result = result


class _Abandoned(Exception):
    """Nobody sat in the room before it started: it ends without a result."""


class RoomPhase(enum.Enum):
    """Where a room is in its life; pausing is apart (a playing room may be paused).

    WAITING (seats fill) -> PLAYING (every seat joined: welcomes sent) -> ENDED (closed
    after it played); a room closed before it started is ABANDONED.

    >>> [(p.name, p.started, p.closed) for p in RoomPhase]  # doctest: +NORMALIZE_WHITESPACE
    [('WAITING', False, False), ('PLAYING', True, False), ('ENDED', True, True),
     ('ABANDONED', False, True)]
    """

    WAITING = "waiting"
    PLAYING = "playing"
    ENDED = "ended"
    ABANDONED = "abandoned"

    @property
    def started(self) -> bool:
        return self in (RoomPhase.PLAYING, RoomPhase.ENDED)

    @property
    def closed(self) -> bool:
        return self in (RoomPhase.ENDED, RoomPhase.ABANDONED)


class Room:
    """One match. Create through the `Lobby`; `start_task()` runs it.

    Seat `i` is slot `i` (slot 0 = the first team / player). Room ids and reservations are
    uuid4 strings (unguessable).
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
        plugin: GamePlugin | None = None,
        room_id: str | None = None,
    ) -> None:
        # Unguessable; a scale-out worker gives the id its match already has in the store.
        self.id = room_id or str(uuid.uuid4())
        self.game = game
        # The game's plugin, for what the server does differently per game (how spectators
        # watch it, how it is stored); None: a game driven without one (tests).
        self.plugin = plugin
        self.slots = slots
        self.clocks = clocks
        self.paused = paused
        self.stats = stats or ServerStats()
        self.log = MatchLog()
        self.observers: list[ObserverLink] = []
        self.phase = RoomPhase.WAITING
        self.result: MatchResult | None = None
        # True when the result could not be stored: it was never announced (see `_finish`).
        self.aborted = False
        self.created_at = time.time()
        self.max_observers = max_observers
        # A room nobody sits in is closed after this long (prepared rooms nobody joined,
        # rooms whose players left before the start); None keeps it forever, as officially.
        self.empty_timeout = empty_timeout
        self._on_result = on_result
        self._on_closed = on_closed
        self._inbox = _Inbox(inbox_size)
        # Arrival stamp of the last applied answer until the next request/result is written.
        self._pending_arrival: float | None = None
        self._last_asked = float("-inf")  # when `_pace` last let a decision be asked
        # Open decisions by seat, and per seat the turn whose budget is running and its start.
        self._open: dict[int, _Open] = {}
        self._turn_start: dict[int, tuple[int, float]] = {}
        self._task: asyncio.Task[None] | None = None
        # Wakes the room by the earliest open deadline (see `_arm`), and when that is.
        self._alarm: asyncio.TimerHandle | None = None
        self._alarm_at = float("inf")

    # ------------------------------------------------------------------ queries
    @property
    def started(self) -> bool:
        """Every seat joined and the match began (it stays True once the room closed)."""
        return self.phase.started

    @property
    def closed(self) -> bool:
        return self.phase.closed

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

    def open_decision(self, seat: int) -> Decision | None:
        """The decision `seat` was asked and has not answered yet (None: nothing asked)."""
        found = self._open.get(seat)
        return None if found is None else found.decision

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
        """An answer from `link`; `arrived` is `time.monotonic()` when its bytes were read.

        Raises `LobbyError` (NOT_A_MEMBER, NON_MOVE) at once; whether the answer is legal is
        decided by the room task: a refusal comes back as a `MoveRejected` entry.
        """
        seat = self.seat_of(link)
        if seat is None:
            raise LobbyError(LobbyErrorKind.NOT_A_MEMBER, self.id)
        if not self.game.accepts(data):
            raise LobbyError(LobbyErrorKind.NON_MOVE, data)
        self._put(_Move(seat, data, arrived))

    def concede(self, link: object) -> None:
        """`link`'s seat gives up: the match ends at once, the other seat wins."""
        seat = self.seat_of(link)
        if seat is None:
            raise LobbyError(LobbyErrorKind.NOT_A_MEMBER, self.id)
        self._put(_Concede(seat))

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

    def seat_failed(self, seat: int) -> None:
        """`seat`'s player failed outside the room (the launcher saw its bot exit before it
        joined): it loses. Before the start the room waits (`FAILED_SEAT_WAIT`) for the other
        seats to join, or to fail too (then every seat loses); it never ends as a draw."""
        with contextlib.suppress(LobbyError):  # over already: the verdict came too late
            self._put(_Failed(seat))

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
        except Exception as exc:
            # A bug in one match must not take others down. The game may be inconsistent,
            # so nothing of it is trusted: no winner, no scores, the reason says why.
            log.exception("room %s crashed", self.id)
            if self.result is None:
                with contextlib.suppress(Exception):
                    await self._finish(self._crashed(exc))
        finally:
            self._close()

    def _close(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()  # it holds the room
            self._alarm = None
        if self.closed:
            return
        self.phase = RoomPhase.ENDED if self.started else RoomPhase.ABANDONED
        if self._on_closed is not None:
            self._on_closed(self)

    # ------------------------------------------------------------------ delivery
    async def _emit(self, event: RoomEvent, seats: Collection[int] = frozenset(),
                    observers: bool = False) -> float | None:
        """Log `event` and deliver it: observers first (never blocking), then the seats.

        Returns the time the last player write completed (for clocks and stats).
        """
        entry = self.log.append(event, frozenset(seats), observers)
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

    async def _news(self, seats: Collection[int], observers: bool,
                    think: float | None = None, by: int | None = None) -> float | None:
        """The game's news since these recipients last got some, to them (`think`: the
        seconds the answer of seat `by` that made them took)."""
        seats = frozenset(seats)
        return await self._emit(StateChanged(self.game.news(seats, observers), think, by),
                                seats, observers)

    def _all_seats(self) -> frozenset[int]:
        return frozenset(range(len(self.slots)))

    def _seats_present(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.slots) if s.player is not None)

    # ------------------------------------------------------------------ phases
    async def _wait_for_start(self) -> None:
        failed: set[int] = set()  # seats whose players failed before joining
        failed_until = 0.0  # ... and how long the others may take to join (or fail)
        while not all(s.player is not None and s.present for s in self.slots):
            timeout = self.empty_timeout if self.player_count == 0 else None
            if failed:
                timeout = min(timeout or FAILED_SEAT_WAIT, failed_until - time.monotonic())
            try:
                async with asyncio.timeout(timeout):
                    command = await self._inbox.get()
            except TimeoutError:
                if failed:
                    raise _MatchOver(self._failed_result(failed)) from None
                raise _Abandoned from None
            match command:
                case _Failed(seat=seat):
                    if not failed:
                        failed_until = time.monotonic() + FAILED_SEAT_WAIT
                    failed.add(seat)
                    self.slots[seat].present = False  # whatever it said, it is not coming
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
                    await self._refuse_unasked(seat, move)
                case _:
                    pass
            if failed and all(i in failed or (s.player is not None and s.present)
                              for i, s in enumerate(self.slots)):
                raise _MatchOver(self._failed_result(failed))
        if failed:  # every seat joined meanwhile, a failed one too: it failed all the same
            raise _MatchOver(self._failed_result(failed))
        self.phase = RoomPhase.PLAYING
        log.info("room %s started: %s, %s", self.id, self.game_type,
                 " vs ".join(self.display_name(i) or f"seat {i}" for i in range(len(self.slots))))

    async def _play(self) -> None:
        seats = self._all_seats()
        for seat in sorted(seats):
            await self._emit(Welcome(seat), {seat})
        await self._news(frozenset() if self.paused else seats, observers=True)
        while True:
            if self.game.is_over:
                raise _MatchOver(self._game_result())
            if self.paused:
                self._pending_arrival = None  # a pause is not server processing time
                if not await self._wait_while_paused():
                    continue
            if self.clocks.min_move_time > 0:
                await self._pace()
            await self._request_pending()
            await self._await_answer()

    async def _pace(self) -> None:
        """Wait out `Clocks.min_move_time` since the last decision was asked."""
        wait = self._last_asked + self.clocks.min_move_time - time.monotonic()
        if wait > 0:
            self._pending_arrival = None  # the pace is not server processing time
            await asyncio.sleep(wait)
        self._last_asked = time.monotonic()

    def _game_result(self) -> MatchResult:
        outcome = self.game.outcome()
        assert outcome is not None, "a game that is over has an outcome"
        return MatchResult(outcome)

    async def _request_pending(self) -> None:
        """Ask every seat the game waits for; decisions still open keep their clocks."""
        pending = self.game.pending()
        if self._open:  # usually empty: the one open decision was just answered
            for seat in [s for s, o in self._open.items() if pending.get(s) != o.decision]:
                del self._open[seat]  # no longer asked (the game moved on without it)
        for seat, decision in pending.items():
            if seat in self._open:
                continue
            requested = await self._emit(DecisionRequested(seat, decision), {seat})
            if requested is None:  # the player's connection is gone; its reader reports why
                requested = time.monotonic()
            self._record_processing(requested)
            self._open[seat] = _Open(decision, requested, self._deadline(seat, decision,
                                                                         requested))

    def _deadline(self, seat: int, decision: Decision, requested: float) -> float | None:
        if not self.clocks.enabled or not self.slots[seat].can_timeout:
            return None
        if decision.clock is Clock.MOVE:
            return requested + self.clocks.hard
        deadline = requested + self.clocks.decision
        if decision.turn is not None:
            turn, start = self._turn_start.get(seat, (None, requested))
            if turn != decision.turn:
                start = requested
                self._turn_start[seat] = (decision.turn, start)
            deadline = min(deadline, start + self.clocks.turn)
        return deadline

    async def _next_command(self) -> _Command:
        """The next command, or the end of the match when an open decision runs out of time."""
        while True:
            seat, deadline = -1, float("inf")
            for open_seat, opened in self._open.items():
                if opened.deadline is not None and opened.deadline < deadline:
                    seat, deadline = open_seat, opened.deadline
            if seat < 0:
                return await self._inbox.get()
            if deadline <= time.monotonic():
                move_log.info("room %s seat %d: no answer in time", self.id, seat)
                raise _MatchOver(await self._lost(Violation(Cause.HARD_TIMEOUT, seat)))
            self._arm(deadline)
            command = await self._inbox.get()
            if command is not _WAKE:
                return command

    def _arm(self, deadline: float) -> None:
        """Make sure the room is woken by `deadline` (`time.monotonic()`).

        One timer per room, moved only to an earlier time: each move's deadline is later
        than the one before, so a move costs no timer (an `asyncio.timeout` around every
        wait cost 5.4 µs a move, docs/benchmarks.md); a wake-up before the deadline that
        is open by then only sets the timer again.
        """
        if self._alarm is not None:
            if self._alarm_at <= deadline:
                return
            self._alarm.cancel()
        loop = asyncio.get_running_loop()
        self._alarm_at = deadline
        self._alarm = loop.call_at(loop.time() + (deadline - time.monotonic()), self._ring)

    def _ring(self) -> None:
        self._alarm, self._alarm_at = None, float("inf")
        with contextlib.suppress(asyncio.QueueFull):  # a full inbox wakes the room anyway
            self._inbox.put_nowait(_WAKE)

    async def _await_answer(self) -> None:
        """Handle commands until an answer was applied (or the match ends)."""
        while True:
            command = await self._next_command()
            match command:
                case _Move(seat=seat, move=move, arrived=arrived):
                    if await self._answer(seat, move, arrived):
                        return
                case _Pause(paused=paused):
                    await self._set_paused(paused)
                case _:
                    await self._end_on(command)  # step while waiting, duplicate seat notices

    async def _wait_while_paused(self) -> bool:
        """Handle commands while paused; True when decisions should be requested now."""
        command = await self._inbox.get()
        match command:
            case _Step():
                await self._news(self._all_seats(), observers=False)
                return True
            case _Pause(paused=False):
                await self._set_paused(False)
                await self._news(self._all_seats(), observers=False)
                return True
            case _Move(seat=seat, move=move, arrived=arrived):
                # Only a decision asked before the pause (the other seat's mulligan) may
                # still be answered; anything else was not requested.
                await self._answer(seat, move, arrived)
            case _:
                await self._end_on(command)
        return False

    async def _end_on(self, command: _Command) -> None:
        """The commands that end a running match; others are ignored here."""
        match command:
            case _Gone(seat=seat, cause=cause):
                self.slots[seat].player = None  # it is gone: nothing more is sent to it
                raise _MatchOver(await self._lost(Violation(Cause.LEFT, seat, left_cause=cause)))
            case _Concede(seat=seat):
                raise _MatchOver(await self._lost(Violation(Cause.CONCEDED, seat)))
            case _Failed(seat=seat):
                # Its bot is gone; its connection's end may not have been read yet.
                self.slots[seat].player = None
                raise _MatchOver(await self._lost(
                    Violation(Cause.LEFT, seat, left_cause=LeftCause.LOST_CONNECTION)))
            case _Cancel():
                raise _MatchOver(self._cancel_result())

    def _record_processing(self, written: float | None) -> None:
        if self._pending_arrival is not None and written is not None:
            self.stats.move_processing_seconds.append(written - self._pending_arrival)
        self._pending_arrival = None

    async def _answer(self, seat: int, move: Any, arrived: float) -> bool:
        """Check `seat`'s answer against its open decision and clock; True once applied."""
        opened = self._open.get(seat)
        if opened is None:
            await self._refuse_unasked(seat, move)
            return False
        think = arrived - opened.requested
        self.stats.think_seconds.append(think)
        # DEBUG: at INFO a line per move costs more than the room's own bookkeeping.
        move_log.debug("room %s seat %d answered after %.3f s", self.id, seat, think)
        if opened.deadline is not None:
            if opened.decision.clock is Clock.MOVE and think > self.clocks.soft:
                raise _MatchOver(await self._lost(Violation(Cause.SOFT_TIMEOUT, seat)))
            if arrived > opened.deadline:  # read in time, but the room saw it too late
                raise _MatchOver(await self._lost(Violation(Cause.HARD_TIMEOUT, seat)))
        try:
            self.game.apply(seat, move)
        except RuleViolation as exc:
            final = self.game.on_refusal is OnRefusal.END_MATCH
            await self._emit(
                MoveRejected(seat, move, True, mistake_name=exc.name, mistake_text=exc.text,
                             final=final),
                {seat}, observers=True,
            )
            if final:
                raise _MatchOver(await self._lost(Violation(
                    Cause.RULE_VIOLATION, seat, mistake_name=exc.name, mistake_text=exc.text,
                    move=move,
                ))) from None
            return False  # a nack: the same decision stays open, its clock keeps running
        del self._open[seat]
        # Paused: the news go to observers only, except the final ones, which the players
        # need before the result.
        to_players = not self.paused or self.game.is_over
        await self._news(self._all_seats() if to_players else frozenset(), observers=True,
                         think=think, by=seat)
        self._pending_arrival = arrived
        return True

    async def _refuse_unasked(self, seat: int, move: Any) -> None:
        """An answer from a seat with no open decision: out of turn, or nothing was asked."""
        expected = min(self._open) if self._open else None
        process = NOT_YOUR_TURN if expected is not None else NOT_REQUESTED
        final = self.game.on_refusal is OnRefusal.END_MATCH
        await self._emit(MoveRejected(seat, move, False, process=process, expected_seat=expected,
                                      final=final), {seat})
        if final:
            raise _MatchOver(await self._lost(Violation(
                Cause.PROCESS_VIOLATION, seat, move=move, process=process,
                expected_seat=expected)))

    async def _set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        await self._emit(PauseChanged(paused), observers=True)

    # ------------------------------------------------------------------ results
    async def _lost(self, violation: Violation) -> MatchResult:
        """`violation.seat` loses. A game that records a concession (Hearth) tells the
        remaining seats and the observers how it ended, in its own news."""
        if violation.seat is not None and self.started and not self.game.is_over \
                and self.game.concede(violation.seat):
            await self._news(self._seats_present(), observers=True)
        return MatchResult.broken(violation, self.game.scores())

    def _not_connected_result(self) -> MatchResult:
        missing = [i for i, s in enumerate(self.slots) if s.player is None or not s.present]
        return self._failed_result(missing)

    def _failed_result(self, seats: Collection[int]) -> MatchResult:
        """The seats that never joined lose (official: an empty slot gets violation LEFT,
        NOT_CONNECTED); when that is every seat, all of them lose ("Alle Spieler")."""
        seat = next(iter(seats)) if len(seats) == 1 else None
        return MatchResult.broken(Violation(Cause.LEFT, seat, left_cause=LeftCause.NOT_CONNECTED),
                                  self.game.scores())

    def _cancel_result(self) -> MatchResult:
        if all(s.player is not None for s in self.slots):
            return MatchResult(self.game.stopped())
        return self._not_connected_result()

    def _crashed(self, exc: BaseException) -> MatchResult:
        zeros = tuple(0 for _ in self.slots)
        return MatchResult(Outcome(None, f"crashed: {type(exc).__name__}", zeros),
                           Violation(Cause.CRASHED, None))

    async def _finish(self, result: MatchResult) -> None:
        """Store the result (database, replay), then announce it, then close.

        DESIGN rule 5: a result is stored before it is announced. When the `on_result` hook
        raises, the result is not stored (the hook has retried already): the match is
        aborted, nobody is told a result; the room only closes (SC `<left/>` without a
        `<result>`, Kettle closes without `game_finished`).
        """
        self.result = result
        self._open.clear()
        if self._on_result is not None:
            try:
                await self._on_result(self, result)
            except Exception:
                self.aborted = True
                log.critical("room %s: the result could not be stored; the match is aborted "
                             "and nobody is told a result (%s)", self.id, result,
                             exc_info=True)
                await self._emit(RoomClosed(), self._seats_present(), observers=True)
                return
        seats = self._seats_present()
        self._record_processing(await self._emit(GameOver(result), seats, observers=True))
        await self._emit(RoomClosed(), seats, observers=True)
        self.stats.matches_finished += 1
        winner = "no winner" if result.winner is None else (
            f"winner {self.display_name(result.winner) or f'seat {result.winner}'}")
        cause = "" if result.violation is None else f", cause {result.violation.cause.value}"
        log.info("room %s finished: %s, %s%s, scores %s", self.id, winner, result.reason,
                 cause, list(result.scores))
