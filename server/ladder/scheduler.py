"""The ladder's scheduler: keeps N matches of registered bots running and rates each result.

One asyncio task per server (`Ladder.start`). Its state is the store's (`LadderStore`):

- which games run (`ladder_games.running`, set by the API or at first start);
- the legs to play (`ladder_pairings`): a round is two legs with the seats swapped and the
  same seed. A new round is drawn when a game's queue is empty: the bot with the fewest
  games (then the largest sigma: new and uncertain bots first) meets the bot whose rating
  is closest to its own; with openings (`ladder_games.openings`) round k starts from
  opening k mod n, both legs alike (`ladder_pairings.start`);
- every result's rating change, keyed by match id (`LadderStore.rate_match`).

A leg goes queued -> playing (`claim`, attempts + 1) -> its match created (`set_match`) ->
done when its match is rated, or back to queued when the match did not finish. After a
kill, `recover` settles every leg left playing: a finished match is rated (once, whatever
happened before), an aborted one (the store's `recover()` aborted it) is played again,
under a new match id with the same seats and seed; with a broker, a match still open on
the workers (`options.dispatch == "worker"`, left open by `recover()`) is followed again.

The matches are ordinary API matches (`MatchService.create_match`): registered bots are
launched per seat, their failures land on their seats, and the ladder rates failures as
losses and counts them by category.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any

from server import positions
from server.games.registry import GameRegistry
from server.ladder.ratings import rate
from server.matches import MatchError, MatchService, SeatRequest
from server.positions import Start
from server.rooms import Clocks
from server.store import MatchStatus, Store, StoreError
from server.store.ladder import LadderStore
from server.store.models import LadderPairing, PairingStatus

log = logging.getLogger(__name__)

IDLE_POLL = 2.0
"""Seconds between looks at the store while a running game has nothing to play."""


def default_concurrency() -> int:
    """Fewer matches than cores: the bots need CPU too (max(1, cores - 1))."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


@dataclass(frozen=True)
class LadderOptions:
    """How the ladder plays. `concurrency` None: `default_concurrency()`."""

    concurrency: int | None = None
    # First start (a game without a stored flag): run every game that has two bots.
    autostart: bool = False
    clocks: Clocks | None = None
    # A leg whose match keeps ending without a result is given up after this many tries.
    max_attempts: int = 5
    # Seconds between two legs' starts at least (0: as fast as the slots free up): what
    # bounds the disk a long unattended run fills (the demo's, docs/benchmarks.md).
    min_interval: float = 0.0
    # Seconds between two moves at least (`Clocks.min_move_time`): a match a person can
    # follow in the viewer (the demo's); 0: as fast as the bots.
    min_move_time: float = 0.0

    @property
    def slots(self) -> int:
        return self.concurrency if self.concurrency else default_concurrency()


