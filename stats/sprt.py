"""The generalized sequential probability ratio test (GSPRT), as fishtest computes it.

The results are counts, low to high: a trinomial ``[L, D, W]`` of games or a pentanomial
``[LL, LD+DL, LW+DD+WL, DW+WD, WW]`` of pairs. Their empirical distribution p̂ (with a count
of 0 replaced by 0.001, as fishtest does, so that every logarithm exists) is projected onto
each hypothesis: the distribution of largest likelihood whose Elo is elo0 (p⁰) or elo1 (p¹).
The log-likelihood ratio is

    LLR = N · Σ p̂ᵢ · ln(p¹ᵢ / p⁰ᵢ)

and the test stops when it leaves (ln(β/(1−α)), ln((1−β)/α)): H0 accepted below, H1 above.

The models say what "Elo" is:

- ``normalized`` (the default): normalized Elo, the t-value (μ − ½)/σ of the score per game
  times 800/ln 10; its expected number of games to a decision hardly depends on the draw
  rate. The hypotheses constrain the t-value.
- ``logistic``: the usual Elo, score = 1/(1 + 10^(−elo/400)); the hypotheses constrain the
  expected score.
- ``bayeselo``: fishtest's legacy trinomial model (``LLRlegacy``): BayesElo with the draw
  Elo estimated from the results themselves; trinomial only.

>>> round(llr([10, 60, 120, 80, 30], 0, 2), 4)
0.4832
>>> lower_bound(0.05, 0.05), upper_bound(0.05, 0.05)
(-2.9444389791664403, 2.9444389791664403)
>>> test = SequentialTest(elo0=0, elo1=5)
>>> for pair in [("W", "W"), ("W", "D"), ("W", "L"), ("D", "W")] * 60:
...     state = test.add_pair(*pair)
>>> test.state, test.decided_at, test.games
(<State.H1: 'H1 accepted'>, 416, 480)
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Literal

from stats.pairs import check_counts, pair_index

__all__ = ["NELO_PER_T", "Model", "SequentialTest", "State", "bayeselo_draw_elo",
           "bayeselo_probabilities", "llr", "logistic_score", "lower_bound", "mle_expected",
           "mle_t_value", "regularize", "upper_bound"]

Model = Literal["normalized", "logistic", "bayeselo"]
MODELS: tuple[Model, ...] = ("normalized", "logistic", "bayeselo")

NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of t-value (≈ 347.44): the slope of logistic Elo at 0 is
400/ln 10 per score, and a score's σ per game is ½ for a coin without draws."""

_EPSILON = 1e-3  # fishtest's stand-in for a count of zero


def lower_bound(alpha: float, beta: float) -> float:
    """ln(β/(1−α)): H0 is accepted when the LLR falls below it."""
    return math.log(beta / (1 - alpha))


def upper_bound(alpha: float, beta: float) -> float:
    """ln((1−β)/α): H1 is accepted when the LLR rises above it."""
    return math.log((1 - beta) / alpha)


def logistic_score(elo: float) -> float:
    """The expected score per game of a logistic Elo difference.

    >>> logistic_score(0.0), round(logistic_score(400.0), 4)
    (0.5, 0.9091)
    """
    return 1 / (1 + 10 ** (-elo / 400))


def regularize(counts: Sequence[float]) -> list[float]:
    """The counts with each 0 replaced by 0.001, so that each outcome has some probability.

    >>> regularize([0, 3, 0])
    [0.001, 3, 0.001]
    """
    return [c if c != 0 else _EPSILON for c in counts]


