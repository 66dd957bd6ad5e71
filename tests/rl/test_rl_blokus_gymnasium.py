"""The Gymnasium environment: Gymnasium's `check_env` with warnings as errors, the opponents,
illegal indices, seeds, the registration (in fresh interpreters) and `gymnasium.vector`."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from importlib.metadata import entry_points
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from games.blokus import env as E
from games.blokus import rl_encoding as R
from server.games.blokus.room import BlokusGame


def masked(obs: dict[str, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(rng.choice(legal)) if len(legal) else 0


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    assert observation.shape == (R.OBSERVATION_SIZE,)
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("kwargs", [
    {},
    {"opponent": "greedy", "team": "TWO", "reward": "score"},
    {"opponent": "bots.blokus.bundled:RandomBot", "team": "random"},
    {"opponent": first_legal, "illegal_reward": -0.5},
])
def test_check_env(kwargs: dict[str, Any]) -> None:
    """Gymnasium's checker, on the environment `gymnasium.make` builds (so that it has a
    spec and the checker tries every render mode)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(E.ENV_ID, **kwargs)
        check_env(env.unwrapped)
        env.close()


def test_passive_checker_through_make() -> None:
    """`gymnasium.make` wraps in the passive checker, which warns on bad data: nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(E.ENV_ID)
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=1)
        for _ in range(200):
            obs, _, terminated, truncated, _ = env.step(masked(obs, rng))
            if terminated or truncated:
                obs, _ = env.reset()


def play(env: E.BlokusEnv, seed: int) -> tuple[list[int], float]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions, total = [], 0.0
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert obs["observation"][R.TO_MOVE] == 1
        action = masked(obs, rng)
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal"] and not truncated
        total += reward
        if terminated:
            assert not obs["action_mask"].any() and "points" in info
            return actions, total


@pytest.mark.parametrize("team", ["ONE", "TWO"])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_whole_games_and_rewards(team: str, opponent: str) -> None:
    for reward in ("win", "score"):
        env = E.BlokusEnv(opponent=opponent, team=team, reward=reward)
        actions, total = play(env, 3)
        points = env.state.result().points
        mine, theirs = (points[team], points["TWO" if team == "ONE" else "ONE"])
        assert total == (float(np.sign(mine - theirs)) if reward == "win" else mine - theirs)
        again = E.BlokusEnv(opponent=opponent, team=team, reward=reward)
        assert play(again, 3) == (actions, total)  # same seed, same game, move for move
        assert again.state == env.state


def test_reset_seed_is_the_server_game_seed() -> None:
    env = E.BlokusEnv()
    for seed in range(12):
        env.reset(seed=seed)
        assert env.state.start_piece == BlokusGame(seed=seed).state.start_piece


def test_illegal_index_gets_the_penalty_and_no_move() -> None:
    env = E.BlokusEnv(illegal_reward=-0.25)
    obs, _ = env.reset(seed=2)
    key = env.state._key()
    for action in (R.SKIP_ACTION, -3, R.ACTION_COUNT, "x", None, 1.5):
        after, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated, info["illegal"]) == (-0.25, False, False, True)
        assert info["reason"]
        assert env.state._key() == key
        assert np.array_equal(after["observation"], obs["observation"])
    assert "SKIP_FIRST_TURN" in env.step(R.SKIP_ACTION)[4]["reason"]


def test_step_after_the_end_does_not_raise() -> None:
    env = E.BlokusEnv()
    play(env, 1)
    _, reward, terminated, _, info = env.step(0)
    assert terminated and reward == 0.0 and info["illegal"]


def test_policy_and_bot_opponents() -> None:
    seen: list[tuple[int, int]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((int(observation[R.TO_MOVE]), int(mask.sum())))
        return int(np.flatnonzero(mask)[-1])

    env = E.BlokusEnv(opponent=policy, team="TWO")
    env.reset(seed=4)
    assert seen and seen[0][0] == 1 and env.state.current_team == "TWO"

    from bots.blokus import GreedyBot
    bot_env = E.BlokusEnv(opponent=GreedyBot(seed=1))
    play(bot_env, 5)

    def cheat(observation: np.ndarray, mask: np.ndarray) -> int:
        return R.SKIP_ACTION

    with pytest.raises(E.IllegalAction, match="the opponent"):
        E.BlokusEnv(opponent=cheat, team="TWO").reset(seed=1)
    with pytest.raises(ValueError, match="unknown opponent"):
        E.BlokusEnv(opponent="alphazero")
    with pytest.raises(ValueError, match="team"):
        E.BlokusEnv(team="RED")


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_make_with_the_module_in_a_fresh_interpreter() -> None:
    """Nothing of Gauntlet imported first: the id's module part imports it."""
    done = run("""
        import sys
        import gymnasium
        assert "games" not in sys.modules
        env = gymnasium.make("games.blokus.env:gauntlet/Blokus-v0", opponent="greedy")
        obs, info = env.reset(seed=1)
        print(env.unwrapped.__class__.__name__, obs["observation"].shape, info["color"])
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["BlokusEnv", "(1719,)", "BLUE"]


def test_the_entry_point_registers_in_its_namespace() -> None:
    """The `gymnasium.envs` entry point as Gymnasium 0.26-0.29 load it: called inside the
    namespace its name gives, it registers gauntlet/Blokus-v0 and gauntlet/Hearth-v0 and
    nothing else."""
    (point,) = [p for p in entry_points(group="gymnasium.envs") if p.name == "gauntlet"]
    assert point.value == "games.blokus.env:register_envs"
    done = run("""
        import warnings
        warnings.simplefilter("error")
        from importlib.metadata import entry_points
        import gymnasium
        from gymnasium.envs.registration import namespace
        before = set(gymnasium.registry)
        (point,) = [p for p in entry_points(group="gymnasium.envs") if p.name == "gauntlet"]
        with namespace(point.name):
            point.load()()   # (the import registers it too; this call must then be a no-op)
        print(sorted(set(gymnasium.registry) - before))
        gymnasium.make("gauntlet/Blokus-v0").reset(seed=0)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['gauntlet/Blokus-v0', 'gauntlet/Hearth-v0']"


def test_make_without_any_import_on_this_gymnasium() -> None:
    """`gymnasium.make("gauntlet/Blokus-v0")` with nothing imported: Gymnasium 1.0 removed
    entry-point loading, so it cannot find the id (docs/rl.md says what to write instead).
    Should a later Gymnasium load plugins again, this test says so."""
    done = run("""
        import gymnasium
        try:
            gymnasium.make("gauntlet/Blokus-v0")
        except gymnasium.error.Error as error:
            print("not found:", type(error).__name__)
        else:
            print("found")
    """)
    assert done.returncode == 0, done.stderr
    major = int(gymnasium.__version__.split(".")[0])
    expected = "not found: NamespaceNotFound" if major >= 1 else "found"
    assert done.stdout.strip() == expected, (
        "Gymnasium's plugin loading changed: update docs/rl.md and this test")


def test_importing_the_environments_leaves_server_protocols_and_bots_alone() -> None:
    done = run("""
        import sys
        import games.blokus.env, games.blokus.rl_batched
        print(sorted({m.split(".")[0] for m in sys.modules} & {"server", "protocols", "bots"}))
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("vector", [gymnasium.vector.SyncVectorEnv,
                                    gymnasium.vector.AsyncVectorEnv])
def test_vector_envs(vector: Any) -> None:
    envs = vector([lambda: gymnasium.make(E.ENV_ID) for _ in range(3)])
    try:
        obs, info = envs.reset(seed=[1, 2, 3])
        assert obs["observation"].shape == (3, R.OBSERVATION_SIZE)
        assert obs["action_mask"].shape == (3, R.ACTION_COUNT)
        single = E.BlokusEnv()
        for i, seed in enumerate((1, 2, 3)):
            alone, _ = single.reset(seed=seed)
            assert np.array_equal(alone["observation"], obs["observation"][i])
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(160):  # about 8 games each: through the auto-resets
            actions = [masked({"action_mask": m}, rng) for m in obs["action_mask"]]
            obs, rewards, terminated, truncated, info = envs.step(actions)
            assert not truncated.any()
            assert not info["illegal"].any()
            finished += int(terminated.sum())
            assert set(rewards[terminated].tolist()) <= {-1.0, 0.0, 1.0}
        assert finished >= 3
    finally:
        envs.close()
