"""Simulated bots of known strength: the SPRT keeps its error rates and its pace.

Small and seeded (a few seconds); bench/sprt.py runs the large version.
"""

from __future__ import annotations

import math

import pytest

from bench.sprt import distribution_of, normalized_elo, simulate, wald_pairs

ELO0, ELO1 = 0.0, 40.0  # wide, so that a run takes ~200 pairs
RUNS = 1000
ALPHA = BETA = 0.05


def tolerance(rate: float, runs: int) -> float:
    """Three binomial standard deviations: a true rate of `rate` exceeds it in ~0.1 %."""
    return 3 * math.sqrt(rate * (1 - rate) / runs)


def test_the_simulated_bots_have_the_strength_asked_for() -> None:
    assert normalized_elo(distribution_of(0.0)) == pytest.approx(0.0, abs=1e-9)
    assert normalized_elo(distribution_of(ELO1)) == pytest.approx(ELO1, abs=1e-6)


def test_false_positives_within_alpha() -> None:
    o = simulate(ELO0, ELO0, ELO1, RUNS, seed=11)
    assert o.inconclusive == 0
    assert o.h1 / RUNS <= ALPHA + tolerance(ALPHA, RUNS), o
    mean, wald = o.pairs / RUNS, wald_pairs(False, ELO0, ELO1)
    assert 0.7 * wald < mean < 1.5 * wald, (mean, wald)


def test_false_negatives_within_beta() -> None:
    o = simulate(ELO1, ELO0, ELO1, RUNS, seed=12)
    assert o.inconclusive == 0
    assert o.h0 / RUNS <= BETA + tolerance(BETA, RUNS), o
    mean, wald = o.pairs / RUNS, wald_pairs(True, ELO0, ELO1)
    assert 0.7 * wald < mean < 1.5 * wald, (mean, wald)


def test_a_clearly_better_bot_passes_quickly() -> None:
    o = simulate(3 * ELO1, ELO0, ELO1, 50, seed=13)
    assert o.h1 == 50
    assert o.pairs / 50 < wald_pairs(True, ELO0, ELO1)