def _pdf(counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """N, the outcomes' scores per game (0 to 1) and their empirical probabilities."""
    check_counts(counts)
    regular = regularize(counts)
    total = sum(regular)
    last = len(regular) - 1
    return total, [i / last for i in range(len(regular))], [c / total for c in regular]


def _secular(values: Sequence[float], probs: Sequence[float], start: float = 0.0) -> float:
    """The root x of Σ pᵢ·aᵢ/(1 + x·aᵢ) = 0 between the poles −1/max a and −1/min a.

    The function falls from +∞ to −∞ there, so a Newton step that leaves the shrinking
    bracket is replaced by bisection; from a warm start (the last pair's root) it takes a
    couple of steps.
    """
    smallest, largest = min(values), max(values)
    if smallest * largest >= 0:
        raise ValueError("no distribution of this support has that Elo (the constraint is "
                         "outside the range of the scores)")
    lo, hi = -1 / largest, -1 / smallest
    x = start if lo < start < hi else 0.0
    for _ in range(200):
        f = df = 0.0
        for a, p in zip(values, probs, strict=True):
            term = a / (1 + x * a)
            f += p * term
            df -= p * term * term
        if f > 0:
            lo = x
        elif f < 0:
            hi = x
        else:
            return x
        step = f / df
        new = x - step
        if not lo < new < hi:
            new = (lo + hi) / 2
        if abs(new - x) <= 1e-13 * max(1.0, abs(x)) or hi - lo <= 1e-13 * max(1.0, abs(x)):
            return new
        x = new
    return x


def mle_expected(values: Sequence[float], probs: Sequence[float], score: float,
                 start: float = 0.0) -> tuple[list[float], float]:
    """The distribution of largest likelihood given `probs` whose expected score is `score`
    (Van den Bergh, "Maximum likelihood estimation for multinomial distributions with a
    support constraint", Proposition 1.1), and the Lagrange root behind it.

    >>> q, _ = mle_expected([0, 0.5, 1], [0.25, 0.5, 0.25], 0.6)
    >>> round(sum(v * p for v, p in zip([0, 0.5, 1], q)), 12)
    0.6
    """
    shifted = [v - score for v in values]
    x = _secular(shifted, probs, start)
    return [p / (1 + x * a) for a, p in zip(shifted, probs, strict=True)], x


def mle_t_value(values: Sequence[float], probs: Sequence[float], ref: float, t: float,
                start: Sequence[float] | None = None) -> list[float]:
    """The distribution of largest likelihood given `probs` whose t-value (μ − ref)/σ is `t`
    (Van den Bergh, "Normalized Elo, practical considerations", section 4.1): a fixed point,
    each step a support-constrained MLE with σ and μ of the previous step.

    `start` is a previous answer to begin from (the test's last pair), else uniform.

    >>> values = [0, 0.25, 0.5, 0.75, 1]
    >>> q = mle_t_value(values, [0.1, 0.2, 0.4, 0.2, 0.1], 0.5, 0.2)
    >>> mu = sum(v * p for v, p in zip(values, q))
    >>> sd = sum(p * (v - mu) ** 2 for v, p in zip(values, q)) ** 0.5
    >>> round((mu - 0.5) / sd, 9)
    0.2
    """
    n = len(values)
    q = list(start) if start is not None else [1 / n] * n
    x = 0.0
    last = (math.nan, math.nan)
    for _ in range(30):
        mu = sum(v * p for v, p in zip(values, q, strict=True))
        sigma = math.sqrt(sum(p * (v - mu) ** 2 for v, p in zip(values, q, strict=True)))
        # Converged when μ and σ are. An empty bucket puts the root next to a pole, where
        # round-off makes σ cycle by up to ~1e-8: a tighter test would never pass, and the
        # LLR's error stays far below the 1 % the vectors allow.
        if abs(mu - last[0]) < 1e-9 and abs(sigma - last[1]) < 1e-8:
            break
        last = (mu, sigma)
        shifted = [v - ref - t * sigma * (1 + ((mu - v) / sigma) ** 2) / 2 for v in values]
        x = _secular(shifted, probs, x)
        q = [p / (1 + x * a) for a, p in zip(shifted, probs, strict=True)]
    return q


def bayeselo_probabilities(belo: float, draw_elo: float) -> list[float]:
    """[loss, draw, win] probabilities of a BayesElo difference with this draw Elo.

    >>> [round(p, 4) for p in bayeselo_probabilities(0, 200)]
    [0.2403, 0.5195, 0.2403]
    """
    win = 1 / (1 + 10 ** ((-belo + draw_elo) / 400))
    loss = 1 / (1 + 10 ** ((belo + draw_elo) / 400))
    return [loss, 1 - win - loss, win]


def bayeselo_draw_elo(trinomial: Sequence[float]) -> float:
    """The draw Elo that makes the BayesElo model fit these [L, D, W] frequencies.

    >>> round(bayeselo_draw_elo([25, 50, 25]), 2)
    190.85
    """
    total = sum(trinomial)
    loss, win = trinomial[0] / total, trinomial[2] / total
    if not (0 < loss < 1 and 0 < win < 1):
        raise ValueError("the BayesElo draw Elo needs some wins and some losses")
    return 200 * math.log10((1 - loss) / loss * (1 - win) / win)


def _t_bounds(counts: Sequence[float], elo0: float, elo1: float) -> tuple[float, float]:
    # A pair's score has the t-value of a game's times √2: its σ is that of a game / √2
    # (two games) while its mean is a game's.
    scale = math.sqrt(2) if len(counts) == 5 else 1.0
    return elo0 / NELO_PER_T * scale, elo1 / NELO_PER_T * scale


def llr(counts: Sequence[float], elo0: float, elo1: float,
        model: Model = "normalized") -> float:
    """The log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0) for these counts.

    >>> round(llr([36027, 68692, 36433], 0, 2), 2)
    0.92
    >>> round(llr([4063, 8620, 4307], 0, 3, "bayeselo"), 2)
    2.47
    """
    if model not in MODELS:
        raise ValueError(f"the model is one of {', '.join(MODELS)}, not {model!r}")
    total, values, probs = _pdf(counts)
    if model == "bayeselo":
        if len(counts) != 3:
            raise ValueError("the bayeselo model is trinomial: give W/D/L, not pairs")
        # fishtest's LLRlegacy: the draw Elo from the raw counts, no regularization.
        draw_elo = bayeselo_draw_elo(counts)
        p0 = bayeselo_probabilities(elo0, draw_elo)
        p1 = bayeselo_probabilities(elo1, draw_elo)
        return sum(c * math.log(b / a) for c, a, b in zip(counts, p0, p1, strict=True)
                   if c)
    if model == "logistic":
        q0, _ = mle_expected(values, probs, logistic_score(elo0))
        q1, _ = mle_expected(values, probs, logistic_score(elo1))
    else:
        t0, t1 = _t_bounds(counts, elo0, elo1)
        q0 = mle_t_value(values, probs, 0.5, t0)
        q1 = mle_t_value(values, probs, 0.5, t1)
    return total * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True))


