"""The match server under load: full Blokus games per second over TCP, and its time per move.

`make bench` (or `python -m bench sc_server`) starts a `GauntletServer` in this process and
runs the bundled random bot against itself over real TCP sockets, first one game at a time,
then 20 games at once. The bots live in a child process (`--bots-child`, the same
`gauntlet play` code path: admin `prepare`, reservations, seats swapped every other game),
so their CPU time never shows up in the server's figures, and on two cores server and bots
run side by side.

Figures per phase:

- games/s: finished games over the wall time of the series, measured in the bot process;
- the server's own processing time per move, p50 and p99, from `server.stats` (from the
  moment a move's bytes were read to the moment the next moveRequest, or the result, was
  written: rule check, apply, mementos to both players; not the bots' thinking);
- server CPU per move: this process's CPU time during the phase over the moves; bots CPU
  per move the same for the bot process (both bots parse every memento); wall time per
  move (over all games at once). On an idle machine, wall per move at one game at a time
  is about the two CPU figures added up; much more means the machine is busy elsewhere.

The peer measured in the same run is the same pair of random bots without any server: one
process, our engine only (`list(state.legal_moves())`, a seeded choice, `apply`). The ratio
says how much of a game's cost the wire, the codec and the rooms add. Run::

    .venv/bin/python -m bench.sc_server                    # defaults
    .venv/bin/python -m bench.sc_server --games 40 --concurrent-games 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-sc-server"
CHILD_TIMEOUT_S = 1800


@dataclass(frozen=True)
class Phase:
    concurrency: int
    games: int
    seconds: float
    moves: int
    p50_ms: float
    p99_ms: float
    cpu_ms_per_move: float
    bots_cpu_ms_per_move: float
    timeouts: int
    errors: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


# --- the bot side (child process) ------------------------------------------------------


async def _bots(port: int, games: int, concurrency: int, seed: int) -> dict[str, Any]:
    from bots.blokus import RandomBot
    from bots.blokus.match import run_series, summarise

    labels = ("random (A)", "random (B)")
    start, cpu = time.perf_counter(), time.process_time()
    records = await run_series(
        ((labels[0], RandomBot), (labels[1], RandomBot)), games, host="127.0.0.1",
        port=port, password=PASSWORD, concurrency=concurrency, seed=seed)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    summaries = summarise(records, labels)
    return {
        "games": sum(1 for r in records if r.error is None),
        "seconds": seconds,
        "cpu_seconds": cpu,
        "timeouts": sum(s.timeouts for s in summaries),
        "errors": sum(1 for r in records if r.error is not None),
    }


# --- the server side (this process) ----------------------------------------------------


async def _phase(server: Any, games: int, concurrency: int, seed: int) -> Phase:
    stats = server.stats
    stats.move_processing_seconds.clear()
    cpu = time.process_time()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.sc_server", "--bots-child", "--port", str(server.tcp_port),
        "--games", str(games), "--concurrency", str(concurrency), "--seed", str(seed),
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        async with asyncio.timeout(CHILD_TIMEOUT_S):
            out, err = await child.communicate()
    except TimeoutError:
        child.kill()
        await child.wait()
        raise RuntimeError("the bot process did not finish") from None
    cpu = time.process_time() - cpu
    if child.returncode != 0:
        raise RuntimeError(f"bot process failed ({child.returncode}): {err.decode()[-2000:]}")
    report = json.loads(out.decode().strip().splitlines()[-1])
    samples = list(stats.move_processing_seconds)
    return Phase(
        concurrency=concurrency,
        games=report["games"],
        seconds=report["seconds"],
        moves=len(samples),
        p50_ms=_percentile(samples, 0.50) * 1000,
        p99_ms=_percentile(samples, 0.99) * 1000,
        cpu_ms_per_move=cpu / len(samples) * 1000 if samples else 0.0,
        bots_cpu_ms_per_move=report["cpu_seconds"] / len(samples) * 1000 if samples else 0.0,
        timeouts=report["timeouts"],
        errors=report["errors"],
    )


async def _server_phases(plan: list[tuple[int, int]], seed: int) -> list[Phase]:
    from server.config import ServerConfig
    from server.runtime import GauntletServer

    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=ROOT / "data")
    phases = []
    async with GauntletServer(config) as server:
        for concurrency, games in plan:
            phases.append(await _phase(server, games, concurrency, seed))
    return phases


def engine_only(games: int, seed: int) -> tuple[int, float]:
    """The peer: random vs random on our engine alone (what each bot does, minus the server)."""
    from bots.blokus import RandomBot
    from games import blokus

    pieces = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for game in range(games):
        state = blokus.new_game(pieces.choice(blokus.PENTOMINOES))
        bots = {"ONE": RandomBot(seed + 2 * game), "TWO": RandomBot(seed + 2 * game + 1)}
        while not state.is_over:
            state.apply(bots[state.current_team].move(state.clone()))
            moves += 1
    return moves, time.perf_counter() - start


def kit_decode(games: int, seed: int) -> tuple[float, float, int]:
    """The bot kit's cost per memento: µs to decode each memento of `games` random games as
    a client, with the fast path (the last state plus the lastMove, checked byte for byte)
    and with the full lxml parse; and the memento count."""
    from bots.blokus import RandomBot
    from games import blokus
    from protocols.base import NEED_DATA
    from protocols.sc import messages as m
    from protocols.sc.connection import ClientConnection, ServerConnection

    streams = []
    pieces = random.Random(seed)
    for game in range(games):
        server = ServerConnection()
        state = blokus.new_game(pieces.choice(blokus.PENTOMINOES))
        out = [server.send(m.Memento("room-1", state.clone()))]
        bot = RandomBot(seed + game)
        while not state.is_over:
            state.apply(bot.move(state.clone()))
            out.append(server.send(m.Memento("room-1", state.clone())))
        streams.append(out)
    count = sum(len(out) for out in streams)

    def run(fast: bool) -> float:
        start = time.process_time()
        for out in streams:
            client = ClientConnection()
            if not fast:
                client._decode_fast = lambda data: None  # type: ignore[method-assign]
                client._memento_ahead = lambda: None  # type: ignore[method-assign]
            for chunk in out:
                client.receive_data(chunk)
                while client.next_event() is not NEED_DATA:
                    pass
        return (time.process_time() - start) / count * 1e6

    return run(True), run(False), count


def memento_encoding(games: int, seed: int) -> tuple[float, float]:
    """µs of CPU per memento body over the states of `games` random games: the node tree
    (`encode_server` + render) and the bitboard writer the server uses (same bytes)."""
    from games import blokus
    from protocols.sc import messages as m
    from protocols.sc.codec import encode_server
    from protocols.sc.connection import memento_body, message_body

    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = blokus.new_game(rng.choice(blokus.PENTOMINOES))
        while not state.is_over:
            state.apply(rng.choice(list(state.legal_moves())))
            states.append(state.clone())
    figures = []
    for write in (lambda s: message_body(encode_server(m.Memento("r", s))),
                  lambda s: memento_body(m.Memento("r", s))):
        start = time.process_time()
        for state in states:
            write(state)
        figures.append((time.process_time() - start) / len(states) * 1e6)
    return figures[0], figures[1]


def report(phases: list[Phase], peer_games: int, peer_seconds: float, peer_moves: int) -> str:
    peer_rate = peer_games / peer_seconds if peer_seconds else 0.0
    lines = [
        "| concurrent games | games | games/s over TCP | vs engine only | server ms/move p50 "
        "| p99 | server CPU ms/move | bots CPU ms/move | wall ms/move | timeouts |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in phases:
        ratio = p.games_per_second / peer_rate if peer_rate else 0.0
        lines.append(
            f"| {p.concurrency} | {p.games} | {p.games_per_second:.2f} | {ratio:.2f}x "
            f"| {p.p50_ms:.2f} | {p.p99_ms:.2f} | {p.cpu_ms_per_move:.2f} "
            f"| {p.bots_cpu_ms_per_move:.2f} | {p.seconds / p.moves * 1000 if p.moves else 0:.2f} "
            f"| {p.timeouts} |"
        )
    lines.append("")
    lines.append(
        f"Engine only (same random bots, no server, one process): {peer_games} games, "
        f"{peer_rate:.2f} games/s, {peer_moves / peer_games if peer_games else 0:.0f} moves/game."
    )
    busiest = phases[-1] if phases else None
    if busiest is not None and busiest.moves and busiest.games and busiest.cpu_ms_per_move:
        per_game = busiest.moves / busiest.games
        lines.append(
            f"Server capacity from its CPU per move ({busiest.concurrency} concurrent games): "
            f"about {1000 / (busiest.cpu_ms_per_move * per_game):.1f} games/s per core "
            "(the bots are not free: here they share the machine)."
        )
    errors = sum(p.errors for p in phases)
    if errors:
        lines.append(f"{errors} game(s) ended without a result.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sc_server", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="games played one at a time")
    parser.add_argument("--concurrent-games", type=int, default=40,
                        help="games in the concurrent phase")
    parser.add_argument("--concurrency", type=int, default=20,
                        help="games at the same time in the concurrent phase")
    parser.add_argument("--peer-games", type=int, default=20, help="engine-only games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kit", action="store_true",
                        help="only the memento costs: the bot kit's decoding (fast path vs full "
                        "parse) and the server's encoding (node tree vs bitboard writer)")
    parser.add_argument("--bots-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])
    if args.bots_child:
        result = asyncio.run(_bots(args.port, args.games, args.concurrency, args.seed))
        print(json.dumps(result), flush=True)
        return
    if args.kit:
        fast, full = kit_decode(args.games, args.seed)[:2]
        print(f"bot kit, per memento over {args.games} games: {fast:.0f} µs with the fast "
              f"path, {full:.0f} µs with the full parse (CPU)")
        tree, writer = memento_encoding(args.games, args.seed)
        print(f"server, per memento body: {tree:.0f} µs with the node tree, {writer:.0f} µs "
              "with the bitboard writer (CPU)")
        return
    for name in ("games", "concurrent_games", "concurrency", "peer_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")

    # The engine-only peer runs in two halves around the server phases, so that a change in
    # the machine's load during the run weighs on both sides alike.
    first = args.peer_games // 2 or 1
    moves_a, seconds_a = engine_only(first, args.seed)
    plan = [(1, args.games), (args.concurrency, args.concurrent_games)]
    phases = asyncio.run(_server_phases(plan, args.seed))
    rest = max(args.peer_games - first, 0)
    moves_b, seconds_b = engine_only(rest, args.seed + 1) if rest else (0, 0.0)
    table = report(phases, first + rest, seconds_a + seconds_b, moves_a + moves_b)
    print("Blokus over TCP: bundled random vs random, server in this process, bots in a child "
          "process (admin prepare + reservations).\n")
    print(table)
    spread = [p.games_per_second for p in phases]
    if len(spread) == 2 and spread[0]:
        print(f"\n{plan[1][0]} concurrent games give {spread[1] / spread[0]:.2f}x the games/s "
              f"of one at a time (mean over phases {statistics.fmean(spread):.2f} games/s).")


if __name__ == "__main__":
    main(sys.argv[1:])
