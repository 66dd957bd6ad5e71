"""Hearth's PettingZoo environments, checked by PettingZoo's own `api_test`, `seed_test` and
`parallel_api_test`, and ours: illegal indices change nothing, seeds replay games move for
move, rewards, the turn cap's truncation, the Parallel environment's simultaneous mulligan.

Warnings are errors, except the two that `api_test` prints for every observation dict of an
environment not on its list of PettingZoo's own classic ones (as for Blokus: see
tests/rl/test_rl_blokus_pettingzoo.py); a test proves they are the only ones.

`max_cycles_test` does not apply: it samples actions without the mask (an illegal index
raises here) and needs `parallel_env(max_cycles=...)`; the game's own turn cap bounds it.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from games.hearth import rl_encoding as R
from games.hearth import rl_env as E

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


def test_the_name_list_warnings_are_the_only_ones() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(E.env(), num_cycles=1000)
    assert {str(w.message) for w in caught} == set(NAME_LIST_WARNINGS)


def test_seed_test() -> None:
    with warnings_are_errors():
        seed_test(E.env, num_cycles=1000)


def test_parallel_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(E.parallel_env(), num_cycles=1000)
        parallel_api_test(E.parallel_env(decks=["druid", "hunter"], turn_cap=6),
                          num_cycles=1000)


def play(env: E.HearthAECEnv, seed: int) -> list[int]:
    """A whole random game; the actions taken."""
    rng = random.Random(seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        other = E.AGENTS[1 - E.AGENTS.index(agent)]
        assert not env.observe(other)["action_mask"].any()
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize("seed", [0, 5])
def test_a_seed_replays_the_game_move_for_move(seed: int) -> None:
    first, second = E.raw_env(), E.raw_env()
    first.reset(seed=seed)
    actions = play(first, seed)
    second.reset(seed=seed)
    for action in actions:
        second.step(action)
    assert second.state.hash() == first.state.hash()
    assert second.state.is_over
    # and the seedless reset after a seeded one is the same game in both
    first.reset(seed=seed)
    second.reset(seed=seed)
    first.reset()
    second.reset()
    assert first.state.hash() == second.state.hash()


def test_rewards_at_the_end() -> None:
    env = E.raw_env()
    env.reset(seed=3)
    totals = dict.fromkeys(E.AGENTS, 0.0)
    rng = random.Random(3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    result = env.state.result()
    assert result is not None and result.winner in (1, 2)
    winner = E.AGENTS[result.winner - 1]
    assert totals[winner] == 1.0 and sum(totals.values()) == 0.0


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    env = E.raw_env()
    env.reset(seed=2)
    before = env.state.hash()
    agent = env.agent_selection
    for bad, words in ((R.END_TURN_ACTION, "not among its legal actions"),
                       (R.ACTION_COUNT, "out of range"), (1.5, "not an action index")):
        with pytest.raises(E.IllegalAction, match=words) as caught:
            env.step(bad)  # type: ignore[arg-type]
        assert caught.value.agent == agent
    assert env.state.hash() == before and env.agent_selection == agent
    assert env.rewards == dict.fromkeys(E.AGENTS, 0.0)


def test_the_turn_cap_truncates() -> None:
    env = E.raw_env(turn_cap=4)
    env.reset(seed=1)
    ended = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and info["reason"] == "turn cap"
            ended.append((agent, reward))
            env.step(None)
            continue
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        env.step(int(R.END_TURN_ACTION if mask[R.END_TURN_ACTION] else legal[0]))
    assert env.state.result().reason == "turn cap"  # type: ignore[union-attr]
    assert sorted(ended) == [("player_1", 0.0), ("player_2", 0.0)]


def test_decks_fixed_by_options_and_by_pool() -> None:
    env = E.raw_env(decks=["priest"])
    env.reset(seed=1)
    heroes = [env.state.card_id(env.state.hero[p]) for p in (1, 2)]
    assert heroes == ["HERO_09", "HERO_09"]
    env.reset(seed=1, options={"decks": ("mage", "warrior")})
    assert [env.state.card_id(env.state.hero[p]) for p in (1, 2)] == ["HERO_08", "HERO_01"]
    env.reset(seed=1)  # ten class decks: a seed fixes the pair
    picked = [E.raw_env() for _ in range(2)]
    for e in picked:
        e.reset(seed=11)
    assert picked[0].state.hash() == picked[1].state.hash()


def test_parallel_mulligan_at_once_then_turn_by_turn() -> None:
    env = E.parallel_env()
    obs, infos = env.reset(seed=4)
    assert infos["player_1"]["action_mask"].any()
    masks = {agent: obs[agent]["action_mask"] for agent in E.AGENTS}
    assert all(m[R.MULLIGAN_FIRST:R.CHOOSE_FIRST].any() for m in masks.values())
    with pytest.raises(E.IllegalAction, match="sent no action"):
        env.step({"player_1": R.MULLIGAN_FIRST})
    obs = env.step({agent: R.MULLIGAN_FIRST for agent in E.AGENTS})[0]
    assert env.state.pending() == [env.state.current]
    deciding = E.AGENTS[env.state.current - 1]
    waiting = E.AGENTS[2 - env.state.current]
    assert obs[deciding]["action_mask"].any() and not obs[waiting]["action_mask"].any()
    before = env.state.hash()
    with pytest.raises(E.IllegalAction, match="illegal"):
        env.step({deciding: R.CHOOSE_FIRST, waiting: 0})
    assert env.state.hash() == before
    # the waiting agent's action is ignored, whatever it is
    env.step({deciding: R.END_TURN_ACTION, waiting: R.CHOOSE_FIRST})
    assert env.state.current != E.AGENTS.index(deciding) + 1


def test_parallel_and_aec_play_the_same_game() -> None:
    aec, par = E.raw_env(), E.parallel_env()
    aec.reset(seed=8)
    actions = play(aec, 8)
    par.reset(seed=8)
    k = 0
    done = False
    while not done:
        step = {}
        for p in par.state.pending():
            step[E.AGENTS[p - 1]] = actions[k]
            k += 1
        _, rewards, terminations, truncations, _ = par.step(step)
        done = all(terminations.values()) or all(truncations.values())
    assert k == len(actions) and par.state.hash() == aec.state.hash()
    assert sum(rewards.values()) == 0.0 and not par.agents


def test_the_other_mulligan_does_not_show() -> None:
    """player_1 mulligans first in the AEC environment: whatever it replaces, player_2's
    observation is the same."""
    seen = []
    for subset in (R.MULLIGAN_FIRST, R.MULLIGAN_FIRST + 7):  # keep all, replace three
        env = E.raw_env()
        env.reset(seed=12)
        assert env.agent_selection == "player_1"
        env.step(subset)
        assert env.agent_selection == "player_2"
        seen.append(env.observe("player_2")["observation"])
        assert env.observe("player_2")["action_mask"].any()
    assert np.array_equal(seen[0], seen[1])