class State(enum.Enum):
    """Where a sequential test is."""

    RUNNING = "running"
    H1 = "H1 accepted"
    H0 = "H0 accepted"
    INCONCLUSIVE = "inconclusive"


class SequentialTest:
    """A GSPRT fed one pair (or one game) at a time.

    The decision is taken the first time the LLR leaves the bounds (or `max_games` is
    reached) and kept: pairs still added afterwards (games that were already being played)
    count in the figures but do not change the decision.

    Each update recomputes the LLR from the counts, beginning its root finding at the last
    update's solution, which is a few steps away.

    >>> test = SequentialTest(elo0=0, elo1=2, max_games=6)
    >>> for first, second in [("W", "L"), ("D", "D"), ("W", "D")]:
    ...     state = test.add_pair(first, second)
    >>> test.counts, test.state
    ([0, 0, 2, 1, 0], <State.INCONCLUSIVE: 'inconclusive'>)
    >>> round(test.llr, 4), round(test.progress, 2)
    (0.0099, 0.34)
    """

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
                 model: Model = "normalized", pentanomial: bool = True,
                 max_games: int | None = None) -> None:
        if model not in MODELS:
            raise ValueError(f"the model is one of {', '.join(MODELS)}, not {model!r}")
        if model == "bayeselo" and pentanomial:
            raise ValueError("the bayeselo model is trinomial: pentanomial=False")
        if not elo0 < elo1:
            raise ValueError(f"elo0 must be below elo1 ({elo0} >= {elo1})")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError(f"alpha and beta are probabilities with alpha + beta < 1 "
                             f"(alpha {alpha}, beta {beta})")
        self.elo0, self.elo1 = elo0, elo1
        self.alpha, self.beta = alpha, beta
        self.model: Model = model
        self.max_games = max_games
        self.lower = lower_bound(alpha, beta)
        self.upper = upper_bound(alpha, beta)
        self.counts: list[int] = [0] * (5 if pentanomial else 3)
        self.state = State.RUNNING
        self.decided_at: int | None = None  # games when the decision was taken
        self._llr = 0.0
        self._warm: tuple[list[float] | None, list[float] | None] = (None, None)
        self._roots = (0.0, 0.0)

    @property
    def pentanomial(self) -> bool:
        return len(self.counts) == 5

    @property
    def pairs(self) -> int:
        """Complete pairs counted (0 for a trinomial test)."""
        return sum(self.counts) if self.pentanomial else 0

    @property
    def games(self) -> int:
        return 2 * sum(self.counts) if self.pentanomial else sum(self.counts)

    @property
    def llr(self) -> float:
        return self._llr

    @property
    def progress(self) -> float:
        """Percent of the way from 0 to the bound on the LLR's side (fastchess's figure:
        100 % or more is a decision)."""
        return 100 * (self._llr / self.upper if self._llr >= 0 else self._llr / self.lower)

    def add_pair(self, first: str, second: str) -> State:
        """Count a complete pair (results W/D/L from the candidate's side)."""
        return self.add_bucket(pair_index(first, second))

    def add_game(self, result: str) -> State:
        """Count one game of a trinomial test."""
        if self.pentanomial:
            raise ValueError("a pentanomial test counts pairs: add_pair")
        # pair_index of a result with a loss is its half points: 0, 1 or 2.
        return self.add_bucket(pair_index(result, "L"))

    def add_counts(self, counts: Sequence[int]) -> State:
        """Count a batch of results (as counts, low to high) and update once: fishtest
        updates per batch too, and a batch of a few pairs overshoots the bounds a little."""
        if len(counts) != len(self.counts) or any(c < 0 for c in counts):
            raise ValueError(f"a batch is {len(self.counts)} counts, none negative")
        for i, c in enumerate(counts):
            self.counts[i] += c
        self._update()
        return self.state

    def add_bucket(self, index: int, count: int = 1) -> State:
        """Count `count` more results in bucket `index` of the counts and update."""
        if not 0 <= index < len(self.counts) or count < 0:
            raise ValueError(f"no bucket {index} in {len(self.counts)} counts")
        self.counts[index] += count
        self._update()
        return self.state

    def _update(self) -> None:
        self._llr = self._incremental_llr()
        if self.state is not State.RUNNING:
            return
        if self._llr >= self.upper:
            self.state = State.H1
        elif self._llr <= self.lower:
            self.state = State.H0
        elif self.max_games is not None and self.games >= self.max_games:
            self.state = State.INCONCLUSIVE
        if self.state is not State.RUNNING:
            self.decided_at = self.games

    def _incremental_llr(self) -> float:
        if self.model == "bayeselo":
            try:
                return llr(self.counts, self.elo0, self.elo1, "bayeselo")
            except ValueError:  # no wins or no losses yet: no draw Elo, no evidence
                return 0.0
        total, values, probs = _pdf(self.counts)
        if self.model == "logistic":
            q0, r0 = mle_expected(values, probs, logistic_score(self.elo0), self._roots[0])
            q1, r1 = mle_expected(values, probs, logistic_score(self.elo1), self._roots[1])
            self._roots = (r0, r1)
        else:
            t0, t1 = _t_bounds(self.counts, self.elo0, self.elo1)
            q0 = mle_t_value(values, probs, 0.5, t0, self._warm[0])
            q1 = mle_t_value(values, probs, 0.5, t1, self._warm[1])
            self._warm = (q0, q1)
        return total * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1,
                                                                  strict=True))
