"""`BatchedBlokusEnv`: many games in one process, the same games as the engine alone."""

from __future__ import annotations

import numpy as np
import pytest

from games import blokus
from games.blokus import rl_encoding as R
from games.blokus.rl_batched import BatchedBlokusEnv


def test_rows_are_the_single_games() -> None:
    """Every row is what `observe`/`action_mask` say of the same game played alone, game
    after game through the auto-resets; seeds go seed, seed + 1, ... as games start."""
    batch = BatchedBlokusEnv(4, seed=100)
    step = batch.reset()
    alone = [blokus.new_game(seed=100 + i) for i in range(4)]
    next_seed = 104
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400):
        for i, state in enumerate(alone):
            team = blokus.TEAMS[int(step.team[i])]
            assert team == state.current_team
            assert np.array_equal(step.observations[i], R.observe(state, team))
            assert step.action_masks is not None
            assert np.array_equal(step.action_masks[i], R.action_mask(state))
            assert step.legal(i).tolist() == R.legal_actions(state)
        actions = batch.sample(rng)
        step = batch.step(actions)
        for i, action in enumerate(actions):
            alone[i].apply(R.move_of(int(action), alone[i]))
            if alone[i].is_over:
                assert step.terminated[i]
                points = alone[i].result().points
                assert step.info["final_points"][i].tolist() == [points["ONE"], points["TWO"]]
                one, two = points["ONE"], points["TWO"]
                assert step.rewards[i].tolist() == [np.sign(one - two), np.sign(two - one)]
                alone[i] = blokus.new_game(seed=next_seed)
                next_seed += 1
                finished += 1
            else:
                assert not step.terminated[i] and not step.rewards[i].any()
    assert finished >= 8


def test_score_rewards_add_up_to_the_point_difference() -> None:
    batch = BatchedBlokusEnv(2, seed=7, reward="score", masks=False)
    step = batch.reset()
    assert step.action_masks is None
    totals = np.zeros((2, 2))
    rng = np.random.default_rng(2)
    done = [False, False]
    while not all(done):
        step = batch.step(batch.sample(rng))
        for i in range(2):
            if not done[i]:
                totals[i] += step.rewards[i]
                if step.terminated[i]:
                    one, two = step.info["final_points"][i]
                    assert totals[i].tolist() == [one - two, two - one]
                    done[i] = True


def test_an_illegal_action_moves_no_game() -> None:
    batch = BatchedBlokusEnv(3, seed=1)
    step = batch.reset()
    keys = [state._key() for state in batch.states]
    good = batch.sample(np.random.default_rng(0))
    for bad in (R.SKIP_ACTION, -1, R.ACTION_COUNT, 0.5):
        actions = list(good)
        actions[2] = bad
        with pytest.raises(ValueError, match=r"game 2: .*no game moved"):
            batch.step(actions)
        assert [state._key() for state in batch.states] == keys
    with pytest.raises(ValueError, match="expected 3 actions"):
        batch.step(good[:2])
    batch.step(good)  # still usable
    assert step.legal(0).tolist() == R.legal_actions(blokus.new_game(seed=1))
