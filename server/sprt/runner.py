"""`SprtRunner`: one task per running test, playing its pairs until the SPRT decides.

A pair is two ordinary API matches of the test's registered bots (`MatchService`): game 0
with the candidate in seat 0, game 1 with the seats swapped, the same seed (and with
openings, the same position: pair k from opening k mod n, played on this node). Each game's
match id is stored before the runner waits for it, and its result (the candidate's W, D or
L, from the stored seats) as soon as it is over; when both games have a result the pair is
counted (`SprtStore.count_pair`) and added to the test's `Tally`, which decides.

A game that ends without a result (aborted, cancelled by someone) is played again, up to
`GAME_ATTEMPTS` times; after that the pair is left out as `incomplete`, reported, never
counted as half a pair. When the test ends (decided, out of games, stopped) the pairs
being played are cancelled with their matches and reported as `cancelled`.

After `kill -9`: the store's recovery aborted the matches left open; `start` queues the
pairs left `playing` again, and a queued pair plays only the games that have no result
yet: a game whose match did finish (its result stored before the kill) keeps it, so no
pair is played twice, counted twice or lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from server import positions
from server.matches import MatchError, MatchService, SeatRequest, find_bot
from server.positions import Start
from server.rooms import Clocks
from server.series import game_seed
from server.sprt.tally import Tally
from server.store import MatchStatus, Outcome, Store, StoreError
from server.store.models import PairStatus, SprtPair, SprtStatus, SprtTest
from server.store.sprt import SprtStore
from stats import SequentialTest

__all__ = ["GAME_ATTEMPTS", "SprtRunner", "TestRequest"]

log = logging.getLogger(__name__)

GAME_ATTEMPTS = 3
"""Matches started for one game of a pair in one run before the pair is left out."""
MAX_INCOMPLETE = 20
"""Pairs left out before a test is stopped: its games keep ending without a result."""
RETRY_WAIT = 2.0
"""Seconds before a match the server refused for now (503: full, the store failing) is
asked for again."""
CACHED_TALLIES = 64

RESULT_OF_OUTCOME = {Outcome.WIN.value: "W", Outcome.DRAW.value: "D", Outcome.LOSS.value: "L"}


@dataclass(frozen=True)
class TestRequest:
    """What `POST /api/tests` asks for; bots by name or id."""

    __test__ = False  # not a pytest class, whatever its name

    game: str
    a: str | int
    b: str | int
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 20_000
    model: str = "normalized"
    concurrency: int = 1
    seed: int | None = None
    openings: tuple[dict[str, Any], ...] = ()


class _Unplayable(Exception):
    """The test cannot go on (a bot was deleted or moved to another game)."""


class SprtRunner:
    """The server's tests. `await start()` after the store is open (resumes running tests);
    `await close()` before the match service closes (their pairs are resumed next time)."""

    def __init__(self, service: MatchService, store: Store, *, remote: Any = None,
                 clocks: Clocks | None = None) -> None:
        """`remote`: the cluster's `Dispatcher` (games go to the workers), None: played by
        `service` in this process."""
        self.service = service
        self.store = store
        self.tests = SprtStore(store)
        self.remote = remote
        self.clocks = clocks
        self.live: dict[int, asyncio.Task[None]] = {}
        self._tallies: OrderedDict[int, Tally] = OrderedDict()
        self._tallies_lock = threading.Lock()  # the runner's and the API's threads share them
        self._closing = False

    # --- control ------------------------------------------------------------------------

    async def start(self) -> None:
        for row in await asyncio.to_thread(self._recover):
            self._spawn(row)

    async def close(self) -> None:
        self._closing = True
        tasks = list(self.live.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _recover(self) -> list[SprtTest]:
        """Blocking: the running tests, their half-played pairs queued again."""
        running = self.tests.running()
        for row in running:
            assert row.id is not None
            again = self.tests.requeue_playing(row.id)
            if again:
                log.info("sprt: test %d resumes, %d pairs to finish", row.id, again)
        return running

    def _spawn(self, row: SprtTest) -> None:
        assert row.id is not None
        self.live[row.id] = asyncio.get_running_loop().create_task(
            self._run(row), name=f"sprt:{row.id}")

    async def create(self, request: TestRequest) -> SprtTest:
        """Check and store a new test, and start it. `MatchError` with the HTTP status."""
        self.service.check_available()
        games = self.service.lobby.games
        game = games.resolve(request.game)
        if game not in games:
            raise MatchError(f"game: unknown game {request.game!r}; known: "
                             f"{games.listing()}", 404)
        plugin = games.get(game)
        if plugin.seat_count != 2:
            raise MatchError(f"game: a test is head to head; {game} has "
                             f"{plugin.seat_count} seats", 422)
        if request.model not in ("normalized", "logistic"):
            raise MatchError(f"model: normalized or logistic, not {request.model!r}", 422)
        try:
            SequentialTest(request.elo0, request.elo1, request.alpha, request.beta)
        except ValueError as error:
            raise MatchError(str(error), 422) from None
        bots = []
        for field in ("a", "b"):
            key = getattr(request, field)
            bot = await asyncio.to_thread(find_bot, self.store, key)
            if bot is None or bot.id is None:
                raise MatchError(f"{field}: no registered bot {key!r}", 404)
            if bot.game != plugin.game_id:
                raise MatchError(f"{field}: bot {bot.name!r} plays {bot.game}, not "
                                 f"{plugin.game_id}", 422)
            bots.append(bot)
        if bots[0].id == bots[1].id:
            raise MatchError("b: a test needs two different bots", 422)
        openings = [dict(o) for o in request.openings]
        await asyncio.to_thread(positions.check_openings, self.store, plugin, openings)
        seed = request.seed if request.seed is not None else random.SystemRandom().getrandbits(62)
        row = await asyncio.to_thread(self.tests.create_test, SprtTest(
            game=plugin.game_id, bot_a=bots[0].id, bot_b=bots[1].id, name_a=bots[0].name,
            name_b=bots[1].name, elo0=request.elo0, elo1=request.elo1, alpha=request.alpha,
            beta=request.beta, model=request.model,
            max_games=request.max_games + request.max_games % 2,
            concurrency=request.concurrency, seed=seed, openings=openings or None))
        self._spawn(row)
        return row

    async def stop(self, test_id: int) -> SprtTest:
        """End a running test (its figures stay as they are); a test that ended stays."""
        await asyncio.to_thread(self.tests.finish_test, test_id, SprtStatus.STOPPED,
                                "stopped over the API")
        task = self.live.get(test_id)
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        return await asyncio.to_thread(self.tests.get_test, test_id)

    # --- figures ------------------------------------------------------------------------

    def tally(self, test_id: int, row: SprtTest | None = None) -> Tally:
        """Blocking: the test's figures as of now (`NotFound` for an unknown test): the
        cached tally of the test plus the pairs counted since. `row`: the test as the
        caller just read it (a listing), not read again."""
        row = row if row is not None else self.tests.get_test(test_id)
        with self._tallies_lock:
            tally = self._tallies.get(test_id)
            if tally is None:
                tally = Tally(row)
                self._tallies[test_id] = tally
                while len(self._tallies) > CACHED_TALLIES:
                    self._tallies.popitem(last=False)
            self._tallies.move_to_end(test_id)
            tally.row = row
            tally.add(self.tests.counted(test_id, after=tally.position))
            return tally

    # --- one test -----------------------------------------------------------------------

    async def _run(self, row: SprtTest) -> None:
        assert row.id is not None
        test_id = row.id
        playing: dict[asyncio.Task[bool], int] = {}
        try:
            tally = await asyncio.to_thread(self.tally, test_id)
            incomplete = (await asyncio.to_thread(self.tests.status_counts, test_id)).get(
                PairStatus.INCOMPLETE.value, 0)
            while (status := tally.decided) is None:
                if incomplete > MAX_INCOMPLETE:
                    await self._finish(test_id, SprtStatus.STOPPED,
                                       f"{incomplete} pairs had a game without a result")
                    return
                while len(playing) < row.concurrency and \
                        2 * (tally.test.pairs + len(playing)) < row.max_games:
                    pair = await asyncio.to_thread(self.tests.claim_pair, test_id,
                                                   functools.partial(game_seed, row.seed))
                    if pair is None:
                        return  # the test ended (stopped) meanwhile
                    task = asyncio.get_running_loop().create_task(
                        self._play_pair(row, pair), name=f"sprt:{test_id}:{pair.pair}")
                    playing[task] = pair.pair
                if not playing:  # max_games reached with nothing counted: inconclusive
                    break
                done, _ = await asyncio.wait(playing, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    number = playing.pop(task)
                    if task.result():
                        await asyncio.to_thread(self.tests.count_pair, test_id, number)
                    else:
                        incomplete += 1
                        await asyncio.to_thread(self.tests.leave_out, test_id, number,
                                                PairStatus.INCOMPLETE)
                await asyncio.to_thread(self.tally, test_id)
            await self._finish(test_id, status or SprtStatus.INCONCLUSIVE)
        except _Unplayable as error:
            await self._finish(test_id, SprtStatus.STOPPED, str(error))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sprt: test %d failed; it resumes on the next start", test_id)
        finally:
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
            self.live.pop(test_id, None)

    async def _finish(self, test_id: int, status: SprtStatus, reason: str = "") -> None:
        if await asyncio.to_thread(self.tests.finish_test, test_id, status, reason):
            log.info("sprt: test %d ended: %s %s", test_id, status.value, reason)

    async def _play_pair(self, row: SprtTest, pair: SprtPair) -> bool:
        """Both games of the pair side by side; True when both have a result."""
        results = await asyncio.gather(self._play_game(row, pair, 0),
                                       self._play_game(row, pair, 1))
        return all(result is not None for result in results)

    async def _play_game(self, row: SprtTest, pair: SprtPair, game: int) -> str | None:
        """The candidate's result of game `game` of the pair (None: none after every try)."""
        assert row.id is not None
        result: str | None = getattr(pair, f"result_{game}")
        if result is not None:
            return result
        earlier: str | None = getattr(pair, f"match_{game}")
        if earlier is not None:  # a previous run's match: it may have finished
            result = await self._result_after(earlier, game)
            if result is not None:
                await asyncio.to_thread(self.tests.set_game, row.id, pair.pair, game,
                                        result=result)
                return result
        if row.bot_a is None or row.bot_b is None:
            raise _Unplayable("a bot of the test was deleted")
        bots = [row.bot_a, row.bot_b] if game == 0 else [row.bot_b, row.bot_a]
        for _attempt in range(GAME_ATTEMPTS):
            try:
                start = await asyncio.to_thread(self._start_of, row, pair)
                match_id, _seats = await self.service.start_match(
                    row.game, [SeatRequest(bot=bot) for bot in bots],
                    seed=pair.seed if start is None else start.seed, clocks=self.clocks,
                    remote=self.remote, start=start)
            except MatchError as error:
                if error.status in (404, 422):
                    raise _Unplayable(f"cannot start a game: {error}") from None
                await asyncio.sleep(RETRY_WAIT)  # full, or the store fails: later
                continue
            await asyncio.to_thread(self.tests.set_game, row.id, pair.pair, game,
                                    match_id=match_id)
            try:
                await self._wait(match_id)
            except asyncio.CancelledError:
                if not self._closing:  # the test ended: its match goes too
                    with contextlib.suppress(MatchError):
                        self.service.control(match_id, "cancel")
                raise
            result = await asyncio.to_thread(self._result_of, match_id, game)
            if result is not None:
                await asyncio.to_thread(self.tests.set_game, row.id, pair.pair, game,
                                        result=result)
                return result
            log.info("sprt: test %d pair %d game %d: match %s without a result, played "
                     "again", row.id, pair.pair, game, match_id)
        return None

    def _start_of(self, row: SprtTest, pair: SprtPair) -> Start | None:
        """Blocking: the position a game of the pair starts from (None: the game's start):
        pair k from opening k mod n, both games alike (`positions.from_opening`)."""
        if not row.openings:
            return None
        opening = row.openings[pair.pair % len(row.openings)]
        return positions.from_opening(self.store, self.service.lobby.games.get(row.game),
                                      opening, pair.seed)

    async def _wait(self, match_id: str) -> None:
        if self.remote is not None and self.service.live_room(match_id) is None:
            await self.remote.wait(match_id)
        else:
            await self.service.wait_stored(match_id)

    async def _result_after(self, match_id: str, game: int) -> str | None:
        """A previous run's match: its result, once a worker that still plays it is done."""
        match = await asyncio.to_thread(self.store.get_match, match_id)
        if match is not None and self.remote is not None and \
                match.status in (MatchStatus.WAITING.value, MatchStatus.RUNNING.value) and \
                (match.options or {}).get("dispatch") == "worker":
            await self.remote.wait(match_id)
        return await asyncio.to_thread(self._result_of, match_id, game)

    def _result_of(self, match_id: str, game: int) -> str | None:
        """Blocking: the candidate's W/D/L in a finished match (it sits in seat `game`)."""
        try:
            match = self.store.get_match(match_id)
            if match is None or match.status != MatchStatus.FINISHED.value:
                return None
            seats = self.store.seats(match_id)
        except StoreError:
            return None
        outcome = next((s.outcome for s in seats if s.index == game), None)
        return RESULT_OF_OUTCOME.get(outcome or "")
