"""Learning-environment steps per second: our Blokus AEC and batched environments against
blokus-rl 0.4.0's PettingZoo environment (Rust engine, classic rules), same run, same loop.

The loop is the one a random agent runs on a PettingZoo environment, the observation and
the mask built at every step:

    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()        # observe, mask
        action = None if terminated or truncated else \\
            env.action_space(agent).sample(obs["action_mask"])       # sample
        env.step(action)                                             # step

A second loop samples with numpy instead of Gymnasium's `Discrete.sample(mask)` (one
`flatnonzero` and one integer draw; on a 30,000-entry mask Gymnasium's checks cost more
than some environments' steps). Both environments get both loops; "steps" are the
`step()` calls, dead agents' `step(None)` included. The batched environment
(`BatchedBlokusEnv`, one process, so per core) builds every game's observation and mask
each step and samples from the legal action lists. The plain engine loop (`push` of a
random legal move, no observation, no mask) is the floor of what an environment costs.

Then a profile of where one AEC step's time goes (cProfile over whole games, and the
parts timed alone on the same positions).

    .venv-bench/bin/python -m bench rl_blokus
    .venv-bench/bin/python -m bench.rl_blokus --rounds 5 --seconds 2 --batch 64
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from games import blokus
from games.blokus import env as blokus_env
from games.blokus import rl_encoding as R
from games.blokus.rl_batched import BatchedBlokusEnv

TARGET_AEC = 1.0  # at least blokus-rl's steps/s (2x is the goal)
TARGET_BATCHED = 3.0  # at least 3x blokus-rl per core


def rl_env() -> Any | None:
    """blokus-rl's PettingZoo environment, or None if it is not installed."""
    try:
        from blokus_rl import BlokusEnv
    except ImportError:
        return None
    return BlokusEnv


Rate = tuple[float, float]  # (per wall-clock second, per CPU second)


def aec_rate(make: Callable[[], Any], seconds: float, numpy_sampling: bool) -> Rate:
    """`step()` calls per second of the random-agent loop, whole games, for `seconds`."""
    env = make()
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            elif numpy_sampling:
                legal = np.flatnonzero(obs["action_mask"].view(bool))
                action = int(legal[rng.integers(len(legal))])
            else:
                action = env.action_space(agent).sample(obs["action_mask"])
            env.step(action)
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, steps / (time.process_time() - cpu)
        env.reset()


def batched_rate(size: int, seconds: float) -> Rate:
    """Game steps per second of `BatchedBlokusEnv(size)`: steps x games."""
    batch = BatchedBlokusEnv(size, seed=1)
    batch.reset()
    rng = np.random.default_rng(0)
    calls = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        batch.step(batch.sample(rng))
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and calls >= 3:
            return calls * size / elapsed, calls * size / (time.process_time() - cpu)


def engine_rate(seconds: float) -> Rate:
    """Moves per second of `push(choice(list(legal_moves())))`: no observation, no mask."""
    rng = random.Random(0)
    moves = 0
    seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        state = blokus.new_game(seed=seed)
        seed += 1
        while not state.is_over:
            state.push(rng.choice(list(state.legal_moves())))
            moves += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return moves / elapsed, moves / (time.process_time() - cpu)


def warm_up() -> None:
    """The engine's candidate tables fill on first use (a long run has them): 300 games."""
    for seed in range(300):
        blokus.random_playout(blokus.new_game(seed=10_000 + seed), random.Random(seed))
    batch = BatchedBlokusEnv(8, seed=50_000)
    batch.reset()
    rng = np.random.default_rng(1)
    for _ in range(400):
        batch.step(batch.sample(rng))


def profile(games: int) -> str:
    """cProfile of the Gymnasium-sampling AEC loop over `games` games: the top functions."""
    env = blokus_env.env()
    env.reset(seed=3)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(games):
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated
                     else env.action_space(agent).sample(obs["action_mask"]))
        env.reset()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(12)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join(lines[start:])


def parts(games: int) -> list[tuple[str, float]]:
    """Microseconds per step of each part of an AEC step, timed alone on the positions of
    `games` random games."""
    rng = np.random.default_rng(5)
    positions: list[tuple[blokus.State, int]] = []
    for seed in range(games):
        state = blokus.new_game(seed=20_000 + seed)
        while not state.is_over:
            legal = R.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
            positions.append((state.clone(), action))
            state.push(R.move_of(action, state))
    space = blokus_env.action_space()
    space.seed(0)
    masks = [R.action_mask(state) for state, _ in positions]

    def each(fn: Callable[[int], object]) -> float:
        """The median of 5 passes over the positions (the first warms the caches)."""
        passes = []
        for _ in range(5):
            start = time.perf_counter()
            for i in range(len(positions)):
                fn(i)
            passes.append((time.perf_counter() - start) / len(positions) * 1e6)
        return statistics.median(passes)

    def push(i: int) -> None:
        state, action = positions[i]
        state = state.clone()
        state.push(R.move_of(action, state))

    def clone(i: int) -> None:
        positions[i][0].clone()

    table = [
        ("legal placements (`State._placement_ids`)",
         each(lambda i: positions[i][0]._placement_ids(positions[i][0].turn % 4))),
        ("mask from them (`action_mask`, listing included)",
         each(lambda i: R.action_mask(positions[i][0]))),
        ("observation (`observe`)", each(lambda i: R.observe(positions[i][0], "ONE"))),
        ("Gymnasium `Discrete.sample(mask)`", each(lambda i: space.sample(masks[i]))),
        ("numpy sampling (`flatnonzero` + draw)",
         each(lambda i: np.flatnonzero(masks[i].view(bool))[0])),
    ]
    clone_cost = each(clone)
    table.append(("`push` of the move (a clone's cost taken off)", each(push) - clone_cost))
    return table


