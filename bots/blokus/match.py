"""Series of Blokus games between two bots over TCP, seats swapped every other game.

Every game is prepared through the admin protocol (``<prepare>`` with two reserved slots),
so who sits where is decided here, not by join order: in even games bot A is team ONE
(BLUE+RED, it moves first), in odd games bot B is. Each bot then joins with its
reservation through the kit (``bots.blokus.aio.play_async``), over real sockets.

``run_series`` is what ``gauntlet play`` and ``bench/sc_server.py`` use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from bots.blokus.aio import play_async
from bots.blokus.kit import READ_SIZE, Bot, KitError, Outcome, _os_reason
from games.blokus import GAME_TYPE, TEAMS
from protocols.base import NEED_DATA, ConnectionClosed, ProtocolError, StreamEnd
from protocols.sc import ClientConnection
from protocols.sc import messages as m

__all__ = [
    "AdminClient",
    "AdminError",
    "BotSummary",
    "GameRecord",
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


class SeriesError(Exception):
    """A series cannot go on; ``str()`` is meant for humans."""


class AdminError(SeriesError):
    """The admin connection failed (wrong password, server gone, protocol broken)."""


class AdminClient:
    """One authenticated admin connection; ``prepare`` may be awaited concurrently.

    A reader task takes every server message: ``prepared`` answers resolve the oldest
    waiting ``prepare`` (the server answers in request order), ``joinedGameRoom`` notices
    are dropped, an errorpacket fails the request it names.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = ClientConnection()
        self._waiting: list[asyncio.Future[m.Prepared]] = []
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
        self._writer.write(self._conn.send(message))
        await self._writer.drain()

    async def prepare(self, names: tuple[str, str], *, can_timeout: bool = True,
                      timeout: float = 30.0) -> m.Prepared:
        """A prepared room with two reserved slots named ``names`` (slot 1 = team ONE)."""
        future: asyncio.Future[m.Prepared] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        slots = tuple(m.Slot(name, can_timeout, True) for name in names)
        try:
            await self._send(m.Prepare(GAME_TYPE, False, slots))
            async with asyncio.timeout(timeout):
                return await future
        except TimeoutError:
            raise AdminError("no answer to prepare") from None
        finally:
            if future in self._waiting:
                self._waiting.remove(future)

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
        except (ProtocolError, OSError, AdminError) as error:
            self._fail(str(error) if isinstance(error, AdminError)
                       else f"admin connection failed: {error}")

    def _dispatch(self, event: object) -> None:
        match event:
            case m.Prepared():
                if self._waiting:
                    future = self._waiting.pop(0)
                    if not future.done():
                        future.set_result(event)
            case m.ErrorPacket(message=message, original_request=request):
                if "AuthenticationFailed" in message:
                    raise AdminError("the server refused the admin password")
                if isinstance(request, m.Prepare) and self._waiting:
                    future = self._waiting.pop(0)
                    if not future.done():
                        future.set_exception(AdminError(f"prepare refused: {message}"))
                else:
                    log.debug("admin errorpacket: %s", message)
            case StreamEnd() | ConnectionClosed():
                raise AdminError("the server closed the admin connection")
            case _:
                pass  # joinedGameRoom notices

    def _fail(self, reason: str) -> None:
        self._failure = reason
        for future in self._waiting:
            if not future.done():
                future.set_exception(AdminError(reason))
        self._waiting.clear()

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
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.write(self._conn.send(m.Close()) + self._conn.close())
            self._writer.close()
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(2.0):
                    await self._writer.wait_closed()


