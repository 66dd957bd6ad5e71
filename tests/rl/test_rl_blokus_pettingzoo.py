"""The PettingZoo AEC environment, checked by PettingZoo's own `api_test` and `seed_test`.

Warnings are errors, except the two that `api_test` prints for every observation dict whose
environment name is not on its list of PettingZoo's own classic environments
(`env_obs_dicts`, `env_obs_space` in pettingzoo/test/api_test.py): our observation is that
dict, `{"observation": Box, "action_mask": Box}`, on purpose. A test proves that those two
are the only warnings.

`max_cycles_test` does not apply: it needs a `parallel_env(max_cycles=...)` (Blokus has no
simultaneous decisions, so there is none) and samples actions without the mask.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from games import blokus
from games.blokus import env as E
from games.blokus import rl_encoding as R

# The exact texts of the name-list warnings (see the module docstring).
NAME_LIST_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
)


@contextmanager
def warnings_are_errors() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in NAME_LIST_WARNINGS:
            warnings.filterwarnings("ignore", message=f"^{text}$", category=UserWarning)
        yield


def test_api_test() -> None:
    with warnings_are_errors():
        api_test(E.env(), num_cycles=1000)


def test_api_test_score_rewards() -> None:
    with warnings_are_errors():
        api_test(E.env(reward="score"), num_cycles=1000)


def test_the_name_list_warnings_are_the_only_ones() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(E.env(), num_cycles=1000)
    assert {str(w.message) for w in caught} == set(NAME_LIST_WARNINGS)


def test_seed_test() -> None:
    with warnings_are_errors():
        seed_test(E.env, num_cycles=1000)


def play(env: E.BlokusAECEnv, seed: int) -> list[int]:
    """A whole random game; the actions taken."""
    rng = random.Random(seed)
    actions = []
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        actions.append(action)
        env.step(action)
    return actions


def test_same_seed_same_game_move_for_move() -> None:
    first, second = E.raw_env(), E.raw_env()
    first.reset(seed=21)
    second.reset(seed=21)
    assert play(first, 1) == play(second, 1)
    assert first.state == second.state
    # The start piece of seed s is the server's for game seed s.
    from server.games.blokus.room import BlokusGame
    for seed in range(20):
        first.reset(seed=seed)
        assert first.state.start_piece == BlokusGame(seed=seed).state.start_piece


def test_reset_without_seed_continues_the_seeded_sequence() -> None:
    first, second = E.raw_env(), E.raw_env()
    first.reset(seed=5)
    second.reset(seed=5)
    first.reset()
    second.reset()
    assert first.state.start_piece == second.state.start_piece
    first.reset(options={"start_piece": "PENTO_W"})
    assert first.state.start_piece == "PENTO_W"


def test_the_team_of_the_colour_to_move_decides() -> None:
    env = E.raw_env()
    env.reset(seed=3)
    rng = random.Random(3)
    seen_twice = False
    previous = None
    while not env.state.is_over:
        state = env.state
        assert env.agent_selection == R.AGENTS[blokus.TEAMS.index(state.current_team)]
        color = env.observe(env.agent_selection)["observation"][R.PERSPECTIVE]
        assert blokus.COLORS[int(np.flatnonzero(color)[0])] == state.current_color
        seen_twice |= previous == env.agent_selection
        previous = env.agent_selection
        other = R.AGENTS[1 - R.AGENTS.index(env.agent_selection)]
        assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
    # (Once a colour is out, the other team can move twice in a row; a random game
    # almost always gets there.)
    assert seen_twice


@pytest.mark.parametrize("action", [R.SKIP_ACTION, 0, -1, R.ACTION_COUNT, 2.5, "1", None])
def test_illegal_index_is_refused_and_nothing_changes(action: object) -> None:
    env = E.env()
    env.reset(seed=9)
    before = (env.unwrapped.state._key(), env.agent_selection, dict(env.rewards),
              dict(env._cumulative_rewards), env.observe("team_1")["action_mask"].copy())
    with pytest.raises(ValueError) as caught:
        env.step(action)
    assert isinstance(caught.value, E.IllegalAction)
    if action == R.SKIP_ACTION:
        assert "SKIP_FIRST_TURN" in str(caught.value)
    elif action == 0:  # MONO at (0, 0): not the start piece
        assert "WRONG_SHAPE" in str(caught.value)
    else:
        assert caught.value.mistake is None and caught.value.action is action
        assert "team_1, BLUE to move" in str(caught.value)
    after = (env.unwrapped.state._key(), env.agent_selection, dict(env.rewards),
             dict(env._cumulative_rewards), env.observe("team_1")["action_mask"])
    assert before[:4] == after[:4] and np.array_equal(before[4], after[4])
    play(env.unwrapped, 2)  # the game goes on as if nothing happened


def test_an_illegal_placement_later_names_the_mistake() -> None:
    env = E.raw_env()
    env.reset(seed=4)
    rng = random.Random(4)
    for _ in range(12):
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    key = env.state._key()
    with pytest.raises(E.IllegalAction) as caught:
        env.step(illegal)
    assert caught.value.mistake is not None and caught.value.mistake.name in str(caught.value)
    assert env.state._key() == key


@pytest.mark.parametrize("reward", ["win", "score"])
def test_rewards_add_up(reward: str) -> None:
    env = E.raw_env(reward=reward)
    env.reset(seed=8)
    totals = dict.fromkeys(R.AGENTS, 0.0)
    for agent in env.agent_iter():
        _, cumulative, terminated, truncated, _ = env.last()
        totals[agent] += cumulative
        if terminated or truncated:
            env.step(None)
            continue
        env.step(random.Random(len(env.state.fields())).choice(
            np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
    points = env.state.result().points
    difference = points["ONE"] - points["TWO"]
    assert totals["team_1"] == -totals["team_2"]
    if reward == "score":
        assert totals["team_1"] == difference
    else:
        assert totals["team_1"] == float(np.sign(difference))


def test_render_and_constructor_arguments() -> None:
    env = E.raw_env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "BLUE to move" in text
    with pytest.raises(ValueError, match="reward"):
        E.raw_env(reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        E.raw_env(render_mode="rgb_array")
