"""Batch ratings: one Bradley–Terry maximum-likelihood fit over every game at once.

An online rating (openskill, Elo updates) depends on the order of the games: the same games
in another order give other ratings. This fit does not: it sees the games only through how
many points each bot scored against each other (a sum), so any order gives the same figures.

The model: bot i has a strength θᵢ, and its expected score against bot j is
`1 / (1 + exp(θⱼ − θᵢ))`. A game is `(a, b, score_a)` with `score_a` 1 (a won), ½ (a draw:
half a win each) or 0 (b won). The fit maximises the log-likelihood
`Σ wᵢⱼ·ln pᵢⱼ` over every ordered pair, `wᵢⱼ` the points i scored against j, with choix's
iterative Luce spectral ranking (`choix.ilsr_pairwise_dense`) on the matrix of points.

Regularisation: `prior` virtual draws (default 1) are added between every two bots, as
BayesElo adds virtual draws. Without them a bot that won (or lost) every game would have an
infinite rating, and bots that never played the others' component would have none at all.
One virtual draw per pair moves a rating by little once the real games are many (it is one
game more at a score of ½), and it is part of the likelihood the intervals are taken from.

Ratings are logistic Elo, `400/ln 10` (173.7) Elo per unit of θ, centred on a mean of 0
over the bots that have games. The 95 % intervals are `elo ± 1.96·se`, se from the inverse
of the Hessian (the observed Fisher information) of that log-likelihood under the
constraint `Σ θᵢ = 0`: the Moore–Penrose pseudo-inverse, since the Hessian is singular
along "every θ one higher". A bot's interval is thus its position relative to the mean of
all bots; `BatchFit.difference` gives the interval of the difference of two bots, which is
the figure to compare two bots by (the two per-bot intervals are correlated).

The binomial model takes each game's score variance as p(1 − p); a draw varies less than
that, so with many draws the intervals are on the wide side (conservative).

Disconnected bots: two bots that only ever played each other (or any group that never met
the rest) are tied to the others by the virtual draws alone. They get a finite rating near
the mean of the others' and an interval as wide as that little information warrants (a few
hundred Elo), never an error. Within their group the differences are as precise as their
games make them.

>>> games = [("alpha", "beta", 1.0)] * 6 + [("alpha", "beta", 0.5)] * 2 \\
...     + [("beta", "gamma", 1.0)] * 5 + [("gamma", "alpha", 0.0)] * 4
>>> fit = batch_fit(games)
>>> [(r.name, round(r.elo), r.games, r.score) for r in fit.ratings]
[('alpha', 267, 12, 11.0), ('beta', 28, 13, 6.0), ('gamma', -295, 9, 0.0)]
>>> a = fit.rating("alpha")
>>> round(a.low), round(a.high)
(66, 469)
>>> d = fit.difference("alpha", "gamma")
>>> round(d.elo), round(d.low), round(d.high)
(562, 141, 983)
>>> batch_fit(reversed(games)) == fit
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

ELO_PER_UNIT = 400.0 / math.log(10.0)
"""Logistic Elo per unit of the Bradley–Terry strength θ (≈ 173.72)."""

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""

PRIOR = 1.0
"""Virtual draws added between every two bots (see the module docstring)."""

SCORES = (0.0, 0.5, 1.0)

Bot = TypeVar("Bot", str, int)
"""A bot's name or id: sortable, so that the bots are numbered independently of the games."""


@dataclass(frozen=True)
class BatchRating(Generic[Bot]):
    """One bot's batch rating: Elo (mean 0 over all bots) and its 95 % interval."""

    name: Bot
    elo: float
    low: float
    high: float
    games: int
    """Real games in the fit (virtual draws not counted)."""
    score: float
    """Points scored in them: win 1, draw ½."""

    @property
    def error(self) -> float:
        """Half the width of the interval: 1.96 standard errors."""
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class Difference:
    """Elo of one bot over another, with the 95 % interval of that difference."""

    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class BatchFit(Generic[Bot]):
    """The fit: ratings best first, and the covariance for differences of two bots."""

    ratings: tuple[BatchRating[Bot], ...]
    names: tuple[Bot, ...]
    """The bots in sorted order: the rows and columns of `covariance`."""
    covariance: tuple[tuple[float, ...], ...]
    """Covariance of the Elo ratings (Elo², sum-to-zero constraint)."""
    prior: float

    def rating(self, name: Bot) -> BatchRating[Bot]:
        """The bot's rating; `KeyError` for a bot that has no games in the fit."""
        for line in self.ratings:
            if line.name == name:
                return line
        raise KeyError(name)

    def difference(self, a: Bot, b: Bot) -> Difference:
        """Elo of a over b and its 95 % interval (the correlation of the two counted);
        `KeyError` for a bot that has no games in the fit."""
        elo = self.rating(a).elo - self.rating(b).elo
        i, j = self.names.index(a), self.names.index(b)
        c = self.covariance
        se = math.sqrt(max(c[i][i] + c[j][j] - 2 * c[i][j], 0.0))
        return Difference(elo, elo - Z95 * se, elo + Z95 * se)


