"""Blokus engine speed against blokus-rl 0.4.0 (Rust) and socha 5.1.0 (Rust), same run.

`make bench` (or `.venv-bench/bin/python -m bench blokus_engine`) measures, for each engine:

- legal-move generation at the start and in a mid-game position with about 270 moves
  (ours and socha on the same position; blokus-rl plays classic Blokus, so it gets its own
  random mid-game position with about as many moves, and the table also gives per-move
  figures);
- uniformly random games per second; ours four ways: `random_playout()`; the placements
  of `legal_moves()` + `apply()` (no voluntary pass, as blokus-rl's games); the loop a user
  writes first, `state.apply(random.choice(list(state.legal_moves())))` (SkipMove
  included); and the same loop with `push()`;
- the cost of a clone (socha's GameState cannot be copied from Python: n/a).

The machine is shared and noisy, so every figure is the median of several rounds, and the
rounds alternate between the engines so that load drift hits all of them alike. A peer
that is not installed is reported as such, the others still run.

    .venv-bench/bin/python -m bench blokus_engine
    .venv-bench/bin/python -m bench.blokus_engine --rounds 9 --seconds 1.5
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games import blokus
from games.blokus import SetMove

MID_GAME_MOVES = 270
TARGET_MID_GAME_US = 150.0
TARGET_PLAYOUT_RATIO = 2.0


@dataclass
class Figures:
    """Per engine: metric -> list of samples (seconds per operation, or rates)."""

    samples: dict[str, list[float]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def add(self, metric: str, values: tuple[float, float]) -> None:
        """Record a (wall clock, CPU time) sample; CPU figures go under "<metric>/cpu"."""
        self.samples.setdefault(metric, []).append(values[0])
        self.samples.setdefault(metric + "/cpu", []).append(values[1])

    def median(self, metric: str) -> float | None:
        values = self.samples.get(metric)
        return statistics.median(values) if values else None


def per_call(fn: Callable[[], object], seconds: float) -> tuple[float, float]:
    """(wall, CPU) seconds per call of `fn`, calling it for about `seconds` (>= 3 calls)."""
    fn()
    calls = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    elapsed = 0.0
    while calls < 3 or elapsed < seconds:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
    return elapsed / calls, (time.process_time() - cpu_start) / calls


def rate(play_one: Callable[[int], object], seconds: float, first_seed: int) -> tuple[float, float]:
    """(wall, CPU) games per second of `play_one(seed)`, for about `seconds` (>= 2 games)."""
    games = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    elapsed = 0.0
    while games < 2 or elapsed < seconds:
        play_one(first_seed + games)
        games += 1
        elapsed = time.perf_counter() - start
    return games / elapsed, games / (time.process_time() - cpu_start)


# --------------------------------------------------------------------------------------
# ours


def our_mid_game() -> blokus.State:
    """A seeded random position where the colour to move has about 270 placements."""
    best: tuple[int, blokus.State] | None = None
    for seed in range(200):
        rng = random.Random(seed)
        state = blokus.new_game(seed=seed)
        while not state.is_over and state.turn < 40:
            placements = [m for m in state.legal_moves() if isinstance(m, SetMove)]
            state.apply(rng.choice(placements))
            if state.turn >= 16:
                gap = abs(state.legal_placement_count() - MID_GAME_MOVES)
                if best is None or gap < best[0]:
                    best = (gap, state.clone())
                if gap <= 3:
                    return state
    assert best is not None
    return best[1]


POOL_SIZE = 40
POOL_RANGE = (250, 290)


def our_mid_pool() -> list[blokus.State]:
    """Distinct mid-game positions with 250-290 placements, one per seeded game: a search
    visits a new position at every call, so caches are cold, unlike one position repeated."""
    pool: list[blokus.State] = []
    seed = 0
    while len(pool) < POOL_SIZE:
        rng = random.Random(5000 + seed)
        state = blokus.new_game(seed=5000 + seed)
        seed += 1
        while not state.is_over and state.turn < 40:
            state.apply(rng.choice([m for m in state.legal_moves() if isinstance(m, SetMove)]))
            if state.turn >= 16 and POOL_RANGE[0] <= state.legal_placement_count() <= POOL_RANGE[1]:
                pool.append(state.clone())
                break
    return pool


def cycling(items: list[Any], fn: Callable[[Any], object]) -> Callable[[], object]:
    """One call of `fn` per call, on the next item of `items` round-robin."""
    it = itertools.cycle(items)
    return lambda: fn(next(it))


def our_api_game(seed: int) -> blokus.State:
    """Placements only, as blokus-rl's games (they have no voluntary pass)."""
    rng = random.Random(seed)
    state = blokus.new_game(seed=seed)
    while not state.is_over:
        moves = [m for m in state.legal_moves() if isinstance(m, SetMove)]
        state.apply(rng.choice(moves))
    return state


