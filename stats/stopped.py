"""The Elo estimate of a stopped SPRT, median-unbiased, as fishtest reports it.

A sequential test stops when its LLR crosses a bound, that is, most often after a lucky run:
the plain estimate of a test that passed is biased upwards. fishtest (after Van den Bergh)
models the LLR as a Brownian motion with drift μ(elo) and variance σ²(elo) per sample (a
pair, or a game), absorbed at the bounds a < 0 < b, and reports the Elo at which the observed
end (sample count T, LLR y, clamped to the bound it crossed) is the median outcome:

- ``outcome_probability(elo)``: the probability that a test of true strength `elo` ends
  "worse" than observed (fails earlier, passes later, or fails instead of passing);
- the estimate solves ``outcome_probability(elo) = ½``, the 95 % interval solves it for
  0.975 and 0.025, and LOS is ``outcome_probability(0)``.

The drift and variance use the Brownian approximation of the GSPRT: with s the expected
score, v the empirical variance per sample and s0, s1 the scores of the bounds,
μ = (s − (s0 + s1)/2)·(s1 − s0)/v and σ² = (s1 − s0)²/v. The result is logistic Elo (also
for the normalized model, whose bounds are first turned into scores).

>>> e = stopped_estimate([365, 16618, 36229, 16974, 390], 0, 2)
>>> round(e.elo, 2), [round(x, 2) for x in e.ci], round(e.los, 3), e.clamped
(0.93, [-0.05, 1.88], 0.969, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from stats.numeric import find_root, phi
from stats.sprt import (
    NELO_PER_T,
    Model,
    bayeselo_draw_elo,
    bayeselo_probabilities,
    logistic_score,
    lower_bound,
    regularize,
    upper_bound,
)

__all__ = ["StoppedEstimate", "absorbed_outcome_cdf", "stopped_estimate"]


def absorbed_outcome_cdf(a: float, b: float, mu: float, sigma2: float, t: float,
                         y: float) -> float:
    """For a Brownian motion from 0 with drift `mu` and variance `sigma2` per unit of time,
    absorbed at a < 0 < b: the probability that it "passes to the right" of the point
    (t, y), i.e. is absorbed at a before t, or is below y at t.

    Without drift, half the paths end at each barrier; early on, half are below 0:

    >>> round(absorbed_outcome_cdf(-3, 3, 0.0, 1.0, 1e6, 3.0), 6)
    0.5
    >>> round(absorbed_outcome_cdf(-3, 3, 0.0, 1.0, 0.01, 0.0), 6)
    0.5
    >>> round(absorbed_outcome_cdf(-3, 3, 0.0, 1.0, 0.01, 0.5), 6)
    1.0
    """
    width = b - a
    gamma = mu / sigma2
    # The eigenfunction series converges slowly for short times and overflows for strong
    # drift; Siegmund's approximation is good exactly there.
    if sigma2 * t / width ** 2 < 1e-2 or abs(gamma * width) > 15:
        result = _siegmund(a, b, mu, sigma2, t, y)
    else:
        result = _series(a, b, mu, sigma2, t, y)
    return min(max(result, 0.0), 1.0)


def _series(a: float, b: float, mu: float, sigma2: float, t: float, y: float) -> float:
    """The exact answer as the eigenfunction expansion of the absorbed motion's density."""
    width = b - a
    start, end = -a, y - a  # moved so that the lower barrier is 0
    gamma = mu / sigma2

    def rate(n: int) -> float:
        return (n * math.pi / width) ** 2 * sigma2 / 2 + mu * mu / sigma2 / 2

    def integral(n: int) -> float:
        # ∫ e^(γu) sin(nπu/A) du from the antiderivative at `end`, times 2/A·e^(−γ·end)
        k = math.pi * n / width
        return (2 * width * gamma * math.sin(k * end) - 2 * math.pi * n * math.cos(k * end)
                ) / (width ** 2 * gamma ** 2 + math.pi ** 2 * n ** 2)

    scale = math.exp(-rate(1) * t - start * gamma + end * gamma)
    total = 0.0
    n = 1
    while True:
        decay = math.exp(-(rate(n) - rate(1)) * t)
        part = integral(n)
        total += decay * part * math.sin(n * math.pi * start / width)
        if abs(scale * decay * part) <= 1e-9 or n > 100_000:
            break
        n += 1
    # The probability of absorption at the lower barrier, ever.
    if gamma * width > 30:
        ever_low = math.exp(-2 * gamma * start)
    elif abs(gamma * width) < 1e-8:
        ever_low = (width - start) / width
    else:
        ever_low = ((1 - math.exp(2 * gamma * (width - start)))
                    / (1 - math.exp(2 * gamma * width)))
    return ever_low + scale * total


