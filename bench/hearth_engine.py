"""Hearth engine speed against fireplace2, measured in the same run.

`make bench` (or `python -m bench hearth_engine`) plays uniformly random full games with the
two basic decks (`hearth.new_game(seed)` defaults), history off and on, measures `clone()` at
mid-game, then runs `bench/fireplace_peer.py` in its own venv (`.venv-fireplace`, created
here on first use from `bench/fireplace-requirements.txt`) for fireplace2's random games/s
and `copy.deepcopy(game)` cost, and prints a markdown table with the ratios and targets::

    .venv/bin/python -m bench.hearth_engine                 # defaults
    .venv/bin/python -m bench.hearth_engine --games 300 --fireplace-games 100

The random agent is the same on both sides: at every decision, one of all legal options,
uniformly (ours: `state.legal_actions()`, which also lists board positions; fireplace: every
play x target, hero power x target, attack x target and end turn). Ratios are computed on
wall time and on CPU time; the machine is shared, so CPU time is the steadier of the two.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT / "bench" / "fireplace_peer.py"
REQUIREMENTS = ROOT / "bench" / "fireplace-requirements.txt"
FIREPLACE_VENV = ROOT / ".venv-fireplace"
STAMP = FIREPLACE_VENV / ".installed"

TARGET_SPEEDUP = 20.0
TARGET_CLONE_MS = 1.0
ACTION_CAP = 5000  # per game; a random game that reaches it is reported, never seen in practice
PEER_TIMEOUT_S = 1800
INSTALL_TIMEOUT_S = 900


@dataclass(frozen=True, slots=True)
class Playout:
    games: int
    seconds: float
    cpu_seconds: float
    actions: int
    capped: int

    def __add__(self, other: Playout) -> Playout:
        return Playout(
            self.games + other.games,
            self.seconds + other.seconds,
            self.cpu_seconds + other.cpu_seconds,
            self.actions + other.actions,
            self.capped + other.capped,
        )

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def games_per_cpu_s(self) -> float:
        return self.games / self.cpu_seconds

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games


# --------------------------------------------------------------------------------------
# our engine


Decks = list[tuple[str, list[str]]]  # (hero, 30 card ids) for player 1, then player 2


def random_playout(seed: int, history: bool, decks: Decks | None = None) -> tuple[Any, int]:
    """One uniformly random full game; returns (final state, number of actions)."""
    from games import hearth

    state = hearth.new_game(seed=seed, history=history, decks=decks)
    rng = random.Random(seed)
    actions = 0
    while not state.is_over and actions < ACTION_CAP:
        state.apply(rng.choice(state.legal_actions()))
        actions += 1
    return state, actions


def measure_games(
    n_games: int, seed: int, history: bool, pairs: list[Decks] | None = None
) -> Playout:
    """`n_games` random games from seeds `seed`, `seed + 1`, ... (0 games = nothing timed);
    game i plays `pairs[i % len(pairs)]` if given (as the peer does), else the default decks."""
    actions = capped = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(n_games):
        decks = pairs[(seed + i) % len(pairs)] if pairs else None
        state, n = random_playout(seed + i, history, decks)
        actions += n
        capped += not state.is_over
    return Playout(
        n_games, time.perf_counter() - start, time.process_time() - cpu_start, actions, capped
    )


def measure_clone(
    seed: int,
    mid_actions: int,
    states: int = 5,
    batches: int = 5,
    batch: int = 100,
    pairs: list[Decks] | None = None,
) -> float:
    """µs per `state.clone()` at `mid_actions` random actions into a game.

    Per state the best of a few batches (as `timeit` advises: the others only add the
    machine's noise), then the median over states; fireplace_peer.py does the same.
    """
    from games import hearth

    samples: list[float] = []
    attempt = 0
    while len(samples) < states and attempt < states * 10:
        attempt += 1
        decks = pairs[attempt % len(pairs)] if pairs else None
        state = hearth.new_game(seed=seed + attempt, decks=decks)
        rng = random.Random(seed + attempt)
        for _ in range(mid_actions):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        best = float("inf")
        for _ in range(batches):
            begin = time.perf_counter_ns()
            for _ in range(batch):
                state.clone()
            best = min(best, (time.perf_counter_ns() - begin) / batch / 1000)
        samples.append(best)
    if not samples:
        raise RuntimeError("no random game lasted to mid-game")
    return statistics.median(samples)


# --------------------------------------------------------------------------------------
# the fireplace peer


def ensure_fireplace_venv() -> Path:
    """Creates or refreshes `.venv-fireplace`; skipped while its stamp matches the pins."""
    python = FIREPLACE_VENV / "bin" / "python"
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if python.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return python
    print(f"creating {FIREPLACE_VENV.name} (fireplace2 and its pinned data) ...", flush=True)
    if not python.exists():
        interpreter = os.environ.get("PYTHON", "python3.11")
        _run([interpreter, "-m", "venv", str(FIREPLACE_VENV)])
    _run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    _run([str(python), "-m", "pip", "install", "--quiet", "-r", str(REQUIREMENTS)])
    STAMP.write_text(wanted + "\n")
    return python


def _run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, timeout=INSTALL_TIMEOUT_S, cwd=ROOT)


def run_fireplace(n_games: int, seed: int) -> dict[str, Any]:
    python = ensure_fireplace_venv()
    # fireplace iterates sets of cards in places: a fixed hash seed keeps its games repeatable.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [str(python), str(PEER), str(n_games), str(seed)],
        capture_output=True,
        text=True,
        timeout=PEER_TIMEOUT_S,
        cwd=ROOT,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"fireplace peer failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------------------
# the whole card pool (issue #27): random class decks, upstream fireplace as the peer

UPSTREAM_VENV = ROOT / ".venv-fireplace-upstream"
POOL_TARGET_SPEEDUP = 40.0
POOL_TARGET_CLONE_US = 20.0
POOL_TARGET_GREEDY_MS = 1.0
_NEUTRAL, _LEGENDARY = 12, 5


def pool_decks(n_pairs: int, seed: int, cards: list[str]) -> list[Decks]:
    """`n_pairs` pairs of random class decks (any of the ten heroes, two copies, one of a
    legendary) from `cards`; every deck passes `games.hearth.decks.deck_problem`."""
    from games.hearth.carddb import load_cards
    from games.hearth.decks import deck_problem

    db = load_cards()
    heroes = [f"HERO_{n:02d}" for n in range(1, 11)]
    rng = random.Random(seed)

    def deck() -> tuple[str, list[str]]:
        hero = rng.choice(heroes)
        pool = [c for c in cards if db[c].card_class in (_NEUTRAL, db[hero].card_class)]
        chosen: list[str] = []
        while len(chosen) < 30:
            card = rng.choice(pool)
            if chosen.count(card) < (1 if db[card].rarity == _LEGENDARY else 2):
                chosen.append(card)
        problem = deck_problem(hero, chosen)
        if problem:
            raise RuntimeError(f"pool deck refused: {problem}")
        return hero, chosen

    return [[deck(), deck()] for _ in range(n_pairs)]


def ensure_upstream_venv(src: Path) -> Path:
    """`.venv-fireplace-upstream`: upstream fireplace installed from a checkout `src`, on
    the hearthstone package and card data build our engine pins. A checkout without Git
    LFS has a pointer where fireplace's CardDefs.xml belongs; the pinned build's CardDefs
    (the data fireplace's file derives from) takes its place."""
    python = UPSTREAM_VENV / "bin" / "python"
    pins = [line for line in (ROOT / "constraints.txt").read_text().splitlines()
            if line.startswith(("hearthstone==", "hearthstone-data=="))]
    wanted = hashlib.sha256("\n".join([str(src.resolve()), *pins]).encode()).hexdigest()
    stamp = UPSTREAM_VENV / ".installed"
    if python.exists() and stamp.exists() and stamp.read_text().strip() == wanted:
        return python
    print(f"creating {UPSTREAM_VENV.name} (fireplace from {src}) ...", flush=True)
    if not python.exists():
        _run([os.environ.get("PYTHON", "python3.11"), "-m", "venv", str(UPSTREAM_VENV)])
    _run([str(python), "-m", "pip", "install", "--quiet", *pins])
    _run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(src)])
    where = subprocess.run(
        [str(python), "-c", "import fireplace.cards, hearthstone_data, os; print(os.path."
         "dirname(fireplace.cards.__file__)); print(os.path.dirname(hearthstone_data.__file__))"],
        capture_output=True, text=True, check=True, cwd="/",
    ).stdout.split()
    defs = Path(where[0]) / "CardDefs.xml"
    if not defs.exists() or defs.read_bytes()[:40].startswith(b"version https://git-lfs"):
        defs.write_bytes((Path(where[1]) / "CardDefs.xml").read_bytes())
    stamp.write_text(wanted + "\n")
    return python