def our_user_loop_game(seed: int) -> blokus.State:
    """The loop a user writes first: any legal move, SkipMove included, validated."""
    rng = random.Random(seed)
    state = blokus.new_game(seed=seed)
    while not state.is_over:
        state.apply(rng.choice(list(state.legal_moves())))
    return state


def our_push_game(seed: int) -> blokus.State:
    """The same loop with `push()`, which trusts moves from `legal_moves()`."""
    rng = random.Random(seed)
    state = blokus.new_game(seed=seed)
    while not state.is_over:
        state.push(rng.choice(list(state.legal_moves())))
    return state


def our_playout(seed: int) -> blokus.State:
    return blokus.random_playout(blokus.new_game(seed=seed), random.Random(seed))


# --------------------------------------------------------------------------------------
# blokus-rl (classic Blokus: corner starts, 21 pieces, no start piece)


# numpy, which blokus-rl brings along (imported with it; the product environment has none).
np: Any = None


def rl_engine() -> Any | None:
    global np
    try:
        from blokus_rl._blokus import PyBlokus
    except ImportError:
        return None
    np = importlib.import_module("numpy")
    return PyBlokus


def rl_legal(env: Any) -> list[int]:
    mask = np.frombuffer(env.observe(env.agent_selection).action_mask, dtype=np.int8)
    return np.flatnonzero(mask).tolist()


def rl_game(engine: Any, seed: int) -> Any:
    rng = random.Random(seed)
    env = engine()
    while not env.is_over:
        if env.terminations[env.agent_selection]:
            env.step(None)  # out of moves: its turns pass
            continue
        env.step(rng.choice(rl_legal(env)))
    return env


def rl_mid_pool(engine: Any) -> list[Any]:
    pool: list[Any] = []
    seed = 0
    while len(pool) < POOL_SIZE and seed < 2000:
        rng = random.Random(5000 + seed)
        env = engine()
        seed += 1
        while not env.is_over and env.ply < 40:
            if env.terminations[env.agent_selection]:
                env.step(None)
                continue
            env.step(rng.choice(rl_legal(env)))
            if (env.ply >= 16 and not env.terminations[env.agent_selection]
                    and POOL_RANGE[0] <= len(rl_legal(env)) <= POOL_RANGE[1]):
                pool.append(env.copy())
                break
    return pool


def rl_mid_game(engine: Any) -> tuple[Any, int]:
    best: tuple[int, Any, int] | None = None
    for seed in range(200):
        rng = random.Random(seed)
        env = engine()
        while not env.is_over and env.ply < 40:
            if env.terminations[env.agent_selection]:
                env.step(None)
                continue
            env.step(rng.choice(rl_legal(env)))
            if env.ply >= 16 and not env.terminations[env.agent_selection]:
                count = len(rl_legal(env))
                gap = abs(count - MID_GAME_MOVES)
                if best is None or gap < best[0]:
                    best = (gap, env.copy(), count)
                if gap <= 3:
                    return env, count
    assert best is not None
    return best[1], best[2]


# --------------------------------------------------------------------------------------
# socha (the official 2027 client's Rust engine; same rules as ours)


def socha_module() -> Any | None:
    """`bench.socha_adapter` (our state <-> socha), or None if socha is not installed."""
    try:
        from bench import socha_adapter
    except ImportError:
        return None
    return socha_adapter


def socha_state(adapter: Any, state: blokus.State) -> Any:
    """A socha GameState with the board, shapes, turn and valid colours of `state`."""
    return adapter.socha_state_of(state)


def socha_moves(adapter: Any, theirs: Any) -> list[Any]:
    return adapter.socha_legal_pieces(theirs)


