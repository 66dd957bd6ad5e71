"""Hearth's Gymnasium environment: Gymnasium's `check_env` with warnings as errors, the
opponents, illegal indices, seeds, the registration (in fresh interpreters) and
`gymnasium.vector`."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from games.hearth import rl_encoding as R
from games.hearth import rl_env as E


def masked(obs: dict[str, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(rng.choice(legal)) if len(legal) else 0


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    assert observation.shape == (R.OBSERVATION_SIZE,)
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("kwargs", [
    {},
    {"opponent": "hearth-greedy", "seat": 2},
    {"opponent": "bots.hearth.bundled:RandomBot", "seat": "random", "decks": ["druid"]},
    {"opponent": first_legal, "illegal_reward": -0.5, "turn_cap": 10},
])
def test_check_env(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(E.ENV_ID, **kwargs)
        check_env(env.unwrapped)
        env.close()


def test_passive_checker_through_make() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(E.ENV_ID, opponent="greedy")
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=1)
        games = 0
        for _ in range(300):
            obs, _, terminated, truncated, _ = env.step(masked(obs, rng))
            if terminated or truncated:
                games += 1
                obs, _ = env.reset()
        assert games >= 1


def play(env: E.HearthGymEnv, seed: int) -> tuple[list[int], float, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions: list[int] = []
    total = 0.0
    while True:
        assert np.array_equal(obs["action_mask"], R.action_mask(env.state, env.player))
        action = masked(obs, rng)
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal"]
        total += float(reward)
        if terminated or truncated:
            return actions, total, info


@pytest.mark.parametrize("opponent", ["random", "hearth-greedy"])
def test_a_seed_replays_the_game(opponent: str) -> None:
    one, two = E.HearthGymEnv(opponent), E.HearthGymEnv(opponent)
    a1, r1, i1 = play(one, 6)
    a2, r2, i2 = play(two, 6)
    assert a1 == a2 and r1 == r2 and one.state.hash() == two.state.hash()
    winner = i1["winner"]
    assert r1 == (0.0 if winner == 0 else 1.0 if winner == one.player else -1.0)
    assert (i1["winner"], i1["result"]) == (i2["winner"], i2["result"])


def test_rewards_win_and_loss() -> None:
    env = E.HearthGymEnv("hearth-greedy", seat="random")
    seen = set()
    for seed in range(6):
        _, total, info = play(env, seed)
        winner = info["winner"]
        expected = 0.0 if winner == 0 else 1.0 if winner == env.player else -1.0
        assert total == expected
        seen.add(total)
    assert -1.0 in seen  # the greedy bot beats random play


def test_an_illegal_index_is_a_penalty_and_no_move() -> None:
    env = E.HearthGymEnv(illegal_reward=-0.25)
    obs, _ = env.reset(seed=3)
    before = env.state.hash()
    for bad in (R.END_TURN_ACTION, R.ACTION_COUNT, -1, 2.5):
        obs2, reward, terminated, truncated, info = env.step(bad)
        assert (reward, terminated, truncated, info["illegal"]) == (-0.25, False, False, True)
        assert info["reason"]
        assert np.array_equal(obs2["observation"], obs["observation"])
    assert env.state.hash() == before


def test_a_step_after_the_end() -> None:
    env = E.HearthGymEnv()
    play(env, 2)
    _, reward, terminated, _, info = env.step(0)
    assert reward == 0.0 and terminated and info["illegal"]


def test_truncation_at_the_turn_cap() -> None:
    env = E.HearthGymEnv(turn_cap=5)
    obs, _ = env.reset(seed=0)
    while True:
        mask = obs["action_mask"]
        action = R.END_TURN_ACTION if mask[R.END_TURN_ACTION] else int(np.flatnonzero(mask)[0])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0 and info["result"] == "turn cap"


def test_a_bot_object_and_a_policy_opponent() -> None:
    from bots.hearth.bundled import GreedyBot

    calls = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(int(mask.sum()))
        return first_legal(observation, mask)

    for opponent in (GreedyBot(seed=1), policy):
        env = E.HearthGymEnv(opponent, seat=2)
        play(env, 4)
    assert calls and all(n > 0 for n in calls)
    with pytest.raises(ValueError, match="unknown opponent"):
        E.HearthGymEnv("nobody")
    with pytest.raises(ValueError, match="seat"):
        E.HearthGymEnv(seat=3)


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_make_with_the_module_in_a_fresh_interpreter() -> None:
    done = run("""
        import sys
        import gymnasium
        assert "games" not in sys.modules
        env = gymnasium.make("games.hearth.rl_env:gauntlet/Hearth-v0", opponent="greedy")
        obs, info = env.reset(seed=1)
        print(env.unwrapped.__class__.__name__, obs["observation"].shape, info["player"])
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["HearthGymEnv", "(244,)", "1"]


def test_the_blokus_import_registers_hearth_by_name() -> None:
    """The package's entry point (games.blokus.env:register_envs) registers Hearth's id
    without importing the Hearth engine; make imports it."""
    done = run("""
        import sys
        import gymnasium
        import games.blokus.env
        print("games.hearth.rl_env" in sys.modules)
        env = gymnasium.make("gauntlet/Hearth-v0")
        env.reset(seed=0)
        print("games.hearth.rl_env" in sys.modules)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


def test_importing_the_environments_leaves_server_protocols_and_bots_alone() -> None:
    done = run("""
        import sys
        import games.hearth.rl_env, games.hearth.rl_encoding
        print(sorted({m.split(".")[0] for m in sys.modules} & {"server", "protocols", "bots"}))
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("vector", [gymnasium.vector.SyncVectorEnv,
                                    gymnasium.vector.AsyncVectorEnv])
def test_vector_envs(vector: Any) -> None:
    envs = vector([lambda: gymnasium.make(E.ENV_ID) for _ in range(3)])
    try:
        obs, _ = envs.reset(seed=[1, 2, 3])
        assert obs["observation"].shape == (3, R.OBSERVATION_SIZE)
        assert obs["action_mask"].shape == (3, R.ACTION_COUNT)
        single = E.HearthGymEnv()
        for i, seed in enumerate((1, 2, 3)):
            alone, _ = single.reset(seed=seed)
            assert np.array_equal(alone["observation"], obs["observation"][i])
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(400):
            actions = [masked({"action_mask": m}, rng) for m in obs["action_mask"]]
            obs, rewards, terminated, truncated, _ = envs.step(actions)
            finished += int(terminated.sum() + truncated.sum())
            assert set(rewards[terminated].tolist()) <= {-1.0, 0.0, 1.0}
        assert finished >= 3
    finally:
        envs.close()