def batch_fit(games: Iterable[tuple[Bot, Bot, float]], *, prior: float = PRIOR) -> BatchFit[Bot]:
    """Fit every game at once; see the module docstring for the model and the intervals.

    `games`: `(a, b, score_a)`, score 1, ½ or 0. The order of the games does not matter:
    the same games in any order give the same figures, bit for bit (the points are sums of
    halves, exact in floating point, and the bots are numbered in sorted order). A bot
    against itself or another score is a `ValueError`, so is a `prior` that is not > 0.
    No games: an empty fit.
    """
    if not prior > 0 or not math.isfinite(prior):
        raise ValueError(f"prior must be a positive number of virtual draws, not {prior!r}")
    played = list(games)
    for a, b, score in played:
        if a == b:
            raise ValueError(f"a game of {a!r} against itself")
        if score not in SCORES:
            raise ValueError(f"a score is 1, 0.5 or 0, not {score!r}")
    names: tuple[Bot, ...] = tuple(sorted({a for a, _, _ in played} | {b for _, b, _ in played}))
    n = len(names)
    if n == 0:
        return BatchFit((), (), (), prior)
    index = {name: i for i, name in enumerate(names)}
    points = np.zeros((n, n))  # points[i, j]: what i scored against j
    for a, b, score in played:
        i, j = index[a], index[b]
        points[i, j] += score
        points[j, i] += 1.0 - score
    theta, covariance = _fit(points, prior)
    counts = points + points.T  # games between i and j
    elo = theta * ELO_PER_UNIT
    cov_elo = covariance * ELO_PER_UNIT**2
    lines = []
    for i, name in enumerate(names):
        se = math.sqrt(max(float(cov_elo[i, i]), 0.0))
        lines.append(BatchRating(name, float(elo[i]), float(elo[i]) - Z95 * se,
                                 float(elo[i]) + Z95 * se, round(float(counts[i].sum())),
                                 float(points[i].sum())))
    lines.sort(key=lambda r: (-r.elo, r.name))
    return BatchFit(tuple(lines), names,
                    tuple(tuple(float(x) for x in row) for row in cov_elo), prior)


def batch_ratings(games: Iterable[tuple[Bot, Bot, float]], *,
                  prior: float = PRIOR) -> list[BatchRating[Bot]]:
    """`batch_fit(games).ratings` as a list: best first.

    >>> [(r.name, round(r.elo)) for r in batch_ratings([(1, 2, 1.0), (2, 1, 0.5)])]
    [(1, 60), (2, -60)]
    """
    return list(batch_fit(games, prior=prior).ratings)


def _fit(points: np.ndarray, prior: float) -> tuple[np.ndarray, np.ndarray]:
    """θ (mean 0) and its covariance for a matrix of points plus the virtual draws."""
    import choix  # here: it imports scipy.stats (about a second), which `import stats` need not

    n = points.shape[0]
    off = 1.0 - np.eye(n)
    wins = points + (prior / 2) * off  # a virtual draw: half a win each way
    theta = np.asarray(choix.ilsr_pairwise_dense(wins, alpha=0.0, max_iter=10_000, tol=1e-12),
                       dtype=float)
    theta = theta - theta.mean()
    theta = theta + np.linalg.lstsq(_information(theta, wins), _gradient(theta, wins),
                                    rcond=None)[0]  # one Newton step: to rounding
    theta = theta - theta.mean()
    info = _information(theta, wins)
    # The information has one zero eigenvalue, along (1, ..., 1) (the graph is complete:
    # every two bots have virtual draws). Adding the projector J/n onto it makes it
    # invertible, and inv(H + J/n) − J/n is its pseudo-inverse: the covariance under Σθ = 0.
    centre = np.full((n, n), 1.0 / n)
    covariance = np.linalg.inv(info + centre) - centre
    return theta, (covariance + covariance.T) / 2


def _expected(theta: np.ndarray) -> np.ndarray:
    """p[i, j]: the expected score of i against j."""
    result: np.ndarray = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    return result


def _gradient(theta: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """d log-likelihood / dθᵢ: points scored minus points expected."""
    games = wins + wins.T
    result: np.ndarray = wins.sum(axis=1) - (games * _expected(theta)).sum(axis=1)
    return result


def _information(theta: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """Minus the Hessian of the log-likelihood: Σ nᵢⱼ·pᵢⱼ·(1 − pᵢⱼ) per pair, a Laplacian."""
    p = _expected(theta)
    weight = (wins + wins.T) * p * (1.0 - p)
    np.fill_diagonal(weight, 0.0)
    result: np.ndarray = np.diag(weight.sum(axis=1)) - weight
    return result

