"""`State.moves()`: the moves since the start, from which the same state is rebuilt (a
match started from a stored position stores them)."""

from __future__ import annotations

import random

from games import blokus


def test_a_random_game_rebuilds_from_its_moves() -> None:
    rng = random.Random(5)
    state = blokus.new_game(seed=5)
    played = []
    while not state.is_over:
        move = rng.choice(list(state.legal_moves()))
        state.apply(move)
        played.append(move)
    assert state.moves() == played
    again = blokus.new_game(state.start_piece)
    for move in state.moves():
        again.apply(move)
    assert (again.turn, again.team_points("ONE"), again.team_points("TWO")) == \
        (state.turn, state.team_points("ONE"), state.team_points("TWO"))
    assert state.clone().moves() == played


def test_pop_takes_moves_off() -> None:
    state = blokus.new_game("PENTO_L")
    first = next(iter(state.legal_moves()))
    state.apply(first)
    state.apply(next(iter(state.legal_moves())))
    state.pop()
    assert state.moves() == [first]
    assert blokus.new_game("PENTO_L").moves() == []