def socha_game(adapter: Any, seed: int) -> Any:
    rng = random.Random(seed)
    socha = adapter.socha
    theirs = adapter.new_socha_game(rng.choice(blokus.PENTOMINOES))
    logic = socha.GameRuleLogic
    while not theirs.is_over():
        pieces = adapter.socha_legal_pieces(theirs)
        logic.perform_move(theirs, socha.Move.set_move(rng.choice(pieces)))
        logic.remove_invalid_colors(theirs)
    return theirs


# --------------------------------------------------------------------------------------
# the run


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def fmt_rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}/s"


def ratio(ours: float | None, theirs: float | None, higher_is_better: bool) -> str:
    if ours is None or theirs is None or ours == 0 or theirs == 0:
        return "n/a"
    factor = ours / theirs if higher_is_better else theirs / ours
    return f"{factor:.2f}x"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median)")
    parser.add_argument("--seconds", type=float, default=1.0, help="per metric per round")
    args = parser.parse_args(argv if argv is not None else [])

    engine = rl_engine()
    socha = socha_module()
    ours, rl, official = Figures(), Figures(), Figures()

    start = blokus.new_game("PENTO_W")
    mid = our_mid_game()
    mid_count = mid.legal_placement_count()
    pool = our_mid_pool()
    # What a search visits: positions one move after the mid-game one (the next colour).
    children = []
    for move in list(mid.legal_moves())[:: max(1, mid_count // POOL_SIZE)][:POOL_SIZE]:
        child = mid.clone()
        child.apply(move)
        children.append(child)
    children_moves = round(sum(c.legal_placement_count() for c in children) / len(children))
    start_count = start.legal_placement_count()
    # Warm the lazily built candidate tables and the shared move objects (one-off, about
    # a second) before timing, as a long-running server or search has them.
    for seed in range(300):
        our_playout(10_000 + seed)
        our_user_loop_game(20_000 + seed)

    rl_start: Any = None
    rl_mid: Any = None
    rl_pool: list[Any] = []
    rl_start_count = rl_mid_count = 0
    if engine is not None:
        rl_start = engine()
        rl_start_count = len(rl_legal(rl_start))
        rl_mid, rl_mid_count = rl_mid_game(engine)
        rl_pool = rl_mid_pool(engine)
    socha_start = socha_mid = None
    if socha is not None:
        socha_start = socha_state(socha, start)
        socha_mid = socha_state(socha, mid)

    budget = args.seconds
    for round_ in range(args.rounds):
        seed = 1000 * (round_ + 1)
        ours.add("start", per_call(lambda: list(start.legal_moves()), budget / 4))
        ours.add("mid", per_call(lambda: list(mid.legal_moves()), budget / 4))
        ours.add("pool", per_call(cycling(pool, lambda s: list(s.legal_moves())), budget / 4))
        ours.add("children",
                 per_call(cycling(children, lambda s: list(s.legal_moves())), budget / 4))
        ours.add("clone", per_call(mid.clone, budget / 8))
        ours.add("playouts", rate(our_playout, budget, seed))
        ours.add("api_games", rate(our_api_game, budget, seed))
        ours.add("user_loop", rate(our_user_loop_game, budget, seed))
        ours.add("push_loop", rate(our_push_game, budget, seed))
        if engine is not None:
            rl.add("start", per_call(lambda: rl_legal(rl_start), budget / 4))
            rl.add("mid", per_call(lambda: rl_legal(rl_mid), budget / 4))
            rl.add("pool", per_call(cycling(rl_pool, rl_legal), budget / 4))
            rl.add("clone", per_call(rl_mid.copy, budget / 8))
            rl.add("playouts", rate(lambda s: rl_game(engine, s), budget, seed))
        if socha is not None:
            official.add("start", per_call(lambda: socha_moves(socha, socha_start), budget / 4))
            official.add("mid", per_call(lambda: socha_moves(socha, socha_mid), budget / 4))
            official.add("playouts", rate(lambda s: socha_game(socha, s), budget, seed))

    rl_name = "blokus-rl 0.4.0" if engine is not None else "blokus-rl (not installed)"
    socha_name = "socha 5.1.0" if socha is not None else "socha (not installed)"
    counts = (start_count, rl_start_count, start_count), (mid_count, rl_mid_count, mid_count)
    for clock, suffix in (("wall clock (perf_counter)", ""), ("CPU time (process_time)", "/cpu")):
        print(f"Medians of {args.rounds} alternating rounds, {clock}:\n")
        print_table(ours, rl, official, suffix, rl_name, socha_name, counts, children_moves)
        print()
    mid_us = (ours.median("mid") or 0) * 1e6
    mid_cpu_us = (ours.median("mid/cpu") or 0) * 1e6
    pool_us = (ours.median("pool") or 0) * 1e6
    rl_p = rl.median("playouts")

    def versus_rl(key: str) -> str:
        value = ours.median(key)
        return "n/a" if rl_p is None or value is None else f"{value / rl_p:.2f}x"

    print(
        f"Targets: mid-game generation <= {TARGET_MID_GAME_US:.0f} µs: "
        f"{mid_us:.0f} µs wall, {mid_cpu_us:.0f} µs CPU on one position listed again and again, "
        f"{pool_us:.0f} µs wall over {len(pool)} unrelated positions; random games >= "
        f"{TARGET_PLAYOUT_RATIO:.0f}x blokus-rl: {versus_rl('playouts')} with "
        f"`random_playout()`, {versus_rl('user_loop')} with "
        f"`apply(random.choice(list(legal_moves())))` (wall clock)"
    )
    print(
        "Random games pick uniformly among the legal moves on every engine (the user loop "
        "includes SkipMove, the other rows of ours placements only); ours warm their lazily "
        "built tables first (300 playouts and 300 user-loop games)."
    )


def print_table(
    ours: Figures,
    rl: Figures,
    official: Figures,
    suffix: str,
    rl_name: str,
    socha_name: str,
    counts: tuple[tuple[int, int, int], tuple[int, int, int]],
    children_moves: int,
) -> None:
    start_count, rl_start_count, _ = counts[0]
    mid_count, rl_mid_count, _ = counts[1]
    rows: list[tuple[str, str, tuple[int, int, int] | None]] = [
        (
            f"legal moves, start (ours/socha {start_count}, blokus-rl {rl_start_count})",
            "start",
            counts[0],
        ),
        (
            f"legal moves, mid-game (ours/socha {mid_count}, blokus-rl {rl_mid_count})",
            "mid",
            counts[1],
        ),
        (
            f"legal moves, {POOL_SIZE} different mid-game positions "
            f"({POOL_RANGE[0]}-{POOL_RANGE[1]} moves each)",
            "pool",
            None,
        ),
        (
            f"legal moves, {POOL_SIZE} positions one move after the mid-game one "
            f"(as a search visits; ours about {children_moves} moves each)",
            "children",
            None,
        ),
        ("clone", "clone", None),
    ]
    print(f"| metric | ours | {rl_name} | ours vs blokus-rl | {socha_name} | ours vs socha |")
    print("|---|---|---|---|---|---|")
    for label, key, n in rows:
        a, b, c = (f.median(key + suffix) for f in (ours, rl, official))
        print(
            f"| {label} | {fmt_time(a)} | {fmt_time(b)} | {ratio(a, b, False)} "
            f"| {fmt_time(c)} | {ratio(a, c, False)} |"
        )
        if n:
            per = [
                None if v is None or k == 0 else v / k for v, k in zip((a, b, c), n, strict=True)
            ]
            print(
                f"| ↳ per move | {fmt_time(per[0])} | {fmt_time(per[1])} | "
                f"{ratio(per[0], per[1], False)} | {fmt_time(per[2])} | "
                f"{ratio(per[0], per[2], False)} |"
            )
    rl_p, so_p = rl.median("playouts" + suffix), official.median("playouts" + suffix)
    for label, key in (
        ("random games, `random_playout()`", "playouts"),
        ("random games, placements of `legal_moves()` + `apply()`", "api_games"),
        ("random games, `apply(choice(list(legal_moves())))`", "user_loop"),
        ("random games, `push(choice(list(legal_moves())))`", "push_loop"),
    ):
        value = ours.median(key + suffix)
        print(
            f"| {label} | {fmt_rate(value)} | {fmt_rate(rl_p)} | {ratio(value, rl_p, True)} "
            f"| {fmt_rate(so_p)} | {ratio(value, so_p, True)} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
