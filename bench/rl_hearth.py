"""Learning-environment steps per second on the Hearth engine: the AEC, Parallel and
Gymnasium environments of `games.hearth.rl_env`, and the engine alone, in one run.

The AEC loop is the one a random agent runs (observe, mask, sample, step; dead agents'
`step(None)` counted as steps), once sampling with Gymnasium's `Discrete.sample(mask)` and
once with numpy (`flatnonzero` and one integer draw). The Gymnasium loop plays one seat
against the built-in random opponent (a step includes the opponent's replies). The engine
loop applies a random legal action with no observation or mask: the floor of what an
environment costs.

    .venv-bench/bin/python -m bench rl_hearth
    .venv-bench/bin/python -m bench.rl_hearth --rounds 5 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from games import hearth
from games.hearth import rl_env as E

Rate = tuple[float, float]  # steps per wall-clock second, per CPU second


def timed(run: Callable[[float], int], seconds: float) -> Rate:
    wall, cpu = time.perf_counter(), time.process_time()
    steps = run(seconds)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return steps / wall, steps / max(cpu, 1e-9)


def aec(numpy_sampling: bool) -> Callable[[float], int]:
    def run(seconds: float) -> int:
        env = E.env()
        rng = np.random.default_rng(0)
        steps, seed = 0, 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            env.reset(seed=seed)
            seed += 1
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    action = None
                elif numpy_sampling:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                else:
                    action = env.action_space(agent).sample(obs["action_mask"])
                env.step(action)
                steps += 1
        return steps
    return run


def parallel(seconds: float) -> int:
    env = E.parallel_env()
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        obs, _ = env.reset(seed=seed)
        seed += 1
        while env.agents:
            actions = {}
            for agent in env.agents:
                legal = np.flatnonzero(obs[agent]["action_mask"])
                actions[agent] = int(legal[rng.integers(len(legal))]) if len(legal) else 0
            obs = env.step(actions)[0]
            steps += 1
    return steps


def gym(seconds: float) -> int:
    env = E.HearthGymEnv()
    rng = np.random.default_rng(0)
    steps = 0
    obs, _ = env.reset(seed=0)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset()
    return steps


def engine(seconds: float) -> int:
    rng = random.Random(0)
    decks = E.class_decks()
    steps, seed = 0, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        g = hearth.new_game(seed=seed, decks=[rng.choice(decks), rng.choice(decks)],
                            turn_cap=E.TURN_CAP)
        seed += 1
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    return steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measure per round")
    args = parser.parse_args(argv if argv is not None else [])
    measures: dict[str, Callable[[float], int]] = {
        "AEC, Gymnasium sampling": aec(False),
        "AEC, numpy sampling": aec(True),
        "Parallel, numpy sampling": parallel,
        "Gymnasium HearthGymEnv vs random (a step = ours + the replies)": gym,
        "engine alone (random legal action, no observation or mask)": engine,
    }
    samples: dict[str, list[Rate]] = {name: [] for name in measures}
    for _ in range(args.rounds):
        for name, run in measures.items():
            samples[name].append(timed(run, args.seconds))
    print(f"Medians of {args.rounds} alternating rounds of {args.seconds:.1f} s, one process; "
          "the ten class decks, drawn per game:\n")
    print("| environment, loop | steps/s (wall) | steps/s (CPU) |")
    print("|---|---|---|")
    for name, values in samples.items():
        wall = statistics.median(v[0] for v in values)
        cpu = statistics.median(v[1] for v in values)
        print(f"| {name} | {wall:,.0f} | {cpu:,.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
