"""Ratings with openskill's Plackett-Luce model (Weng-Lin), as the store's `RateFn`.

>>> new = rate([(25.0, 25 / 3), (25.0, 25 / 3)], [0, 1])
>>> new[0][0] > 25.0 > new[1][0], new[0][1] < 25 / 3
(True, True)
>>> draw = rate([(25.0, 25 / 3), (25.0, 25 / 3)], [0, 0])
>>> round(draw[0][0], 6) == round(draw[1][0], 6) == 25.0
True
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The default model: mu 25, sigma 25/3; the conservative rating is mu - 3 sigma."""

MU: float = MODEL.mu
SIGMA: float = MODEL.sigma


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per player; `ranks`: 0 is best, equal ranks are a draw."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating standings sort by."""
    return mu - 3 * sigma
