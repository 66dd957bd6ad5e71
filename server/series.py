"""Series of games between two bots over TCP, seats swapped every other game.

Every game is prepared through the admin protocol (``<prepare>`` with two reserved slots),
so who sits where is decided here, not by join order: in even games bot A is team ONE
(in Blokus: BLUE+RED, it moves first), in odd games bot B is. The same admin connection
observes every room of a game it can watch (a server in this process is watched directly,
``RoomWatch.polling``), and a game's record is what the server's ``result`` says, never
what a client's exit code suggests. Any game the server hosts can be played: the admin
protocol prepares rooms of every registered game.

A seat is either a ``SeatCommand`` (a program run through ``server.launcher`` with the
official ``--host --port`` flags and its reservation in ``$GAUNTLET_RESERVATION``, in a
process group of its own, so a bot
that hangs or crashes is stopped and costs only its game), an ``InProcessKit`` (a kit bot
played on an asyncio task, e.g. ``bots.blokus.aio.play_async``: for benchmarks and tests,
whose bots are known to behave), or an ``InProcessSeat`` (a game's bundled in-process bot,
``GamePlugin.bundled``, seated in a server in this process).

``run_series`` is what ``gauntlet play`` and ``bench/sc_server.py`` use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bots.driver import READ_SIZE, KitError
from bots.driver import os_reason as _os_reason
from bots.sc_result import Outcome
from protocols.base import (
    NEED_DATA,
    ConnectionClosed,
    LocalProtocolError,
    ProtocolError,
    StreamEnd,
)
from protocols.sc import ClientConnection
from protocols.sc import messages as m
from protocols.sc.messages import TEAMS
from server.launcher import BotProcess, BotSpec, FailureCategory, SeatFailure, launch

__all__ = [
    "CAUSES",
    "AdminClient",
    "AdminError",
    "BotSummary",
    "GameRecord",
    "InProcessKit",
    "InProcessSeat",
    "LocalRooms",
    "RoomWatch",
    "SeatCommand",
    "SeriesError",
    "bot_seed",
    "reachable",
    "run_series",
    "summarise",
]

log = logging.getLogger(__name__)

TIMEOUT_CAUSES = frozenset({"SOFT_TIMEOUT", "HARD_TIMEOUT"})
# Prepared games wait for both players; a bot that never comes must not hang the series.
DEFAULT_IDLE_TIMEOUT = 60.0
# A bot process ended before the result: the server announces a game that was running
# within milliseconds; one that never started waits for this long, then is cancelled.
EXIT_GRACE = 3.0
# After a cancel (a bot gone, Ctrl-C) the server's result comes at once; this is a bound.
CANCEL_WAIT = 10.0
# After the result a kit bot says goodbye and exits; later it is stopped (SIGTERM, SIGKILL).
LEAVE_WAIT = 2.0
STOP_GRACE = 1.0

CAUSES: tuple[str, ...] = ("timeout", "illegal_move", "crash", "protocol_error", "disconnect",
                           "failed_to_start")
"""Why a bot lost, in table order (the values of ``server.launcher.FailureCategory``)."""


class SeriesError(Exception):
    """A series cannot go on; ``str()`` is meant for humans."""


class AdminError(SeriesError):
    """The admin connection failed (wrong password, server gone, protocol broken)."""


class RoomWatch:
    """One observed room: ``started`` once the first state arrived, ``result`` at the end."""

    def __init__(self, room_id: str) -> None:
        self.room_id = room_id
        self.started = asyncio.Event()
        self.result: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self.on_start: list[Callable[[], None]] = []

    def _start(self) -> None:
        if not self.started.is_set():
            self.started.set()
            for callback in self.on_start:
                callback()

    def _fail(self, reason: str) -> None:
        if not self.result.done():
            self.result.set_exception(AdminError(reason))

    def _end(self, outcome: Outcome) -> None:
        if not self.result.done():
            self.result.set_result(outcome)

    @classmethod
    def polling(cls, room: Any, interval: float = 0.05) -> RoomWatch:
        """A watch on a room of a server in this process (``server.rooms.Room``).

        For games the admin protocol cannot observe (Hearth over Software-Challenge):
        ``room.started`` and ``room.result`` (a ``MatchResult``) are read every
        ``interval`` seconds.
        """
        watch = cls(room.id)

        async def poll() -> None:
            while room.result is None:
                if room.started:
                    watch._start()
                await asyncio.sleep(interval)
            watch._end(outcome_of(room.result))

        task = asyncio.ensure_future(poll())
        watch.result.add_done_callback(lambda _: task.cancel())
        return watch


class AdminClient:
    """One authenticated admin connection; ``prepare`` may be awaited concurrently.

    A reader task takes every server message: ``prepared`` answers resolve the oldest
    waiting ``prepare`` (the server answers in request order), ``joinedGameRoom`` notices
    are dropped, an errorpacket fails the request it names. Observed rooms (``observe``)
    get their first memento and their result through a ``RoomWatch``.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = ClientConnection()
        self._waiting: list[asyncio.Future[m.Prepared]] = []
        self._watches: dict[str, RoomWatch] = {}
        self._failure: str | None = None
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, host: str, port: int, password: str,
                      timeout: float = 10.0) -> AdminClient:
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(host, port)
        except (OSError, TimeoutError) as error:
            reason = "timed out" if isinstance(error, TimeoutError) else _os_reason(error)
            raise AdminError(f"cannot connect to {host}:{port}: {reason}") from None
        client = cls(reader, writer)
        client._task = asyncio.create_task(client._read(), name="gauntlet-play-admin")
        await client._send(m.Authenticate(password))
        return client

    async def _send(self, message: m.ClientMessage) -> None:
        if self._failure is not None:
            raise AdminError(self._failure)
        try:
            data = self._conn.send(message)
        except Exception as error:  # the codec refuses after the peer broke the protocol
            raise AdminError(self._failure or f"admin connection failed: {error}") from None
        self._writer.write(data)
        await self._writer.drain()

    async def prepare(self, names: tuple[str, str], *, can_timeout: bool = True,
                      timeout: float = 30.0, game_type: str | None = None) -> m.Prepared:
        """A prepared room with two reserved slots named ``names`` (slot 1 = team ONE) of
        ``game_type`` (None: the protocol's own game)."""
        future: asyncio.Future[m.Prepared] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        slots = tuple(m.Slot(name, can_timeout, True) for name in names)
        try:
            game = {"game_type": game_type} if game_type is not None else {}
            await self._send(m.Prepare(pause=False, slots=slots, **game))
            async with asyncio.timeout(timeout):
                return await future
        except TimeoutError:
            raise AdminError("no answer to prepare (does the server at this port speak "
                             "the Software-Challenge protocol?)") from None
        finally:
            if future in self._waiting:
                self._waiting.remove(future)

    async def observe(self, room_id: str) -> RoomWatch:
        """Observe a room: its ``RoomWatch`` (the result future fails if refused)."""
        watch = RoomWatch(room_id)
        self._watches[room_id] = watch
        if self._failure is not None:
            watch._fail(self._failure)
            return watch
        try:
            await self._send(m.Observe(room_id))
        except (AdminError, OSError) as error:
            watch._fail(str(error))
        return watch

    def forget(self, room_id: str) -> None:
        """Stop tracking a room (its watch is no longer needed)."""
        self._watches.pop(room_id, None)

    async def cancel(self, room_id: str) -> None:
        """Ask the server to end a room (a bot failed to join; its opponent must not wait)."""
        with contextlib.suppress(AdminError, OSError):
            await self._send(m.Cancel(room_id))

    async def _read(self) -> None:
        try:
            while True:
                data = await self._reader.read(READ_SIZE)
                self._conn.receive_data(data)
                while (event := self._conn.next_event()) is not NEED_DATA:
                    self._dispatch(event)
        except ProtocolError as error:
            self._fail(f"the server does not speak the Software-Challenge protocol: {error}")
        except (OSError, AdminError) as error:
            self._fail(str(error) if isinstance(error, AdminError)
                       else f"admin connection failed: {error}")

    def _dispatch(self, event: object) -> None:
        match event:
            case m.Prepared():
                if self._waiting:
                    future = self._waiting.pop(0)
                    if not future.done():
                        future.set_result(event)
            case m.Memento(room_id=room_id):
                if (watch := self._watches.get(room_id)) is not None:
                    watch._start()
            case m.Result(room_id=room_id):
                if (watch := self._watches.get(room_id)) is not None:
                    watch._end(Outcome.from_result(event, None))
            case m.ErrorPacket(message=message, original_request=request):
                if "AuthenticationFailed" in message:
                    raise AdminError("the server refused the admin password")
                if isinstance(request, m.Prepare) and self._waiting:
                    future = self._waiting.pop(0)
                    if not future.done():
                        future.set_exception(AdminError(f"prepare refused: {message}"))
                elif isinstance(request, m.Observe | m.Cancel) and (
                        watch := self._watches.get(request.room_id)) is not None:
                    watch._fail(f"the server refused to {type(request).__name__.lower()} "
                                f"room {request.room_id}: {message}")
                else:
                    log.debug("admin errorpacket: %s", message)
            case StreamEnd() | ConnectionClosed():
                raise AdminError("the server closed the admin connection")
            case _:
                pass  # joinedGameRoom notices, moves and states of observed rooms

    def _fail(self, reason: str) -> None:
        self._failure = reason
        for future in self._waiting:
            if not future.done():
                future.set_exception(AdminError(reason))
        self._waiting.clear()
        for watch in self._watches.values():
            watch._fail(reason)

    async def close(self) -> None:
        """Stop the reader, say goodbye, close the socket (also when the caller is cancelled)."""
        try:
            if self._task is not None:
                self._task.cancel()
                # wait() never raises the reader's own CancelledError, so a CancelledError
                # here is the caller's and goes on up, after the cleanup below.
                await asyncio.wait([self._task])
                failure = None if self._task.cancelled() else self._task.exception()
                if failure is not None:
                    raise failure  # a bug in _read: connection failures end it quietly
        finally:
            with contextlib.suppress(OSError, RuntimeError, LocalProtocolError):
                self._writer.write(self._conn.send(m.Close()) + self._conn.close())
            self._writer.close()
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(2.0):
                    await self._writer.wait_closed()