class Ladder:
    """The scheduler. `await start()` after the store is open; `await close()` before the
    match service closes (live legs stay `playing` and are replayed on the next start)."""

    def __init__(self, service: MatchService, store: Store, games: GameRegistry,
                 options: LadderOptions | None = None, *, remote: Any = None) -> None:
        """`remote`: the cluster's `server.worker.dispatch.Dispatcher` (its owner closes
        it); None: every leg is played by `service`, in this process."""
        self.service = service
        self.store = store
        self.games = games
        self.options = options or LadderOptions()
        self.ladder = LadderStore(store)
        self.live: dict[int, asyncio.Task[None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._closing = False
        self._turn = 0
        self.played = 0
        self.replayed = 0
        self._next_start = 0.0  # monotonic time before which no leg starts (min_interval)
        self._paced: float | None = None  # seconds the last fill left to wait for that
        # With a broker (GAUNTLET_BROKER_URL) legs are played on workers: server.worker.
        self.remote = remote
        self._adopted: list[LadderPairing] = []  # legs of a previous run still on workers

    @property
    def concurrency(self) -> int:
        return self.options.slots

    # --- control ------------------------------------------------------------------------

    async def start(self) -> None:
        await asyncio.to_thread(self.recover)
        adopted, self._adopted = self._adopted, []
        for pairing in adopted:
            assert pairing.id is not None
            self.live[pairing.id] = asyncio.get_running_loop().create_task(
                self._follow(pairing), name=f"ladder:{pairing.game}:{pairing.id}")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="ladder")

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        tasks = [t for t in (self._task, *self.live.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def ladder_games(self) -> list[str]:
        """The games a ladder can run: two seats (the ratings are head to head)."""
        return [g for g in self.games.ids() if self.games.get(g).seat_count == 2]

    async def set_running(self, game: str, running: bool) -> None:
        if game not in self.ladder_games():
            raise MatchError(f"no ladder for game {game!r}; ladder games: "
                             f"{', '.join(self.ladder_games())}", 404)
        await asyncio.to_thread(self.ladder.set_running, game, running)
        self._wake.set()

    async def set_openings(self, game: str, openings: list[dict[str, Any]]) -> None:
        """The positions the game's new rounds start from, each checked first: it must
        rebuild (`MatchError` 422 naming `openings[i]` and what is wrong; nothing is
        changed). Rounds queued already keep their own."""
        if game not in self.ladder_games():
            raise MatchError(f"no ladder for game {game!r}; ladder games: "
                             f"{', '.join(self.ladder_games())}", 404)
        await asyncio.to_thread(positions.check_openings, self.store, self.games.get(game),
                                openings)
        await asyncio.to_thread(self.ladder.set_openings, game, openings)

    def live_games(self) -> dict[str, int]:
        """Legs being played now, per game."""
        found: dict[str, int] = {}
        for task in self.live.values():
            game = task.get_name().split(":", 2)[1]
            found[game] = found.get(game, 0) + 1
        return found

    # --- recovery -----------------------------------------------------------------------

    def recover(self) -> None:
        """Blocking, at start: settle the legs a previous run left playing; first flags."""
        if self.options.autostart:
            for game in self.ladder_games():
                if len(self.store.list_bots(game=game)) >= 2 and \
                        self.ladder.ensure_game(game, True):
                    log.info("ladder: %s started (first start)", game)
        for pairing in self.ladder.playing():
            self._settle(pairing, recovering=True)

    def _settle(self, pairing: LadderPairing, *, recovering: bool = False) -> str:
        """A leg whose match ended (or never got one): rate it, replay it or drop it."""
        assert pairing.id is not None
        match = None if pairing.match_id is None else self.store.get_match(pairing.match_id)
        if match is not None and match.status == MatchStatus.FINISHED.value:
            outcome = self.ladder.rate_match(match.id, rate, pairing.id)
            if outcome.rated:
                self.played += 1
            return "rated" if outcome.rated or outcome.already else "unrated"
        if match is not None and match.status not in (MatchStatus.ABORTED.value,
                                                      MatchStatus.CANCELLED.value):
            if not recovering:  # still open: not ours to decide yet
                return "open"
            if self.remote is not None and (match.options or {}).get("dispatch") == "worker":
                # A worker plays it (or will: a dead worker's job comes back after the
                # visibility timeout); the store's recover() left it open. Followed again.
                self._adopted.append(pairing)
                return "following"
            with contextlib.suppress(StoreError):
                self.store.set_status(match.id, MatchStatus.ABORTED)
        if pairing.attempts >= self.options.max_attempts:
            log.warning("ladder: leg %d (%s) dropped after %d attempts", pairing.id,
                        pairing.game, pairing.attempts)
            self.ladder.finish_pairing(pairing.id, PairingStatus.DROPPED)
            return "dropped"
        self.replayed += 1
        log.info("ladder: leg %d (%s) replayed (match %s did not finish)", pairing.id,
                 pairing.game, pairing.match_id)
        self.ladder.finish_pairing(pairing.id, PairingStatus.QUEUED)
        return "queued"

    # --- the loop -----------------------------------------------------------------------

    async def _run(self) -> None:
        while not self._closing:
            self._wake.clear()
            try:
                waiting = await self._fill()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("ladder: scheduling failed; trying again shortly")
                waiting = True
            timeout = IDLE_POLL if waiting else None
            if self._paced is not None:
                timeout = self._paced if timeout is None else min(timeout, self._paced)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def _fill(self) -> bool:
        """Start legs until `concurrency` run. True: a running game had nothing to start."""
        running = [g for g in await asyncio.to_thread(self.ladder.running_games)
                   if g in self.ladder_games()]
        if not running:
            return False
        starved: set[str] = set()
        self._paced = None
        while len(self.live) < self.concurrency and len(starved) < len(running):
            wait = self._next_start - time.monotonic()
            if wait > 0:
                self._paced = wait
                break
            game = running[self._turn % len(running)]
            self._turn += 1
            if game in starved:
                continue
            pairing = await asyncio.to_thread(self._next_leg, game)
            if pairing is None:
                starved.add(game)
                continue
            assert pairing.id is not None
            self.live[pairing.id] = asyncio.get_running_loop().create_task(
                self._play(pairing), name=f"ladder:{game}:{pairing.id}")
            self._next_start = time.monotonic() + self.options.min_interval
        return bool(starved)

    def _next_leg(self, game: str) -> LadderPairing | None:
        """Blocking: claim the game's next queued leg, drawing a new round if none is."""
        for _ in range(2):
            for leg in self.ladder.queued(game):
                assert leg.id is not None
                if leg.id in self.live:
                    continue
                claimed = self.ladder.claim(leg.id)
                if claimed is not None:
                    return claimed
            if not self._draw_round(game):
                return None
        return None

    def _draw_round(self, game: str) -> bool:
        """Queue a new round: the neediest bot against its closest-rated opponent."""
        bots = [b for b in self.store.list_bots(game=game) if b.id is not None]
        if len(bots) < 2:
            return False
        ratings = self.ladder.ratings(game)

        def state(bot_id: int) -> tuple[int, float, float]:
            r = ratings.get(bot_id)
            return (0, self.ladder.mu, self.ladder.sigma) if r is None else \
                (r.games, r.mu, r.sigma)

        ids = [b.id for b in bots if b.id is not None]
        first = min(ids, key=lambda i: (state(i)[0], -state(i)[2], secrets.randbits(16)))
        mu = state(first)[1]
        second = min((i for i in ids if i != first),
                     key=lambda i: (abs(state(i)[1] - mu), state(i)[0], secrets.randbits(16)))
        self.ladder.add_round(game, first, second, secrets.randbits(62),
                              self.ladder.openings(game))
        return True

    async def _play(self, pairing: LadderPairing) -> None:
        assert pairing.id is not None
        try:
            await self._play_leg(pairing)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("ladder: leg %d failed", pairing.id)
        finally:
            self.live.pop(pairing.id, None)
            if not self._closing:
                self._wake.set()

    async def _play_leg(self, pairing: LadderPairing) -> None:
        assert pairing.id is not None
        if self.remote is not None and pairing.start is None:
            # The workers' jobs carry no positions: a leg from an opening is played here.
            await self._play_remote(pairing)
            return
        seats = [SeatRequest(bot=pairing.bot_a), SeatRequest(bot=pairing.bot_b)]
        try:
            start = await asyncio.to_thread(self._start_of, pairing)
            room, _seats = await self.service.create_match(
                pairing.game, seats, seed=pairing.seed if start is None else start.seed,
                clocks=self._clocks(), start=start)
        except MatchError as exc:
            # A bot was deleted or moved, the opening's match is gone (or its events).
            if exc.status == 404 or exc.status == 422:
                log.warning("ladder: leg %d dropped: %s", pairing.id, exc)
                await asyncio.to_thread(self.ladder.finish_pairing, pairing.id,
                                        PairingStatus.DROPPED)
            else:  # the lobby is full or closing: try again later
                await asyncio.to_thread(self.ladder.finish_pairing, pairing.id,
                                        PairingStatus.QUEUED)
                await asyncio.sleep(IDLE_POLL)
            return
        pairing.match_id = room.id
        await asyncio.to_thread(self.ladder.set_match, pairing.id, room.id)
        await self.service.wait_stored(room.id)
        if self._closing:
            return  # left playing: the next start settles it
        await asyncio.to_thread(self._settle, pairing)

    def _start_of(self, pairing: LadderPairing) -> Start | None:
        """Blocking: the position the leg starts from (None: the game's start), the same
        for both legs of its round (`positions.from_opening`)."""
        if not pairing.start:
            return None
        return positions.from_opening(self.store, self.games.get(pairing.game),
                                      pairing.start, pairing.seed)

    def _clocks(self) -> Clocks | None:
        """The legs' clocks: the ladder's (None: the server's), paced if it says so."""
        clocks, pace = self.options.clocks, self.options.min_move_time
        if not pace:
            return clocks
        return dataclasses.replace(clocks or self.service.lobby.clocks, min_move_time=pace)

    async def _follow(self, pairing: LadderPairing) -> None:
        """A leg a previous run dispatched, still on the workers: wait for it, settle it."""
        assert pairing.id is not None and pairing.match_id is not None
        try:
            await self.remote.wait(pairing.match_id)
            if not self._closing:
                await asyncio.to_thread(self._settle, pairing)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("ladder: leg %d failed", pairing.id)
        finally:
            self.live.pop(pairing.id, None)
            if not self._closing:
                self._wake.set()

    async def _play_remote(self, pairing: LadderPairing) -> None:
        """The leg's match queued for a worker (with backpressure), followed in the store."""
        assert pairing.id is not None
        found = await asyncio.to_thread(
            lambda: [self.store.get_bot(pairing.bot_a), self.store.get_bot(pairing.bot_b)])
        bots = [(b.id, b.name) for b in found if b is not None and b.id is not None]
        if len(bots) != 2:
            log.warning("ladder: leg %d dropped: a bot was deleted", pairing.id)
            await asyncio.to_thread(self.ladder.finish_pairing, pairing.id,
                                    PairingStatus.DROPPED)
            return
        match_id = await self.remote.submit(pairing.game, bots, seed=pairing.seed,
                                            clocks=self._clocks())
        pairing.match_id = match_id
        await asyncio.to_thread(self.ladder.set_match, pairing.id, match_id)
        await self.remote.wait(match_id)
        if self._closing:
            return  # left playing: the next start settles it
        await asyncio.to_thread(self._settle, pairing)

    # --- status -------------------------------------------------------------------------

    def status(self, game: str) -> dict[str, Any]:
        """Blocking: the game's flag, queue and throughput (for the API)."""
        counts = self.ladder.counts(game)
        return {"game": game, "running": self.ladder.is_running(game),
                "concurrency": self.concurrency,
                "live": self.live_games().get(game, 0),
                "queued": counts.get(PairingStatus.QUEUED.value, 0),
                "rated": self.ladder.rated_matches(game),
                "openings": self.ladder.openings(game),
                "games_per_minute": round(self.ladder.games_per_minute(game), 2)}
