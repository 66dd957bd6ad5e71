"""The batch Bradley–Terry fit (stats/batch.py): frozen simulated bots of known strength are
recovered inside their intervals, the intervals cover at the rate they claim, the order of
the games does not matter, and extreme or disconnected records stay finite.

The simulated game: bots of true Elo 0, 50, 100 and 200 play random pairs; a game between
expected score s (logistic Elo) is drawn with probability `DRAW·4·s·(1 − s)` and otherwise
won so that the expected score is exactly s. The true Elo gaps are then exactly the
parameters that the fit estimates (a draw is half a win each in both).
"""

from __future__ import annotations

import doctest
import importlib
import math
import random

import numpy as np
import pytest
from scipy.optimize import minimize

from stats import batch_fit, batch_ratings
from stats.batch import ELO_PER_UNIT, BatchFit

TRUE = {"a": 0.0, "b": 50.0, "c": 100.0, "d": 200.0}
DRAW = 0.3  # the draw rate between equals: 30 %
# The gaps the tests check: every bot to the strongest and to the weakest.
GAPS = [("d", "a"), ("d", "b"), ("d", "c"), ("b", "a"), ("c", "a")]


def expected(x: float, y: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((y - x) / 400.0))


def play(rng: random.Random, games: int, draw: float = DRAW) -> list[tuple[str, str, float]]:
    """`games` games between random pairs of the frozen bots."""
    names = sorted(TRUE)
    played = []
    for _ in range(games):
        a, b = rng.sample(names, 2)
        s = expected(TRUE[a], TRUE[b])
        d = draw * 4 * s * (1 - s)
        u = rng.random()
        played.append((a, b, 1.0 if u < s - d / 2 else 0.5 if u < s + d / 2 else 0.0))
    return played


def covered(fit: BatchFit[str]) -> list[bool]:
    """For each checked gap: does the interval of the fitted difference hold the true gap?"""
    return [fit.difference(x, y).low <= TRUE[x] - TRUE[y] <= fit.difference(x, y).high
            for x, y in GAPS]


def test_frozen_bots_are_recovered_in_order_and_inside_their_intervals() -> None:
    # The first seed tried. Measured once over 2,000 seeds of 2,000 games: the order is
    # recovered in 100 % of them, all five gaps lie in their intervals in 92.7 % (each gap
    # 98.2 %; above 95 % because draws vary less than the binomial model assumes, see
    # the coverage tests below), and each bot's centred true Elo lies in its own interval
    # in 98.2 %. So this seed is no lucky pick; the rates are tested below.
    fit = batch_fit(play(random.Random(2026), 2000))
    assert [r.name for r in fit.ratings] == ["d", "c", "b", "a"]
    assert sum(r.games for r in fit.ratings) == 2 * 2000
    assert all(covered(fit)), [(x, y, fit.difference(x, y)) for x, y in GAPS]
    mean = sum(TRUE.values()) / len(TRUE)
    for line in fit.ratings:
        assert line.low <= TRUE[line.name] - mean <= line.high, line
        assert 10 < line.error < 40, line  # ~500 games each: some 20-30 Elo
    assert sum(r.elo for r in fit.ratings) == pytest.approx(0.0, abs=1e-9)


def interval_coverage(seeds: range, games: int, draw: float) -> float:
    hits = [h for seed in seeds for h in covered(batch_fit(play(random.Random(seed), games,
                                                                draw)))]
    return sum(hits) / len(hits)


def test_the_intervals_cover_95_percent_without_draws() -> None:
    # Measured once over 2,000 seeds of 1,000 games: 95.01 % of 10,000 intervals. Here
    # 400 seeds (2,000 intervals, σ ≈ 0.5 % if independent; the five gaps of one seed are
    # correlated, so the band is about four of those σ wide each side): 95.6 %.
    coverage = interval_coverage(range(10_000, 10_400), 1000, draw=0.0)
    assert 0.93 <= coverage <= 0.97, coverage


def test_the_intervals_are_conservative_with_draws() -> None:
    # A draw scores ½ with no variance, the binomial information assumes p(1 − p): with
    # draws the intervals are wider than they need be. Measured once: 98.3 % over 2,000
    # seeds of 1,000 games (98.2 % of 2,000 games); these 200 seeds: 98.4 %.
    coverage = interval_coverage(range(20_000, 20_200), 1000, draw=DRAW)
    assert 0.95 <= coverage <= 0.995, coverage


def test_the_order_of_the_games_does_not_matter() -> None:
    games = play(random.Random(7), 1500)
    fit = batch_fit(games)
    for seed in range(5):
        shuffled = games[:]
        random.Random(seed).shuffle(shuffled)
        # Swapping the seats of a game (b, a, 1 − s) is the same game too.
        flipped = [(b, a, 1.0 - s) if i % 2 else (a, b, s)
                   for i, (a, b, s) in enumerate(shuffled)]
        for again in (batch_fit(shuffled), batch_fit(flipped)):
            assert [r.name for r in again.ratings] == [r.name for r in fit.ratings]
            for mine, theirs in zip(again.ratings, fit.ratings, strict=True):
                for field in ("elo", "low", "high", "score"):
                    assert getattr(mine, field) == pytest.approx(getattr(theirs, field),
                                                                 abs=1e-9)
                assert mine.games == theirs.games
            assert again == fit  # in fact bit for bit: the points are sums of halves


