"""The server's instructions per Blokus move, counted by valgrind: a figure the host's noise
does not move.

CPU time per move drifts by a third within minutes on a shared machine, which hides any
change of a few per cent. Instructions do not drift: `valgrind --tool=cachegrind` counts
those the server process executes in user space (the bots run in a child process it does
not follow; the kernel's socket work is not counted). The server plays `bench.sc_server`'s
phase with the free bots and a fixed room seed, so every run plays the same games; it runs
once with `--games` games and once with `--base-games`, and the difference in instructions
over the difference in moves is a move's cost without the start-up.

    python -m bench.instructions --concurrency 10 --games 84 --base-games 4

needs valgrind (`apt-get install valgrind`) and takes a few minutes (valgrind runs the
server about fifty times slower). Compare commits by running it in each (the same
worktree path: the start-up differs between paths).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys

from bench.sc_server import ROOT, fresh_phase, warm_up

ROOM_SEED = 7  # every run plays the same games


async def _one_phase(games: int, concurrency: int, replays: bool) -> int:
    warm_up(1)
    phase = await fresh_phase(games, concurrency, 1, save_replays=replays, room_seed=ROOM_SEED)
    return phase.moves


def _counted(games: int, concurrency: int, replays: bool) -> tuple[int, int]:
    """(instructions, moves) of one run under valgrind."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
               "--cachegrind-out-file=/dev/null", sys.executable, "-m", "bench.instructions",
               "--phase", str(games), "--concurrency", str(concurrency),
               *(["--save-replays"] if replays else [])]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    moves = re.search(r"^MOVES (\d+)$", done.stdout, re.MULTILINE)
    if done.returncode != 0 or refs is None or moves is None:
        raise RuntimeError(f"valgrind run failed ({done.returncode}): {done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(moves.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=84)
    parser.add_argument("--base-games", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--save-replays", action="store_true",
                        help="the server writes every game's replay (its thread counted too)")
    parser.add_argument("--phase", type=int, help=argparse.SUPPRESS)  # the counted child
    args = parser.parse_args()
    if args.phase is not None:
        moves = asyncio.run(_one_phase(args.phase, args.concurrency, args.save_replays))
        print(f"MOVES {moves}", flush=True)
        return
    if args.games <= args.base_games or args.base_games < 1:
        parser.error("--games must exceed --base-games, which must be at least 1")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    base, base_moves = _counted(args.base_games, args.concurrency, args.save_replays)
    full, full_moves = _counted(args.games, args.concurrency, args.save_replays)
    per_move = (full - base) / (full_moves - base_moves)
    replays = ", replays saved" if args.save_replays else ""
    print(f"{args.concurrency} games at once{replays}, {args.games} - {args.base_games} games "
          f"({full_moves - base_moves} moves): {per_move:,.0f} instructions per move "
          f"(totals {full:,} and {base:,})")


if __name__ == "__main__":
    main()
