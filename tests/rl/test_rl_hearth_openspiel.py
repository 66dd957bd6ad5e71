"""Hearth as a Python OpenSpiel game, checked by OpenSpiel's own `random_sim_test`, and the
same game as the engine's (legal actions, tensors from the player's view, returns)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed here")

from games.hearth import rl_encoding as R  # noqa: E402
from games.hearth import rl_openspiel  # noqa: E402  # registers the game


def test_random_sim_test_with_the_chance_node() -> None:
    game = pyspiel.load_game("gauntlet_hearth")
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_sim_test_with_fixed_decks() -> None:
    game = pyspiel.load_game("gauntlet_hearth",
                             {"deck_1": "druid", "deck_2": "hunter", "seeds": 3})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_bad_deck_name_fails_at_load() -> None:
    with pytest.raises(Exception, match="no class deck"):
        pyspiel.load_game("gauntlet_hearth", {"deck_1": "murloc"})


def test_the_same_game_as_the_engine() -> None:
    game = pyspiel.load_game("gauntlet_hearth")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 64
    state.apply_action(5)
    engine = game.start(5)
    rng = random.Random(0)
    while not state.is_terminal():
        player = engine.pending()[0]
        assert state.current_player() == player - 1
        assert state.legal_actions() == list(R.legal_actions(engine, player))
        for p in (0, 1):
            tensor = np.array(state.information_state_tensor(p))
            assert np.array_equal(tensor, R.observe(engine, p + 1))
            assert np.array_equal(np.array(state.observation_tensor(p)), tensor)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        engine.apply(R.move_of(action, engine, player), player)
    result = engine.result()
    assert result is not None
    expected = {0: [0.0, 0.0], 1: [1.0, -1.0], 2: [-1.0, 1.0]}[result.winner]
    assert state.returns() == expected


def test_serialised_states_replay() -> None:
    game = pyspiel.load_game("gauntlet_hearth")
    state = game.new_initial_state()
    state.apply_action(9)
    rng = random.Random(1)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.legal_actions() == state.legal_actions()
    assert back.engine.hash() == state.engine.hash()
    assert rl_openspiel.HearthState is type(back)