def median_rates(rounds: int, measures: dict[str, Callable[[], Rate]]) -> dict[str, Rate]:
    """Each measure `rounds` times, alternating between them; the medians (wall, CPU)."""
    samples: dict[str, list[Rate]] = {name: [] for name in measures}
    for _ in range(rounds):
        for name, measure in measures.items():
            samples[name].append(measure())
    return {name: (statistics.median(v[0] for v in values),
                   statistics.median(v[1] for v in values))
            for name, values in samples.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measure per round")
    parser.add_argument("--batch", type=int, default=64, help="games of the batched env")
    parser.add_argument("--profile-games", type=int, default=100)
    args = parser.parse_args(argv if argv is not None else [])

    theirs = rl_env()
    warm_up()
    seconds = args.seconds
    measures: dict[str, Callable[[], Rate]] = {
        "ours, AEC, Gymnasium sampling": lambda: aec_rate(blokus_env.env, seconds, False),
        "ours, AEC, numpy sampling": lambda: aec_rate(blokus_env.env, seconds, True),
        f"ours, batched ({args.batch} games), legal-list sampling":
            lambda: batched_rate(args.batch, seconds),
        "ours, engine alone (`push`, no observation or mask)": lambda: engine_rate(seconds),
    }
    if theirs is not None:
        measures["blokus-rl 0.4.0, AEC, Gymnasium sampling"] = \
            lambda: aec_rate(lambda: theirs(seed=0), seconds, False)
        measures["blokus-rl 0.4.0, AEC, numpy sampling"] = \
            lambda: aec_rate(lambda: theirs(seed=0), seconds, True)
    rates = median_rates(args.rounds, measures)

    rl_gym = rates.get("blokus-rl 0.4.0, AEC, Gymnasium sampling")
    rl_np = rates.get("blokus-rl 0.4.0, AEC, numpy sampling")
    print(f"Medians of {args.rounds} alternating rounds of {seconds:.1f} s, one process; steps "
          "per wall-clock second and per CPU second, each against blokus-rl's loop with the "
          "same sampling:\n")
    print("| environment, loop | steps/s (wall) | vs blokus-rl | steps/s (CPU) | vs blokus-rl |")
    print("|---|---|---|---|---|")
    for name, (wall, cpu) in rates.items():
        versus = rl_np if "numpy" in name or "batched" in name else rl_gym
        if versus is None or name.startswith("blokus-rl") or "engine" in name:
            factors = ("n/a", "n/a")
        else:
            factors = (f"{wall / versus[0]:.2f}x", f"{cpu / versus[1]:.2f}x")
        print(f"| {name} | {wall:,.0f} | {factors[0]} | {cpu:,.0f} | {factors[1]} |")
    if theirs is None:
        print("\nblokus-rl is not installed here (bench/requirements.txt): no side-by-side figure.")
    aec = rates["ours, AEC, Gymnasium sampling"]
    batched = rates[f"ours, batched ({args.batch} games), legal-list sampling"]
    if rl_gym is not None and rl_np is not None:
        print(f"\nTargets (CPU time): AEC >= {TARGET_AEC:.0f}x blokus-rl (2x the goal): "
              f"{aec[1] / rl_gym[1]:.2f}x; batched >= {TARGET_BATCHED:.0f}x blokus-rl per core: "
              f"{batched[1] / rl_np[1]:.2f}x of its numpy-sampling loop, "
              f"{batched[1] / rl_gym[1]:.2f}x of its Gymnasium-sampling loop.")

    print("\nWhere an AEC step's time goes, each part timed alone on the positions of 40 "
          "random games (µs per step, median of 5 passes):\n")
    print("| part | µs |")
    print("|---|---|")
    for label, micros in parts(40):
        print(f"| {label} | {micros:.1f} |")
    print(f"| the whole AEC step, Gymnasium sampling (1e6 / CPU rate) | {1e6 / aec[1]:.1f} |")
    print(f"\ncProfile of {args.profile_games} games of the Gymnasium-sampling AEC loop "
          "(top 12 by own time):\n")
    print("```text")
    print(profile(args.profile_games))
    print("```")


if __name__ == "__main__":
    main(sys.argv[1:])