# --- records --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game of a series. ``seats`` = (label on team ONE, label on team TWO).

    ``winner`` is a label or None (draw, or no result). ``points`` are per team
    (ONE, TWO). ``cause``/``violator`` describe an irregular end; ``error`` says why a
    game has no result at all.
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

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class BotSummary:
    """Totals for one bot over a series."""

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

    A game without a result (``error``) counts in ``games`` and ``errors`` only.

    >>> games = [GameRecord(0, ("a", "b"), winner="a", points=(120, 90)),
    ...          GameRecord(1, ("b", "a"), winner=None, points=(100, 100))]
    >>> a, b = summarise(games, ("a", "b"))
    >>> (a.wins, a.draws, a.losses, a.mean_points), (b.losses, b.as_team_one)
    ((1, 1, 0, 110.0), (1, 1))
    """
    summaries = {label: BotSummary(label) for label in labels}
    for record in records:
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
            if record.winner is None:
                summary.draws += 1
            elif record.winner == label:
                summary.wins += 1
            else:
                summary.losses += 1
            if record.violator == label:
                if record.cause in TIMEOUT_CAUSES:
                    summary.timeouts += 1
                else:
                    summary.violations += 1
    return [summaries[label] for label in labels]


def bot_seed(seed: int | None, game: int, side: int) -> int | None:
    """The seed of side 0 (A) or 1 (B) in game ``game``: fixed by the series seed."""
    if seed is None:
        return None
    return random.Random(f"{seed}:{game}:{side}").getrandbits(32)


def _record(index: int, seats: tuple[str, str], outcomes: list[Outcome | BaseException]
            ) -> GameRecord:
    results = [o for o in outcomes if isinstance(o, Outcome)]
    if not results:
        errors = "; ".join(f"{seats[i]}: {o}" for i, o in enumerate(outcomes))
        return GameRecord(index, seats, error=errors)
    outcome = results[0]
    by_team = dict(zip(TEAMS, seats, strict=True))
    failures = {seats[i]: str(o) for i, o in enumerate(outcomes) if not isinstance(o, Outcome)}
    return GameRecord(
        index,
        seats,
        winner=by_team.get(outcome.winner) if outcome.winner else None,
        points=(outcome.points.get("ONE", 0), outcome.points.get("TWO", 0)),
        regular=outcome.regular,
        reason=outcome.reason,
        cause=outcome.cause,
        violator=by_team.get(outcome.violator) if outcome.violator else None,
        failures=failures,
    )


# --- the series -----------------------------------------------------------------------

BotMaker = Callable[[int | None], Bot]


async def run_series(
    bots: tuple[tuple[str, BotMaker], tuple[str, BotMaker]],
    games: int,
    *,
    host: str,
    port: int,
    password: str,
    concurrency: int = 1,
    seed: int | None = None,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    on_game: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Play ``games`` games, ``concurrency`` at a time; the records in game order.

    ``bots`` are (label, maker) for A and B; labels must differ. A maker gets the bot's
    seed for that game (see ``bot_seed``) and returns a fresh bot.
    """
    (label_a, make_a), (label_b, make_b) = bots
    if label_a == label_b:
        raise ValueError("the two bots need different labels")
    if games < 0 or concurrency < 1:
        raise ValueError("games must be >= 0 and concurrency >= 1")
    admin = await AdminClient.connect(host, port, password)
    records: list[GameRecord | None] = [None] * games
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(games):
        queue.put_nowait(index)

    async def one_game(index: int) -> GameRecord:
        swapped = index % 2 == 1
        seats = (label_b, label_a) if swapped else (label_a, label_b)
        makers = (make_b, make_a) if swapped else (make_a, make_b)
        sides = (1, 0) if swapped else (0, 1)
        players: list[Bot] = []
        for team in range(2):
            try:
                players.append(makers[team](bot_seed(seed, index, sides[team])))
            except Exception as error:
                raise SeriesError(f"cannot create bot {seats[team]}: "
                                  f"{type(error).__name__}: {error}") from error
        prepared = await admin.prepare(seats)
        codes = prepared.reservations
        tasks = [
            asyncio.create_task(play_async(players[team], host, port, codes[team],
                                           idle_timeout=idle_timeout))
            for team in range(2)
        ]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            if any(t.exception() is not None for t in done) and len(done) < 2:
                # One bot failed (often before joining): end the room so the other is told.
                await admin.cancel(prepared.room_id)
            await asyncio.wait(tasks)
        finally:
            # Only reached with bots still playing when the series itself is cancelled.
            for task in tasks:
                task.cancel()
        outcomes: list[Outcome | BaseException] = []
        for task in tasks:
            failure = task.exception()
            if failure is not None and not isinstance(failure, KitError):
                raise failure  # a bug, not a game outcome
            outcomes.append(failure if failure is not None else task.result())
        return _record(index, seats, outcomes)

    async def worker() -> None:
        while True:
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

