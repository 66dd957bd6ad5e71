"""Elo and normalized Elo of counts, with 95 % intervals and the likelihood of superiority.

The counts are a trinomial ``[L, D, W]`` of games or a pentanomial of pairs (see
`stats.pairs`). With μ the score per game and σ its standard deviation per game (for pairs:
√2 times the σ of a pair's score, so that pairing's smaller variance shows):

- Elo (logistic) = −400·log10(1/μ − 1); its interval maps μ ± 1.96·σ/√games through the same
  curve and is given, as fishtest and fastchess do, as Elo ± half that width;
- normalized Elo = (μ − ½)/σ · 800/ln 10, ± 1.96 · (800/ln 10)/√games;
- LOS = Φ((μ − ½)/(σ/√games)), the probability that the candidate is the stronger.

A count of 0 counts as 0.001 (fishtest), so that no outcome has probability 0.

>>> e = estimate([10, 60, 120, 80, 30])
>>> round(e.score, 4), round(e.sigma_pair, 4), round(e.elo, 2), round(e.nelo, 2)
(0.55, 0.2449, 34.86, 50.15)
>>> [round(x, 2) for x in e.elo_ci], round(e.los, 4)
([15.38, 54.34], 0.9998)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from stats.numeric import phi, phi_inv
from stats.sprt import NELO_PER_T, regularize

__all__ = ["Estimate", "elo_from_score", "estimate", "nelo_from_score"]


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of an expected score per game, clamped to
    [0.001, 0.999] (±1200 Elo) so that a clean sweep has a number.

    >>> round(elo_from_score(0.75), 2), elo_from_score(0.5), round(elo_from_score(1.0), 1)
    (190.85, 0.0, 1199.8)
    """
    score = min(max(score, 1e-3), 1 - 1e-3)
    return 400 * math.log10(score / (1 - score))


def nelo_from_score(score: float, sigma_per_game: float) -> float:
    """Normalized Elo of a score per game with this σ per game.

    >>> round(nelo_from_score(0.55, 0.2449 * 2 ** 0.5), 1)
    50.2
    """
    return (score - 0.5) / sigma_per_game * NELO_PER_T


@dataclass(frozen=True)
class Estimate:
    """The figures of some counts; intervals are (low, high)."""

    games: int
    score: float
    """μ, the expected score per game."""
    sigma: float
    """σ per game (for pairs, √2 · `sigma_pair`)."""
    sigma_pair: float | None
    """σ of a pair's score, pentanomial only."""
    elo: float
    elo_ci: tuple[float, float]
    nelo: float
    nelo_ci: tuple[float, float]
    los: float


def estimate(counts: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Elo, normalized Elo, their intervals at `confidence`, and LOS of these counts."""
    from stats.pairs import check_counts

    check_counts(counts)
    regular = regularize(counts)
    last = len(regular) - 1
    # A pair is two games: the per-game score of bucket i of n + 1 is i/n either way.
    samples = sum(regular)
    games = samples * last / 2
    score = sum(c * i / last for i, c in enumerate(regular)) / samples
    var_sample = sum(c * (i / last - score) ** 2 for i, c in enumerate(regular)) / samples
    if last == 4:
        sigma_pair: float | None = math.sqrt(var_sample)
        sigma = math.sqrt(2 * var_sample)
    else:
        sigma_pair = None
        sigma = math.sqrt(var_sample)
    z = phi_inv(0.5 + confidence / 2)
    half = z * sigma / math.sqrt(games)
    elo = elo_from_score(score)
    elo_half = (elo_from_score(score + half) - elo_from_score(score - half)) / 2
    nelo = nelo_from_score(score, sigma) if sigma > 0 else 0.0
    nelo_half = z * NELO_PER_T / math.sqrt(games)
    los = phi((score - 0.5) / (sigma / math.sqrt(games))) if sigma > 0 else 0.5
    return Estimate(
        games=round(2 * sum(counts) if last == 4 else sum(counts)),
        score=score, sigma=sigma, sigma_pair=sigma_pair,
        elo=elo, elo_ci=(elo - elo_half, elo + elo_half),
        nelo=nelo, nelo_ci=(nelo - nelo_half, nelo + nelo_half), los=los)