def test_the_fit_is_the_maximum_of_the_likelihood_and_its_curvature() -> None:
    """Against a general optimiser on the same log-likelihood (virtual draws included), and
    the covariance against inverting the information with bot `a` held at 0."""
    games = play(random.Random(3), 400)
    prior = 1.0
    fit = batch_fit(games, prior=prior)
    names = sorted(TRUE)
    n = len(names)
    wins = np.full((n, n), prior / 2)
    np.fill_diagonal(wins, 0.0)
    for a, b, s in games:
        wins[names.index(a), names.index(b)] += s
        wins[names.index(b), names.index(a)] += 1 - s

    def minus_log_likelihood(free: np.ndarray) -> float:
        theta = np.concatenate([[0.0], free])
        diff = theta[:, None] - theta[None, :]
        return float(np.sum(wins * np.logaddexp(0.0, -diff)))

    best = minimize(minus_log_likelihood, np.zeros(n - 1), method="BFGS",
                    options={"gtol": 1e-10})
    theta = np.concatenate([[0.0], best.x])
    theta -= theta.mean()
    for name, value in zip(names, theta * ELO_PER_UNIT, strict=True):
        assert fit.rating(name).elo == pytest.approx(value, abs=1e-3)

    # With θ_a = 0 fixed, the inverse of the reduced information is the covariance of
    # the differences to a: the same as the pseudo-inverse's.
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    weight = (wins + wins.T) * p * (1 - p)
    np.fill_diagonal(weight, 0.0)
    information = np.diag(weight.sum(axis=1)) - weight
    reduced = np.linalg.inv(information[1:, 1:]) * ELO_PER_UNIT**2
    for k, name in enumerate(names[1:]):
        d = fit.difference(name, "a")
        assert (d.high - d.low) / 2 == pytest.approx(1.959963984540054
                                                     * math.sqrt(reduced[k, k]), rel=1e-6)


def test_a_perfect_record_stays_finite() -> None:
    games = [("ace", "b", 1.0)] * 30 + [("b", "ace", 0.0)] * 30 + [("b", "c", 0.5)] * 10
    fit = batch_fit(games)
    ace, b, c = (fit.rating(x) for x in ("ace", "b", "c"))
    assert fit.ratings[0] is ace and ace.score == 60 and ace.games == 60
    for line in fit.ratings:
        assert all(math.isfinite(v) for v in (line.elo, line.low, line.high)), line
    # Far above b, but below what 60 wins to the half loss of b's one virtual draw with
    # ace would give alone (ace's virtual draw with c pulls it down too).
    gap = fit.difference("ace", "b")
    assert 400 < gap.elo < math.log(60.5 / 0.5) * ELO_PER_UNIT and gap.low > 0, gap
    assert b.elo == pytest.approx(c.elo, abs=60)
    # A perfect loss too: the mirror image.
    mirror = batch_fit([(x, y, 1.0 - s) for x, y, s in games])
    assert mirror.rating("ace").elo == pytest.approx(-ace.elo, abs=1e-9)


def test_disconnected_bots_get_wide_intervals_not_an_error() -> None:
    """Two pairs that never met each other: tied together by the virtual draws alone."""
    rng = random.Random(5)
    games = [("p", "q", 1.0 if rng.random() < 0.75 else 0.0) for _ in range(200)] + \
        [("x", "y", 1.0 if rng.random() < 0.6 else 0.0) for _ in range(200)]
    fit = batch_fit(games)
    assert {r.name for r in fit.ratings} == {"p", "q", "x", "y"}
    for line in fit.ratings:
        assert all(math.isfinite(v) for v in (line.elo, line.low, line.high)), line
    within = fit.difference("p", "q")
    across = fit.difference("p", "x")
    assert within.low > 0  # p beat q 3 to 1: that much is known
    assert (across.high - across.low) > 3 * (within.high - within.low)
    # The two groups' means sit together (the prior), within their wide interval.
    assert fit.rating("p").elo + fit.rating("q").elo == pytest.approx(
        fit.rating("x").elo + fit.rating("y").elo, abs=1e-6)


def test_small_and_bad_inputs() -> None:
    assert batch_fit([]).ratings == ()
    assert batch_ratings([]) == []
    [one, two] = batch_ratings([(1, 2, 0.5)])
    assert one.elo == two.elo == 0.0 and one.games == two.games == 1
    with pytest.raises(ValueError, match="itself"):
        batch_fit([("a", "a", 1.0)])
    with pytest.raises(ValueError, match="score"):
        batch_fit([("a", "b", 0.7)])
    with pytest.raises(ValueError, match="prior"):
        batch_fit([("a", "b", 1.0)], prior=0.0)
    with pytest.raises(KeyError):
        batch_fit([("a", "b", 1.0)]).rating("c")


@pytest.mark.parametrize("name", ["stats.batch", "stats"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