def _peer(python: Path, args: list[str]) -> Any:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([str(python), str(PEER), *args], capture_output=True, text=True,
                          timeout=PEER_TIMEOUT_S, cwd=ROOT, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"fireplace peer failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_greedy(pairs: list[Decks], games: int, seed: int) -> list[float]:
    """Milliseconds per decision of the bundled greedy bot (mulligans left out), in games
    of greedy against random on `pairs`."""
    from bots.hearth.bundled import GreedyBot, RandomBot
    from games import hearth
    from games.hearth import Kind

    times: list[float] = []
    for i in range(games):
        state = hearth.new_game(seed=seed + i, decks=pairs[i % len(pairs)])
        bots = (GreedyBot(seed + i), RandomBot(seed + i))
        for _ in range(ACTION_CAP):
            if state.is_over:
                break
            player = state.pending()[0]
            options = state.legal_actions(player)
            if options[0].kind == Kind.MULLIGAN:
                state.apply(options[0], player)
                continue
            begin = time.perf_counter()
            action = bots[player - 1].act(state, options)
            if player == 1:
                times.append((time.perf_counter() - begin) * 1000)
            state.apply(action, player)
    return times


def run_pool(args: argparse.Namespace) -> str:
    from games import hearth

    ours = list(hearth.collectible_cards())
    python = ensure_upstream_venv(Path(args.fireplace_src))
    ids_file = ROOT / ".bench-pool-ids.json"
    decks_file = ROOT / ".bench-pool-decks.json"
    ids_file.write_text(json.dumps(ours))
    both = sorted(_peer(python, ["implemented", str(ids_file)]))
    pairs = pool_decks(args.pool_decks, args.seed, both)
    decks_file.write_text(json.dumps(pairs))
    measure_games(3, args.seed + 10_000, history=False, pairs=pairs)  # warm-up
    half = args.games // 2
    off = measure_games(half, args.seed, history=False, pairs=pairs)
    fp = _peer(python, [str(args.fireplace_games), str(args.seed), str(decks_file)])
    off += measure_games(args.games - half, args.seed + half, history=False, pairs=pairs)
    clone_us = measure_clone(args.seed + 20_000, round(off.actions_per_game / 2), pairs=pairs)
    greedy = measure_greedy(pairs, args.greedy_games, args.seed + 30_000)
    speed = off.games_per_s / fp["games_per_s"]
    cpu = off.games_per_cpu_s / (fp["games"] / fp["cpu_seconds"])
    ours_aps, fp_aps = off.actions / off.seconds, fp["games_per_s"] * fp["actions_per_game"]
    greedy_mean, greedy_median = statistics.fmean(greedy), statistics.median(greedy)
    greedy_p95 = statistics.quantiles(greedy, n=20)[-1]

    def mark(ok: bool) -> str:
        return "✓" if ok else "✗"

    rows = [
        f"| metric | Gauntlet hearth | {fp['peer']} | ours / peer | target |",
        "|---|---|---|---|---|",
        f"| random full games / s | {off.games_per_s:.1f} | {fp['games_per_s']:.2f} | "
        f"**{speed:.1f}x** | ≥ {POOL_TARGET_SPEEDUP:.0f}x {mark(speed >= POOL_TARGET_SPEEDUP)} |",
        f"| random full games / CPU-s | {off.games_per_cpu_s:.1f} | "
        f"{fp['games'] / fp['cpu_seconds']:.2f} | {cpu:.1f}x | |",
        f"| random actions / s | {ours_aps:.0f} | {fp_aps:.0f} | {ours_aps / fp_aps:.1f}x | |",
        f"| actions per game | {off.actions_per_game:.1f} | {fp['actions_per_game']} | | |",
        f"| clone at mid-game | {clone_us:.1f} µs | {fp['deepcopy_ms']} ms (deepcopy) | | "
        f"≤ {POOL_TARGET_CLONE_US:.0f} µs {mark(clone_us <= POOL_TARGET_CLONE_US)} |",
        f"| greedy bot decision, mean / median / p95 | {greedy_mean:.2f} / "
        f"{greedy_median:.2f} / {greedy_p95:.2f} ms | | | ≤ {POOL_TARGET_GREEDY_MS:.0f} ms "
        f"{mark(greedy_mean <= POOL_TARGET_GREEDY_MS)} |",
    ]
    return "\n".join([
        *rows, "",
        f"{len(pairs)} pairs of random class decks from the {len(both)} cards both engines "
        f"play (of our {len(ours)}); ours: {off.games} games ({off.seconds:.1f} s), "
        f"{len(greedy)} greedy decisions in {args.greedy_games} games; peer: {fp['games']} "
        f"games ({fp['seconds']:.1f} s), {fp['errors']} errors {fp['first_errors'][:1]}, "
        f"{fp['capped']} capped.",
    ])


# --------------------------------------------------------------------------------------
# report


def table(
    off: Playout, on: Playout, clone_us: float, fireplace: dict[str, Any] | None, note: str
) -> str:
    fp = fireplace or {}
    fp_gps: float | None = fp.get("games_per_s")
    fp_cpu = fp["games"] / fp["cpu_seconds"] if fp.get("cpu_seconds") else None
    fp_apg: float | None = fp.get("actions_per_game")
    fp_aps = fp_gps * fp_apg if fp_gps and fp_apg else None
    fp_clone_ms: float | None = fp.get("deepcopy_ms")
    ours_aps = off.actions / off.seconds

    def ratio(ours: float, theirs: float | None) -> str:
        return f"{ours / theirs:.1f}x" if theirs else "n/a"

    def num(value: float | None, digits: int = 1) -> str:
        return f"{value:.{digits}f}" if value is not None else "n/a"

    ok_speed = fp_gps is not None and off.games_per_s / fp_gps >= TARGET_SPEEDUP
    ok_clone = clone_us / 1000 < TARGET_CLONE_MS
    speed_mark = "✓" if ok_speed else "✗" if fp_gps else ""
    clone_cheaper = f"{fp_clone_ms * 1000 / clone_us:.0f}x cheaper" if fp_clone_ms else "n/a"
    rows = [
        "| metric | Gauntlet hearth | fireplace2 1.0.2 | ours / fireplace | target |",
        "|---|---|---|---|---|",
        f"| random full games / s, history off | {off.games_per_s:.1f} | {num(fp_gps, 2)} "
        f"| **{ratio(off.games_per_s, fp_gps)}** | ≥ {TARGET_SPEEDUP:.0f}x {speed_mark} |",
        f"| random full games / CPU-s, history off | {off.games_per_cpu_s:.1f} "
        f"| {num(fp_cpu, 2)} | {ratio(off.games_per_cpu_s, fp_cpu)} | |",
        f"| random full games / s, history on | {on.games_per_s:.1f} | – "
        f"| {ratio(on.games_per_s, fp_gps)} | |",
        f"| random actions / s, history off | {ours_aps:.0f} | {num(fp_aps, 0)} "
        f"| {ratio(ours_aps, fp_aps)} | |",
        f"| actions per game | {off.actions_per_game:.1f} | {num(fp_apg)} | | |",
        f"| clone at mid-game (ours `clone()`, fireplace `copy.deepcopy`) | {clone_us:.0f} µs "
        f"| {num(fp_clone_ms) + ' ms' if fp_clone_ms else 'n/a'} | {clone_cheaper} "
        f"| < {TARGET_CLONE_MS:.0f} ms {'✓' if ok_clone else '✗'} |",
    ]
    if fireplace:
        peer = (
            f"fireplace: {fp['games']} games ({fp['seconds']:.1f} s, {fp['cpu_seconds']:.1f} "
            f"CPU-s, after a {fp['db_load_seconds']:.1f} s card DB load, not counted), "
            f"{fp['errors']} errors"
        )
    else:
        peer = "fireplace: not run"
    lines = [
        "\n".join(rows),
        "",
        f"Ours: {off.games} games history off ({off.seconds:.1f} s, {off.cpu_seconds:.1f} CPU-s), "
        f"{on.games} history on ({on.seconds:.1f} s); {peer}.",
    ]
    if off.capped or on.capped:
        lines.append(
            f"Warning: {off.capped + on.capped} of our games hit the {ACTION_CAP}-action cap."
        )
    if note:
        lines.append(note)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.hearth_engine", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="our games, history off")
    parser.add_argument("--history-games", type=int, default=100, help="our games, history on")
    parser.add_argument("--fireplace-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-fireplace", action="store_true")
    parser.add_argument("--pool", action="store_true", help="random class decks from the "
                        "whole card pool against upstream fireplace (needs --fireplace-src)")
    parser.add_argument("--fireplace-src", help="a checkout of upstream fireplace "
                        "(github.com/jleclanche/fireplace), for --pool")
    parser.add_argument("--pool-decks", type=int, default=50, help="deck pairs, for --pool")
    parser.add_argument("--greedy-games", type=int, default=20, help="for --pool")
    args = parser.parse_args(argv if argv is not None else [])
    if args.pool:
        if not args.fireplace_src:
            parser.error("--pool needs --fireplace-src")
        print(run_pool(args), flush=True)
        return
    for name in ("games", "history_games", "fireplace_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")

    measure_games(3, args.seed + 10_000, history=False)  # warm-up: imports, card data
    # Our games run in two halves, before and after the peer, so that a change in the
    # machine's load during the run weighs on both sides alike.
    off_first, on_first = args.games // 2, args.history_games // 2
    off = measure_games(off_first, args.seed, history=False)
    on = measure_games(on_first, args.seed, history=True)

    fireplace: dict[str, Any] | None = None
    note = ""
    if not args.skip_fireplace:
        try:
            fireplace = run_fireplace(args.fireplace_games, args.seed)
        except (OSError, RuntimeError, subprocess.SubprocessError, ValueError) as exc:
            note = f"fireplace peer unavailable: {exc}"

    off += measure_games(args.games - off_first, args.seed + off_first, history=False)
    on += measure_games(args.history_games - on_first, args.seed + on_first, history=True)
    clone_us = measure_clone(args.seed + 20_000, mid_actions=round(off.actions_per_game / 2))
    print(table(off, on, clone_us, fireplace, note), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