def _siegmund(a: float, b: float, mu: float, sigma2: float, t: float, y: float) -> float:
    """Siegmund's approximation (reflections at each barrier once)."""
    spread = math.sqrt(t * sigma2)
    drift = mu * t
    gamma = mu / sigma2
    z = (y - drift) / spread
    za = (-y + drift + 2 * a) / spread
    zb = (y - drift - 2 * b) / spread

    def reflected(barrier: float, w: float) -> float:
        # exp(2γ·barrier)·Φ(w), by Φ's asymptotic series where the exponential overflows
        if gamma * barrier >= 5:
            return (-math.exp(-w * w / 2 + 2 * gamma * barrier) / math.sqrt(2 * math.pi)
                    * (1 / w - 1 / w ** 3))
        return math.exp(2 * gamma * barrier) * phi(w)

    return phi(z) + reflected(a, za) - reflected(b, zb)


@dataclass(frozen=True)
class StoppedEstimate:
    """The figures of a stopped SPRT, in logistic Elo; ci is (low, high)."""

    elo: float
    ci: tuple[float, float]
    los: float
    clamped: bool
    """The LLR overshot a bound by more than 3 %: the figures are then only indicative."""


class _Sprt:
    def __init__(self, counts: Sequence[float], elo0: float, elo1: float, alpha: float,
                 beta: float, normalized: bool) -> None:
        self.a, self.b = lower_bound(alpha, beta), upper_bound(alpha, beta)
        regular = regularize(counts)
        n = sum(regular)
        last = len(regular) - 1
        self.values = [i / last for i in range(len(regular))]
        self.probs = [c / n for c in regular]
        mean = sum(v * p for v, p in zip(self.values, self.probs, strict=True))
        self.mean = mean
        self.var = sum(p * (v - mean) ** 2 for v, p in zip(self.values, self.probs,
                                                           strict=True))
        if normalized:
            sigma_pg = math.sqrt(2 * self.var) if last == 4 else math.sqrt(self.var)
            self.s0, self.s1 = (e / NELO_PER_T * sigma_pg + 0.5 for e in (elo0, elo1))
        else:
            self.s0, self.s1 = logistic_score(elo0), logistic_score(elo1)
        self.elo0, self.elo1 = elo0, elo1
        slope, _ = self._drift(mean)
        self.llr, self.t = n * slope, n
        self.clamped = self.llr > 1.03 * self.b or self.llr < 1.03 * self.a
        # The test stopped at a bound: where the line of its average slope meets it.
        if self.llr < self.a:
            self.t, self.llr = self.a / slope, self.a
        elif self.llr > self.b:
            self.t, self.llr = self.b / slope, self.b

    def _drift(self, score: float) -> tuple[float, float]:
        width = self.s1 - self.s0
        return (score - (self.s0 + self.s1) / 2) * width / self.var, width ** 2 / self.var

    def outcome_probability(self, elo: float) -> float:
        mu, sigma2 = self._drift(logistic_score(elo))
        return absorbed_outcome_cdf(self.a, self.b, mu, sigma2, self.t, self.llr)

    def quantile(self, p: float) -> float:
        """The largest Elo for which the observed end has probability below p."""
        middle = (self.elo0 + self.elo1) / 2
        width = self.elo1 - self.elo0
        spread = 30.0

        def f(elo: float) -> float:
            return self.outcome_probability(elo) - (1 - p)

        while True:
            lo, hi = max(middle - spread * width, -1000.0), min(middle + spread * width,
                                                                1000.0)
            try:
                return find_root(f, lo, hi, tol=1e-10)
            except ValueError:
                if lo > -1000 or hi < 1000:
                    spread *= 2
                    continue
                return hi if f(lo) > 0 else lo


def stopped_estimate(counts: Sequence[float], elo0: float, elo1: float, alpha: float = 0.05,
                     beta: float = 0.05, model: Model = "normalized",
                     confidence: float = 0.95) -> StoppedEstimate:
    """The median-unbiased logistic Elo, its interval and LOS of an SPRT that ended with
    these counts (a trinomial [L, D, W] or a pentanomial); elo0, elo1 in the model's Elo.

    For ``bayeselo`` (trinomial only) the bounds become logistic Elo with the draw Elo of
    the counts, as fishtest does.
    """
    from stats.pairs import check_counts

    check_counts(counts)
    if model == "bayeselo":
        if len(counts) != 3:
            raise ValueError("the bayeselo model is trinomial: give W/D/L, not pairs")
        draw_elo = bayeselo_draw_elo(regularize(counts))
        elo0, elo1 = (_bayeselo_to_logistic(e, draw_elo) for e in (elo0, elo1))
    sprt = _Sprt(counts, elo0, elo1, alpha, beta, normalized=model == "normalized")
    p = 1 - confidence
    return StoppedEstimate(elo=sprt.quantile(0.5),
                           ci=(sprt.quantile(p / 2), sprt.quantile(1 - p / 2)),
                           los=sprt.outcome_probability(0.0), clamped=sprt.clamped)


def _bayeselo_to_logistic(belo: float, draw_elo: float) -> float:
    _, draw, win = bayeselo_probabilities(belo, draw_elo)
    score = min(max(win + draw / 2, 1e-3), 1 - 1e-3)
    return 400 * math.log10(score / (1 - score))
