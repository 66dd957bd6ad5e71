"""The engine as a Python OpenSpiel game, checked by OpenSpiel's own `random_sim_test`."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed here")

from games import blokus  # noqa: E402
from games.blokus import rl_encoding as R  # noqa: E402
from games.blokus import rl_openspiel  # noqa: E402, F401  # registers the game


def test_random_sim_test_with_the_chance_node() -> None:
    game = pyspiel.load_game("gauntlet_blokus")
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_sim_test_with_a_start_piece() -> None:
    game = pyspiel.load_game("gauntlet_blokus", {"start_piece": "PENTO_W"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_same_game_as_the_engine() -> None:
    game = pyspiel.load_game("gauntlet_blokus")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 12
    state.apply_action(blokus.PENTOMINOES.index("PENTO_U"))
    engine = blokus.new_game("PENTO_U")
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        assert state.current_player() == engine.turn % 2
        assert state.legal_actions() == R.legal_actions(engine)
        assert np.array_equal(np.array(state.observation_tensor(state.current_player())),
                              R.observe(engine, blokus.TEAMS[engine.turn % 2]))
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        engine.apply(R.move_of(action, engine))
    one, two = engine.team_points("ONE"), engine.team_points("TWO")
    assert state.returns() == [float(np.sign(one - two)), float(np.sign(two - one))]