# --- records --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game of a series. ``seats`` = (label on team ONE, label on team TWO).

    ``winner`` is a label or None (draw, double loss, or no result). ``points`` are per
    team (ONE, TWO). ``cause``/``violator`` describe an irregular end as the server's
    reason text names it; ``category`` is why the violator lost (one of ``CAUSES``) and
    ``detail`` the evidence (the reason text, a crash's stderr tail). ``lost_by`` maps
    each label that lost by its own fault to its category: both labels when each lost
    (every seat failed: a double loss, never a draw).
    ``failures`` holds the launcher's verdict per label. ``aborted`` games were ended by
    Ctrl-C; ``error`` says why a game has no result at all.
    """

    index: int
    seats: tuple[str, str]
    winner: str | None = None
    points: tuple[int, int] = (0, 0)
    regular: bool = True
    reason: str = ""
    cause: str | None = None
    violator: str | None = None
    error: str | None = None
    failures: dict[str, str] = field(default_factory=dict)
    category: str | None = None
    detail: str | None = None
    aborted: bool = False
    lost_by: dict[str, str | None] = field(default_factory=dict)

    def losers(self) -> dict[str, str | None]:
        """``lost_by``, or the violator alone (records made without it)."""
        if self.lost_by or self.violator is None:
            return self.lost_by
        return {self.violator: self.category or _category(self.cause, None)}

    def result_for(self, label: str) -> str | None:
        """``W``, ``D`` or ``L`` for the bot ``label``; None: the game has no result (an
        error, or aborted). A double loss is a loss for both, never a draw.

        >>> GameRecord(0, ("a", "b"), winner="a").result_for("b")
        'L'
        """
        if self.aborted or self.error is not None:
            return None
        if self.winner == label:
            return "W"
        if self.winner is not None or label in self.losers():
            return "L"
        return "D"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class BotSummary:
    """Totals for one bot over a series (aborted games do not count)."""

    label: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    timeouts: int = 0
    violations: int = 0
    as_team_one: int = 0
    errors: int = 0
    causes: dict[str, int] = field(default_factory=dict)
    scored_games: int = field(default=0, repr=False)

    @property
    def mean_points(self) -> float:
        return self.points / self.scored_games if self.scored_games else 0.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["mean_points"] = round(self.mean_points, 3)
        return data


def summarise(records: list[GameRecord], labels: tuple[str, str]) -> list[BotSummary]:
    """Wins/draws/losses, mean points, timeouts (and other violations) per bot.

    A game without a result (``error``) counts in ``games`` and ``errors`` only; an
    aborted game not at all. ``causes`` counts the violator's ``category`` per bot.

    >>> games = [GameRecord(0, ("a", "b"), winner="a", points=(120, 90)),
    ...          GameRecord(1, ("b", "a"), winner=None, points=(100, 100))]
    >>> a, b = summarise(games, ("a", "b"))
    >>> (a.wins, a.draws, a.losses, a.mean_points), (b.losses, b.as_team_one)
    ((1, 1, 0, 110.0), (1, 1))
    """
    summaries = {label: BotSummary(label) for label in labels}
    for record in records:
        if record.aborted:
            continue
        for team_index, label in enumerate(record.seats):
            summary = summaries[label]
            summary.games += 1
            if team_index == 0:
                summary.as_team_one += 1
            if record.error is not None:
                summary.errors += 1
                continue
            summary.scored_games += 1
            summary.points += record.points[team_index]
            lost_by = record.losers()
            result = record.result_for(label)
            if result == "W":
                summary.wins += 1
            elif result == "L":
                summary.losses += 1
            else:
                summary.draws += 1
            if label in lost_by:
                if record.cause in TIMEOUT_CAUSES:
                    summary.timeouts += 1
                else:
                    summary.violations += 1
                category = lost_by[label]
                if category is not None:
                    summary.causes[category] = summary.causes.get(category, 0) + 1
    return [summaries[label] for label in labels]


def game_seed(seed: int | None, pair: int) -> int:
    """The seed of pair ``pair``'s game: fixed by the series seed (None: a fresh one).

    >>> game_seed(7, 3) == game_seed(7, 3) != game_seed(7, 4)
    True
    """
    if seed is None:
        return random.SystemRandom().getrandbits(63)
    return random.Random(f"{seed}:pair:{pair}").getrandbits(63)


def bot_seed(seed: int | None, game: int, side: int) -> int | None:
    """The seed of side 0 (A) or 1 (B) in game ``game``: fixed by the series seed."""
    if seed is None:
        return None
    return random.Random(f"{seed}:{game}:{side}").getrandbits(32)


def _category(cause: str | None, failure: SeatFailure | None) -> str | None:
    """Why the violator lost: the server's cause, refined by the launcher's verdict.

    >>> _category("HARD_TIMEOUT", None), _category("RULE_VIOLATION", None)
    ('timeout', 'illegal_move')
    >>> _category("LEFT", None), _category("LEFT", SeatFailure(FailureCategory.CRASH, "x"))
    ('disconnect', 'crash')
    """
    if cause in TIMEOUT_CAUSES:
        return FailureCategory.TIMEOUT.value
    if cause == "RULE_VIOLATION":
        return FailureCategory.ILLEGAL_MOVE.value
    if cause == "PROCESS_VIOLATION":
        return FailureCategory.PROTOCOL_ERROR.value
    if cause == "LEFT":
        return failure.category.value if failure is not None else "disconnect"
    return None


Explain = Callable[[str], str | None]
"""The rule an illegal move's reason text names, in English (`GamePlugin.explain`)."""


def _record(index: int, seats: tuple[str, str], outcome: Outcome,
            failures: dict[str, SeatFailure], *, aborted: bool = False,
            explain: Explain | None = None) -> GameRecord:
    by_team = dict(zip(TEAMS, seats, strict=True))
    violator = by_team.get(outcome.violator) if outcome.violator else None
    winner = by_team.get(outcome.winner) if outcome.winner else None
    everyone = False
    if violator is None and winner is None and outcome.cause is not None:
        # The server names nobody ("Alle Spieler") when no seat had joined: every seat
        # lost. Our launcher knows whose program failed: if only one did, it alone lost.
        failed = [label for label in seats if label in failures]
        if len(failed) == 1:
            violator = failed[0]
            winner = next(label for label in seats if label != violator)
        else:
            everyone = True
            violator = failed[0] if failed else None
    lost_by = {label: _category(outcome.cause, failures.get(label))
               for label in (seats if everyone else (violator,) if violator else ())}
    failure = failures.get(violator) if violator is not None else None
    category = _category(outcome.cause, failure) if violator is not None else None
    detail = None
    if category is not None:
        detail = outcome.reason
        if category == FailureCategory.ILLEGAL_MOVE.value and explain is not None \
                and (rule := explain(detail)):
            detail = f"{rule} (official text: {detail})"
        if failure is not None:
            detail = f"{outcome.reason}\n{failure.detail}" if outcome.reason else failure.detail
    return GameRecord(
        index,
        seats,
        winner=winner,
        points=(outcome.points.get("ONE", 0), outcome.points.get("TWO", 0)),
        regular=outcome.regular,
        reason=outcome.reason,
        cause=outcome.cause,
        violator=violator,
        failures={label: str(f) for label, f in failures.items()},
        category=category,
        detail=detail,
        aborted=aborted,
        lost_by=lost_by,
    )


# --- seats ----------------------------------------------------------------------------

@dataclass(frozen=True)
class InProcessKit:
    """A kit bot played in this process: ``make(seed)`` builds a fresh bot for each game,
    ``play(bot, host, port, reservation, idle_timeout=...)`` plays one game with it over TCP
    (``bots.blokus.aio.play_async``, ``bots.hearth.aio.play_async``)."""

    make: Callable[[int | None], Any]
    play: Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class InProcessSeat:
    """A game's bundled in-process bot (``server.games.registry.BundledBot.play``): seated
    in the room directly, so the series needs a server in this process (``join``)."""

    play: Callable[[Any, Any], Any]


Join = Callable[[str, str, str, Callable[[Any, Any], Any]], None]
PrepareRoom = Callable[[tuple[str, str], "str | None", "int | None"],
                       Awaitable[tuple[str, tuple[str, ...]]]]
"""Prepares a room of reserved seats named as given, of a game type, with a seed: its id and
the seats' reservations."""
"""Seats an in-process bot: ``join(room_id, reservation, label, play)``."""


@dataclass(frozen=True)
class SeatCommand:
    """A bot run as a program: ``argv`` plus the official host and port flags.

    With ``seeded``, ``--seed N`` (the game's seed for that side) comes before the flags.
    ``env`` is added to the launcher's minimal environment.

    >>> SeatCommand(("java", "-jar", "p.jar")).spec("p", 7).argv
    ('java', '-jar', 'p.jar')
    >>> SeatCommand(("python", "-m", "bots.blokus", "random"), seeded=True).spec("r", 7).argv
    ('python', '-m', 'bots.blokus', 'random', '--seed', '7')
    """

    argv: tuple[str, ...]
    seeded: bool = False
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    protocol: str = "sc"
    game: str = ""

    def spec(self, label: str, seed: int | None) -> BotSpec:
        argv = self.argv
        if self.seeded and seed is not None:
            argv = (*argv, "--seed", str(seed))
        return BotSpec(label, self.game, argv, cwd=self.cwd, env=self.env,
                       protocol=self.protocol)  # type: ignore[arg-type]

    @classmethod
    def python_module(cls, module: str, *args: str, protocol: str = "sc",
                      game: str = "") -> SeatCommand:
        """``python -m module args...`` with this interpreter and this import path."""
        path = os.pathsep.join(p for p in sys.path if p)
        return cls((sys.executable, "-m", module, *args), seeded=True, cwd=Path.cwd(),
                   env={"PYTHONPATH": path}, protocol=protocol, game=game)


Seat = SeatCommand | InProcessKit | InProcessSeat


def _reservation(seat: Seat, room_id: str, code: str) -> str:
    """The bot's reservation (``$GAUNTLET_RESERVATION``): Kettle joins with ``GAME_ID:PASSWORD``."""
    if isinstance(seat, SeatCommand) and seat.protocol == "kettle":
        return f"{room_id}:{code}"
    return code


def outcome_of(result: Any) -> Outcome:
    """An ``Outcome`` (seat 0 = ``ONE``) from a room's ``server.rooms.MatchResult``."""
    violation = result.violation
    cause = violator = None
    if violation is not None and violation.cause.value != "REGULAR":
        cause = violation.cause.value
        if cause == "LEFT" and violation.left_cause is not None \
                and violation.left_cause.value == "PROTOCOL_ERROR":
            cause = "PROCESS_VIOLATION"
        violator = TEAMS[violation.seat] if violation.seat is not None else None
    winner = TEAMS[result.winner] if result.winner is not None else None
    points = dict(zip(TEAMS, result.scores, strict=False))
    return Outcome(None, winner, result.regular, result.reason, points, {}, {}, cause,
                   violator)


class _Player:
    """One seat's bot in one game: started, watched for its end, stopped."""

    done: asyncio.Future[Any]

    async def start(self) -> None:
        raise NotImplementedError

    @property
    def failure(self) -> SeatFailure | None:
        return None

    def connected(self) -> None:
        pass

    def match_ended(self) -> None:
        pass

    async def stop(self) -> None:
        pass


class _ProcessPlayer(_Player):
    def __init__(self, process: BotProcess) -> None:
        self.process = process

    async def start(self) -> None:
        await self.process.start()
        self.done = asyncio.ensure_future(self.process.wait())

    @property
    def failure(self) -> SeatFailure | None:
        return self.process.failure

    def connected(self) -> None:
        self.process.connected()

    def match_ended(self) -> None:
        self.process.match_ended()

    async def stop(self) -> None:
        await asyncio.wait([self.done], timeout=LEAVE_WAIT)
        await self.process.stop(STOP_GRACE)


class _TaskPlayer(_Player):
    """An in-process kit bot: cannot be stopped while it thinks (tests, benchmarks)."""

    def __init__(self, kit: InProcessKit, bot: Any, host: str, port: int, code: str,
                 idle_timeout: float) -> None:
        self.args = (kit, bot, host, port, code, idle_timeout)
        self._failure: SeatFailure | None = None

    async def start(self) -> None:
        kit, bot, host, port, code, idle = self.args
        self.done = asyncio.ensure_future(kit.play(bot, host, port, code, idle_timeout=idle))
        self.done.add_done_callback(self._judge)

    def _judge(self, task: asyncio.Future[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            category = (FailureCategory.CRASH if isinstance(error, KitError)
                        else FailureCategory.FAILED_TO_START)
            self._failure = SeatFailure(category, str(error))

    @property
    def failure(self) -> SeatFailure | None:
        return self._failure

    async def stop(self) -> None:
        await asyncio.wait([self.done], timeout=LEAVE_WAIT)
        self.done.cancel()
        await asyncio.wait([self.done])
        error = None if self.done.cancelled() else self.done.exception()
        if error is not None and not isinstance(error, KitError):
            raise error  # a bug, not a game outcome


class _SeatedPlayer(_Player):
    """A bundled in-process bot: seated in the room, it plays until the room ends."""

    def __init__(self, join: Join, room_id: str, code: str, label: str,
                 play: Callable[[Any, Any], Any]) -> None:
        self.args = (room_id, code, label, play)
        self._join = join

    async def start(self) -> None:
        self.done = asyncio.get_running_loop().create_future()
        self._join(*self.args)

    def match_ended(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class LocalRooms:
    """What a series needs of a lobby in this process (`run_series`'s `watch_room`, `join`
    and `prepare_room`): watch a room directly, seat an in-process bot, prepare a seeded
    room (neither of the last two can be done over the admin protocol)."""

    def __init__(self, lobby: Any, decks: dict[str, Any] | None = None,
                 use_deck: Callable[[Any, int, Any], None] | None = None) -> None:
        self.lobby = lobby  # server.rooms.Lobby: the rooms layer, below this one
        # By bot label: the deck that bot plays in every room `prepare_room` makes, given
        # to its seat with the game's `use_deck` (`GamePlugin.use_deck`).
        self.decks = decks or {}
        self.use_deck = use_deck

    async def watch_room(self, room_id: str) -> RoomWatch:
        return RoomWatch.polling(self.lobby.rooms[room_id])

    def join(self, room_id: str, code: str, label: str, play: Callable[[Any, Any], Any]) -> None:
        from server.rooms.inprocess import IN_PROCESS, InProcessPlayer

        self.lobby.seated(self.lobby.join_prepared(InProcessPlayer(play, label), code,
                                                   IN_PROCESS))

    async def prepare_room(self, names: tuple[str, str], game_type: str | None,
                           seed: int | None) -> tuple[str, tuple[str, ...]]:
        from server.rooms import SlotRequest

        room, codes = self.lobby.prepare(game_type, [SlotRequest(name) for name in names],
                                         False, None, seed)
        for seat, name in enumerate(names):
            deck = self.decks.get(name)
            if deck is not None and self.use_deck is not None:
                self.use_deck(room.game, seat, deck)  # before either bot joins
        return room.id, tuple(codes)


# --- the series -----------------------------------------------------------------------


async def run_series(
    bots: tuple[tuple[str, Seat], tuple[str, Seat]],
    games: int,
    *,
    host: str,
    port: int,
    password: str,
    concurrency: int = 1,
    seed: int | None = None,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    on_game: Callable[[GameRecord], None] | None = None,
    stop: asyncio.Event | None = None,
    game_type: str | None = None,
    watch_room: Callable[[str], Awaitable[RoomWatch]] | None = None,
    join: Join | None = None,
    explain: Explain | None = None,
    paired: bool = False,
    prepare_room: PrepareRoom | None = None,
) -> list[GameRecord]:
    """Play ``games`` games, ``concurrency`` at a time; the records in game order.

    ``bots`` are (label, seat) for A and B; labels must differ. A seat is a
    ``SeatCommand`` (a child process per game) or a maker that gets the bot's seed for
    that game (see ``bot_seed``) and returns a fresh in-process bot.

    Each game ends when the server announces its result; a bot whose program ends
    before that costs its game (the room is cancelled if it never started). When
    ``stop`` is set, no new game starts and the running ones are cancelled and recorded
    as ``aborted``; the records of games never started are left out. ``watch_room``
    replaces observing each room over the admin connection (see ``RoomWatch.polling``),
    ``join`` seats the ``InProcessSeat`` bots (both: a server in this process).
    ``game_type`` None plays the admin protocol's own game; ``explain`` puts an illegal
    move's rule into words (the game's ``GamePlugin.explain``).

    ``paired``: games 2k and 2k+1 are a pair (``GameRecord.pair``), the same game with the
    seats swapped: the same seed for the game (``game_seed``) and for each bot; the rooms
    need ``prepare_room(names, game_type, seed) -> (room_id, reservations)`` then (a server
    in this process: the admin protocol cannot seed a room).
    """
    (label_a, seat_a), (label_b, seat_b) = bots
    if label_a == label_b:
        raise ValueError("the two bots need different labels")
    if games < 0 or concurrency < 1:
        raise ValueError("games must be >= 0 and concurrency >= 1")
    if paired and prepare_room is None:
        raise ValueError("paired games need prepare_room (a server in this process)")
    if join is None and any(isinstance(s, InProcessSeat) for s in (seat_a, seat_b)):
        raise ValueError("in-process seats need a server in this process (join)")
    stop = stop if stop is not None else asyncio.Event()
    admin = await AdminClient.connect(host, port, password)
    records: list[GameRecord | None] = [None] * games
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(games):
        queue.put_nowait(index)

    def player(seat: Seat, label: str, index: int, side: int, room_id: str,
               code: str) -> _Player:
        side_seed = bot_seed(seed, index // 2 if paired else index, side)
        if isinstance(seat, SeatCommand):
            return _ProcessPlayer(launch(seat.spec(label, side_seed), host, port,
                                         _reservation(seat, room_id, code), grace=STOP_GRACE))
        if isinstance(seat, InProcessSeat):
            assert join is not None  # checked above
            return _SeatedPlayer(join, room_id, code, label, seat.play)
        try:
            bot = seat.make(side_seed)
        except Exception as error:
            raise SeriesError(f"cannot create bot {label}: "
                              f"{type(error).__name__}: {error}") from error
        return _TaskPlayer(seat, bot, host, port, code, idle_timeout)

    async def until(future: asyncio.Future[Any], timeout: float) -> bool:
        await asyncio.wait([future], timeout=timeout)
        return future.done()

    async def one_game(index: int) -> GameRecord:
        swapped = index % 2 == 1
        seats = (label_b, label_a) if swapped else (label_a, label_b)
        chosen = (seat_b, seat_a) if swapped else (seat_a, seat_b)
        sides = (1, 0) if swapped else (0, 1)
        if prepare_room is not None:
            room_id, codes = await prepare_room(
                seats, game_type, game_seed(seed, index // 2) if paired else None)
        else:
            prepared = await admin.prepare(seats, game_type=game_type)
            room_id, codes = prepared.room_id, prepared.reservations
        watch = await (admin.observe(room_id) if watch_room is None else watch_room(room_id))
        players = [player(chosen[team], seats[team], index, sides[team], room_id,
                          codes[team])
                   for team in range(2)]
        for each in players:
            watch.on_start.append(each.connected)

        def judged(result: asyncio.Future[Outcome]) -> None:
            """From the result on, only the violator's exit still tells something (crash or
            not); any other bot that exits now (told the game is over, or refused a game that
            never started) has not failed."""
            if result.cancelled() or result.exception() is not None:
                return
            for team, each in enumerate(players):
                if TEAMS[team] != result.result().violator:
                    each.match_ended()

        watch.result.add_done_callback(judged)
        stopping = asyncio.ensure_future(stop.wait())
        aborted, error = False, None
        try:
            for each in players:
                await each.start()
            while not watch.result.done():
                if not any(p.done.done() for p in players):
                    # A program that ended already (before the other even started, say)
                    # must not be waited for: its seat stays empty, the game never starts.
                    waiting: list[asyncio.Future[Any]] = [watch.result, stopping,
                                                          *(p.done for p in players)]
                    await asyncio.wait(waiting,
                                       timeout=None if watch.started.is_set() else idle_timeout,
                                       return_when=asyncio.FIRST_COMPLETED)
                if watch.result.done():
                    break
                if stop.is_set():
                    aborted = True
                elif any(p.done.done() for p in players):
                    if await until(watch.result, EXIT_GRACE):
                        break
                elif not watch.started.is_set():
                    error = f"the game did not start within {idle_timeout:g} s"
                else:
                    continue
                await admin.cancel(room_id)
                if not await until(watch.result, CANCEL_WAIT):
                    error = error or "the server announced no result after a cancel"
                break
            if watch.result.done() and watch.result.exception() is None \
                    and watch.result.result().cause == "LEFT":
                    # Whether it crashed or just left, its exit tells: wait for it.
                    await asyncio.wait([p.done for p in players], timeout=LEAVE_WAIT)
        finally:
            stopping.cancel()
            for each in players:
                each.match_ended()
            await asyncio.gather(*(each.stop() for each in players if hasattr(each, "done")))
            admin.forget(room_id)
        failures = {seats[team]: f for team, p in enumerate(players)
                    if (f := p.failure) is not None}
        if not watch.result.done() or watch.result.exception() is not None:
            reason = error or str(watch.result.exception())
            return GameRecord(index, seats, error=reason, aborted=aborted,
                              failures={k: str(v) for k, v in failures.items()})
        return _record(index, seats, watch.result.result(), failures, aborted=aborted,
                       explain=explain)

    async def worker() -> None:
        while not stop.is_set():
            try:
                index = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            record = await one_game(index)
            records[index] = record
            if on_game is not None:
                on_game(record)

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(concurrency, max(games, 1))):
                group.create_task(worker())
    except* SeriesError as group_error:
        raise group_error.exceptions[0] from None
    finally:
        await admin.close()
    return [record for record in records if record is not None]


def reachable(host: str, port: int, timeout: float = 1.0) -> bool:
    """Whether something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False

