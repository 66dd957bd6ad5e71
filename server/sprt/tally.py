"""A test's figures, computed from its counted pairs in the order they were counted.

Nothing of the figures is stored: the pairs are (`server.store.sprt`), and a `Tally` adds
them one at a time to a `stats.SequentialTest`, so that the decision a runner takes, the
figures the API shows after a restart and the LLR curve of the viewer's chart are one and
the same computation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from server.store.models import SprtPair, SprtStatus, SprtTest
from stats import SequentialTest, State, estimate, stopped_estimate
from stats.sprt import Model

__all__ = ["CHART_POINTS", "Tally"]

CHART_POINTS = 400
"""At most this many (games, LLR) points in a report's `history` (evenly thinned)."""

STATUS_OF_STATE = {State.H1: SprtStatus.H1, State.H0: SprtStatus.H0,
                   State.INCONCLUSIVE: SprtStatus.INCONCLUSIVE}


@dataclass(frozen=True)
class Point:
    games: int
    llr: float


class Tally:
    """The sequential test of one stored test, fed its counted pairs in position order.

    >>> from server.store.models import SprtPair, SprtTest
    >>> row = SprtTest(id=1, game="g", name_a="a", name_b="b", elo0=0, elo1=5, alpha=0.05,
    ...                beta=0.05, max_games=100, seed=1)
    >>> tally = Tally(row)
    >>> tally.add([SprtPair(test_id=1, pair=0, seed=1, result_0="W", result_1="D",
    ...                     position=0)])
    >>> tally.test.counts, tally.position
    ([0, 0, 0, 1, 0], 0)
    """

    def __init__(self, row: SprtTest) -> None:
        model: Model = "logistic" if row.model == "logistic" else "normalized"
        self.row = row
        self.test = SequentialTest(row.elo0, row.elo1, row.alpha, row.beta, model=model,
                                   max_games=row.max_games)
        self.position = -1
        self.history: list[Point] = [Point(0, 0.0)]
        self.wdl = [0, 0, 0]

    @property
    def state(self) -> State:
        return self.test.state

    @property
    def decided(self) -> SprtStatus | None:
        """The status the test's figures call for (None: it goes on)."""
        return STATUS_OF_STATE.get(self.test.state)

    def add(self, pairs: Iterable[SprtPair]) -> None:
        """Count pairs after the last one counted; one seen before is skipped, a gap (a
        position missing) is an error: the figures would depend on what was not read."""
        for pair in pairs:
            if pair.position is None or pair.position <= self.position:
                continue
            if pair.position != self.position + 1:
                raise ValueError(f"test {self.row.id}: pair position {pair.position} "
                                 f"after {self.position}")
            if pair.result_0 is None or pair.result_1 is None:
                raise ValueError(f"test {self.row.id}: pair {pair.pair} counted without "
                                 "both results")
            self.test.add_pair(pair.result_0, pair.result_1)
            for result in (pair.result_0, pair.result_1):
                self.wdl["WDL".index(result)] += 1
            self.position = pair.position
            self.history.append(Point(self.test.games, self.test.llr))

    def chart(self, points: int = CHART_POINTS) -> list[list[float]]:
        """(games, LLR) after each pair, thinned evenly to at most `points` (the first and
        the last always kept)."""
        history = self.history
        if len(history) > points:
            step = (len(history) - 1) / (points - 1)
            history = [history[round(i * step)] for i in range(points)]
        return [[p.games, round(p.llr, 4)] for p in history]

    def figures(self) -> dict[str, Any]:
        """The live figures: LLR, its bounds and progress, the counts, Elo and normalized
        Elo with 95 % intervals, LOS, and once decided the median-unbiased Elo."""
        test = self.test
        wins, draws, losses = self.wdl
        found: dict[str, Any] = {
            "llr": test.llr, "lower": test.lower, "upper": test.upper,
            "progress": test.progress, "pairs": test.pairs, "games": test.games,
            "pentanomial": list(test.counts), "wins": wins, "draws": draws, "losses": losses,
            "decided_at": test.decided_at, "elo": None, "elo_ci": None, "nelo": None,
            "nelo_ci": None, "los": None, "stopped_elo": None, "stopped_elo_ci": None}
        if test.pairs:
            figures = estimate(test.counts)
            found.update(elo=figures.elo, elo_ci=list(figures.elo_ci), nelo=figures.nelo,
                         nelo_ci=list(figures.nelo_ci), los=figures.los)
        if test.state in (State.H0, State.H1) and test.pairs:
            stopped = stopped_estimate(test.counts, test.elo0, test.elo1, test.alpha,
                                       test.beta, test.model)
            found.update(stopped_elo=stopped.elo, stopped_elo_ci=list(stopped.ci))
        return found
