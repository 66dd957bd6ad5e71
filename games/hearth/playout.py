"""Uniformly random playouts (tests and the benchmark use these)."""

from __future__ import annotations

from collections.abc import Sequence

from . import new_game
from .game import State
from .rng import SplitMix64


def play_randomly(state: State, seed: int, max_actions: int = 5000) -> State:
    """Apply uniformly random legal actions until the game ends (or ``max_actions``)."""
    rng = SplitMix64(seed ^ 0x5DEECE66D)
    for _ in range(max_actions):
        if state.over:
            break
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    return state


def random_game(
    seed: int,
    decks: Sequence[tuple[str, Sequence[str]]] | None = None,
    history: bool = False,
    turn_cap: int | None = None,
) -> State:
    """A full game of uniformly random legal actions from ``new_game(seed)``.

    >>> random_game(1).is_over
    True
    """
    return play_randomly(new_game(seed=seed, decks=decks, history=history, turn_cap=turn_cap), seed)
