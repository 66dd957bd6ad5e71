"""The vectors of issue #26, the worked example, and fishtest's own figures.

The fishtest figures (stopped-test estimates) were computed by running fishtest's
server/fishtest/stats (scipy) on the same counts; they are values to match, not code.
"""

from __future__ import annotations

import math

import pytest

from stats import SequentialTest, State, estimate, llr, pentanomial, wdl_of_pairs
from stats.numeric import find_root, phi, phi_inv
from stats.pairs import pair_index
from stats.stopped import stopped_estimate


def close(value: float, expected: float) -> bool:
    """1 %, or 0.01 absolute near zero, as the issue (and fastchess's tests) allow."""
    return abs(value - expected) <= max(0.01 * abs(expected), 0.01)


# (model, counts low to high, elo0, elo1, LLR)
VECTORS = [
    ("normalized", [36027, 68692, 36433], 0, 2, 0.92),
    ("logistic", [21184, 40708, 21404], 0.5, 2.5, -1.57),
    ("normalized", [365, 16618, 36029 + 200, 16974, 390], 0, 2, 2.25),
    ("normalized", [0, 0, 0, 0, 5550], 0, 5, 111.82),
    ("logistic", [223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
    ("normalized", [10, 60, 120, 80, 30], 0, 2, 0.4832),
    ("bayeselo", [4063, 8620, 4307], 0, 3, 2.47),
    ("normalized", [4063, 8620, 4307], 0, 3, 2.37),
]


@pytest.mark.parametrize(("model", "counts", "elo0", "elo1", "expected"), VECTORS)
def test_vector(model: str, counts: list[int], elo0: float, elo1: float,
                expected: float) -> None:
    value = llr(counts, elo0, elo1, model)  # type: ignore[arg-type]
    assert close(value, expected), value


@pytest.mark.parametrize(("model", "counts", "elo0", "elo1", "expected"), VECTORS)
def test_sequential_test_agrees_with_the_batch_llr(model: str, counts: list[int],
                                                   elo0: float, elo1: float,
                                                   expected: float) -> None:
    # Fed in 20 batches: the warm-started root finding must land where a cold one does.
    test = SequentialTest(elo0, elo1, model=model,  # type: ignore[arg-type]
                          pentanomial=len(counts) == 5)
    for k in range(20):
        test.add_counts([c * (k + 1) // 20 - c * k // 20 for c in counts])
    assert test.counts == counts
    assert abs(test.llr - llr(counts, elo0, elo1, model)) < 1e-6  # type: ignore[arg-type]


def test_worked_example() -> None:
    e = estimate([10, 60, 120, 80, 30])
    assert e.score == pytest.approx(0.55)
    assert e.sigma_pair == pytest.approx(0.2449, abs=1e-4)
    assert e.nelo == pytest.approx(50.15, abs=0.01)
    assert e.elo == pytest.approx(34.86, abs=0.01)
    assert e.games == 600
    # fishtest's get_elo: 34.86 ± 19.476, LOS 0.99980
    assert (e.elo_ci[1] - e.elo_ci[0]) / 2 == pytest.approx(19.476, abs=1e-3)
    assert e.los == pytest.approx(0.999797, abs=1e-6)
    # nElo ± 1.96·(800/ln 10)/√600
    assert (e.nelo_ci[1] - e.nelo_ci[0]) / 2 == pytest.approx(27.80, abs=0.01)


def test_bounds_and_progress() -> None:
    test = SequentialTest(0, 2)
    assert test.lower == pytest.approx(-2.944, abs=1e-3)
    assert test.upper == pytest.approx(2.944, abs=1e-3)
    test.add_counts([365, 16618, 36229, 16974, 390])
    assert test.progress == pytest.approx(76.4, abs=0.1)
    assert test.state is State.RUNNING


def test_decisions_are_sticky_and_max_games_is_inconclusive() -> None:
    test = SequentialTest(0, 5)
    assert test.add_counts([0, 0, 0, 0, 200]) is State.H1
    decided = test.decided_at
    test.add_counts([200, 0, 0, 0, 0])  # games in flight at the stop
    assert test.state is State.H1 and test.decided_at == decided
    test = SequentialTest(0, 5)
    assert test.add_counts([200, 0, 0, 0, 0]) is State.H0
    test = SequentialTest(0, 5, max_games=10)
    states = [test.add_pair("W", "L") for _ in range(5)]
    assert states == [State.RUNNING] * 4 + [State.INCONCLUSIVE]
    assert test.games == 10 and test.pairs == 5


def test_trinomial_test_counts_games() -> None:
    test = SequentialTest(0, 5, pentanomial=False)
    for result in "WDLW":
        test.add_game(result)
    assert test.counts == [1, 1, 2] and test.games == 4 and test.pairs == 0
    with pytest.raises(ValueError):
        test.add_game("X")
    with pytest.raises(ValueError):
        SequentialTest(0, 5).add_game("W")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        SequentialTest(5, 0)
    with pytest.raises(ValueError):
        SequentialTest(0, 5, alpha=0.6, beta=0.6)
    with pytest.raises(ValueError):
        SequentialTest(0, 5, model="bayeselo")
    with pytest.raises(ValueError):
        llr([1, 2, 3, 4, 5], 0, 5, "bayeselo")
    with pytest.raises(ValueError):
        llr([1, 2], 0, 5)
    with pytest.raises(ValueError):
        llr([0, 0, 0], 0, 5)


def test_pentanomial_counting() -> None:
    every = [(a, b) for a in "WDL" for b in "WDL"]
    assert pentanomial(every) == [1, 2, 3, 2, 1]
    assert [pair_index(a, b) for a, b in [("L", "L"), ("L", "D"), ("D", "L"), ("W", "L"),
                                          ("L", "W"), ("D", "D"), ("W", "D"), ("W", "W")]] \
        == [0, 1, 1, 2, 2, 2, 3, 4]
    assert wdl_of_pairs(every) == (6, 6, 6)


# fishtest's SPRT_elo on the same counts: (model, counts, elo0, elo1, elo, ci, LOS)
STOPPED = [
    ("normalized", [365, 16618, 36229, 16974, 390], 0, 2, 0.93215, (-0.05144, 1.87815),
     0.96867),
    ("logistic", [223, 9863, 21279, 10037, 246], 0.5, 2.5, 1.22349, (-0.13630, 2.72215),
     0.96121),
    ("bayeselo", [4063, 8620, 4307], 0, 3, 4.93947, (1.24694, 8.62009), 0.99558),
    ("logistic", [21184, 40708, 21404], 0.5, 2.5, 0.98455, (-0.73163, 2.75338), 0.86909),
    ("normalized", [10, 60, 120, 80, 30], 0, 2, 34.86007, (15.49333, 54.44539), 0.99980),
]


@pytest.mark.parametrize(("model", "counts", "elo0", "elo1", "elo", "ci", "los"), STOPPED)
def test_stopped_estimate_matches_fishtest(model: str, counts: list[int], elo0: float,
                                           elo1: float, elo: float,
                                           ci: tuple[float, float], los: float) -> None:
    e = stopped_estimate(counts, elo0, elo1, model=model)  # type: ignore[arg-type]
    assert e.elo == pytest.approx(elo, abs=1e-3)
    assert e.ci == pytest.approx(ci, abs=1e-3)
    assert e.los == pytest.approx(los, abs=1e-4)


def test_stopped_estimate_is_pulled_back_from_the_naive_one() -> None:
    # A test that passed on a lucky run: the naive Elo is above the median-unbiased one.
    counts = [10, 40, 80, 60, 20]
    test = SequentialTest(0, 30)
    test.add_counts(counts)
    assert test.state is State.H1
    naive = estimate(counts).elo
    unbiased = stopped_estimate(counts, 0, 30)
    assert unbiased.ci[0] < unbiased.elo < unbiased.ci[1]
    assert unbiased.elo < naive - 2


def test_numeric_helpers() -> None:
    for p in (1e-10, 0.001, 0.02, 0.3, 0.5, 0.9, 0.99, 1 - 1e-9):
        assert phi(phi_inv(p)) == pytest.approx(p, rel=1e-9)
    assert phi_inv(0.975) == pytest.approx(1.959963984540054, abs=1e-12)
    assert find_root(math.cos, 0, 3) == pytest.approx(math.pi / 2, abs=1e-11)
    with pytest.raises(ValueError):
        phi_inv(1.0)
