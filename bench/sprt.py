"""The SPRT against simulated bots of known strength, and its cost per pair.

    python -m bench sprt                         # 2,000 runs per hypothesis
    GAUNTLET_BENCH_SPRT_RUNS=500 python -m bench sprt

A "bot pair" is a biased coin per pair: each game of a pair is an independent BayesElo
trinomial (draw Elo 200) with the candidate's advantage chosen so that the pentanomial has
exactly the normalized Elo wanted (0 for H0, elo1 for H1). Reported: the false-positive and
false-negative rates against α and β, the mean pairs against Wald's approximation, and the
cost of one `SequentialTest` update against recomputing the LLR from scratch and against
counting one pair (all in this process, so that the machine's speed cancels).
tests/stats/test_stats_simulation.py runs a small version of the same simulation.
"""

from __future__ import annotations

import math
import os
import random
import time
from bisect import bisect
from dataclasses import dataclass
from itertools import accumulate

from stats import NELO_PER_T, SequentialTest, State, llr, pentanomial
from stats.sprt import bayeselo_probabilities

DRAW_ELO = 200.0


def pair_distribution(belo: float, draw_elo: float = DRAW_ELO) -> list[float]:
    """The pentanomial probabilities of two independent games of this BayesElo edge."""
    game = bayeselo_probabilities(belo, draw_elo)  # [L, D, W]
    pair = [0.0] * 5
    for i, p in enumerate(game):
        for j, q in enumerate(game):
            pair[i + j] += p * q
    return pair


def normalized_elo(pair: list[float]) -> float:
    """The exact normalized Elo of a pentanomial distribution: (μ − ½)/(√2·σ_pair)."""
    mu = sum(p * i / 4 for i, p in enumerate(pair))
    var = sum(p * (i / 4 - mu) ** 2 for i, p in enumerate(pair))
    return (mu - 0.5) / math.sqrt(2 * var) * NELO_PER_T


def distribution_of(nelo: float) -> list[float]:
    """The pair distribution whose normalized Elo is `nelo` (bisection on the edge)."""
    lo, hi = -800.0, 800.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if normalized_elo(pair_distribution(mid)) < nelo:
            lo = mid
        else:
            hi = mid
    return pair_distribution((lo + hi) / 2)


@dataclass
class Outcome:
    h1: int = 0
    h0: int = 0
    inconclusive: int = 0
    pairs: int = 0

    @property
    def runs(self) -> int:
        return self.h1 + self.h0 + self.inconclusive


def simulate(true_nelo: float, elo0: float, elo1: float, runs: int, seed: int,
             batch: int = 4, max_games: int = 200_000) -> Outcome:
    """`runs` normalized pentanomial SPRTs of bots `true_nelo` apart, updated every `batch`
    pairs (fishtest updates per batch too)."""
    rng = random.Random(seed)
    cumulative = list(accumulate(distribution_of(true_nelo)))
    outcome = Outcome()
    for _ in range(runs):
        test = SequentialTest(elo0, elo1, max_games=max_games)
        while test.state is State.RUNNING:
            counts = [0] * 5
            for _ in range(batch):
                counts[min(bisect(cumulative, rng.random()), 4)] += 1
            test.add_counts(counts)
        outcome.pairs += test.pairs
        if test.state is State.H1:
            outcome.h1 += 1
        elif test.state is State.H0:
            outcome.h0 += 1
        else:
            outcome.inconclusive += 1
    return outcome


def wald_pairs(true_is_h1: bool, elo0: float, elo1: float, alpha: float = 0.05,
               beta: float = 0.05) -> float:
    """Wald's expected sample size, pairs: the LLR's drift per pair at either hypothesis is
    ±(t1 − t0)²/2 with t the pair's t-value (√2 · nElo/(800/ln 10)), overshoot ignored."""
    a, b = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    drift = ((elo1 - elo0) / NELO_PER_T * math.sqrt(2)) ** 2 / 2
    if true_is_h1:
        return ((1 - beta) * b + beta * a) / drift
    return ((1 - alpha) * a + alpha * b) / -drift


def _per_call(fn: object, n: int) -> float:
    assert callable(fn)
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def cost() -> list[tuple[str, float]]:
    """Seconds per call: an incremental update, a cold LLR, counting one pair."""
    rng = random.Random(7)
    cumulative = list(accumulate(distribution_of(2.0)))
    test = SequentialTest(0, 2, max_games=10 ** 9)
    buckets = [min(bisect(cumulative, rng.random()), 4) for _ in range(4000)]
    for index in buckets[:1000]:
        test.add_bucket(index)
    it = iter(buckets[1000:])
    update = _per_call(lambda: test.add_bucket(next(it)), 3000)
    counts = list(test.counts)
    scratch = _per_call(lambda: llr(counts, 0, 2), 300)
    pair = [("W", "D")]
    count = _per_call(lambda: pentanomial(pair), 20000)
    return [("SequentialTest.add_bucket (warm)", update), ("llr() from scratch", scratch),
            ("pentanomial() of one pair", count)]


def main() -> None:
    runs = int(os.environ.get("GAUNTLET_BENCH_SPRT_RUNS", "2000"))
    elo0, elo1 = 0.0, 10.0
    print(f"normalized pentanomial SPRT [{elo0:.0f}, {elo1:.0f}], alpha = beta = 0.05, "
          f"{runs} runs per hypothesis, batches of 4 pairs")
    print(f"{'true nElo':>10} {'H1 rate':>8} {'H0 rate':>8} {'mean pairs':>11} "
          f"{'Wald':>8} {'ratio':>6}")
    started = time.perf_counter()
    for true, is_h1 in ((elo0, False), (elo1, True)):
        o = simulate(true, elo0, elo1, runs, seed=1 if is_h1 else 2)
        mean = o.pairs / o.runs
        wald = wald_pairs(is_h1, elo0, elo1)
        print(f"{true:>10.1f} {o.h1 / o.runs:>8.3f} {o.h0 / o.runs:>8.3f} {mean:>11.0f} "
              f"{wald:>8.0f} {mean / wald:>6.2f}")
    print(f"({time.perf_counter() - started:.0f} s)\n")
    figures = cost()
    base = figures[0][1]
    print(f"{'operation':<34} {'us/call':>9} {'x update':>9}")
    for name, seconds in figures:
        print(f"{name:<34} {seconds * 1e6:>9.1f} {seconds / base:>9.2f}")


if __name__ == "__main__":
    main()
