"""A bounded soak: many concurrent matches of the bundled random bots over loopback.

The server runs in this process with a SQLite store (results are stored before they are
announced); the players run in one child process (so that the server's CPU and RSS are
its own), as lightweight asyncio clients of the bot kits (`bots.blokus.aio`,
`bots.hearth.aio`), not one process per bot. `--at-once` matches run side by side
(Blokus and Hearth alternating) until `--games` have been played.

Reported: games per second, server time per move (p50/p99 of `ServerStats`' per-move
samples, and the process's CPU over all moves), peak RSS of the server process, matches
that ended by a timeout (the random bots answer in milliseconds, so any timeout is the
system's: target zero), players that failed, and lost or duplicated results (results in
the store vs games played: must be zero).

    .venv/bin/python -m bench.soak                       # 200 at once, 400 games
    .venv/bin/python -m bench.soak --at-once 20 --games 40
    make soak                                            # the same as the first line
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PASSWORD = "soak"
GAMES = ("blokus", "hearth")


# ----------------------------------------------------------------------------- players
async def _one_game(kind: str, port: int, seed: int) -> dict[str, Any]:
    """Two players of one game; what each saw."""
    if kind == "blokus":
        from bots.blokus.aio import play_async as play_blokus
        from bots.blokus.bundled import RandomBot as BlokusBot

        a, b = await asyncio.gather(
            play_blokus(BlokusBot(seed), "127.0.0.1", port, idle_timeout=120),
            play_blokus(BlokusBot(seed + 1), "127.0.0.1", port, idle_timeout=120))
        return {"game": kind, "regular": [a.regular, b.regular],
                "cause": [a.cause, b.cause], "winner": [a.winner, b.winner]}
    from bots.hearth import RandomBot as HearthBot
    from bots.hearth.aio import play_async as play_hearth

    c, d = await asyncio.gather(
        play_hearth(HearthBot(seed), "127.0.0.1", port, idle_timeout=120),
        play_hearth(HearthBot(seed + 1), "127.0.0.1", port, idle_timeout=120))
    timeout = any("timeout" in o.reason.lower() for o in (c, d))
    return {"game": kind, "regular": [not timeout and c.winner is not None] * 2,
            "cause": ["TIMEOUT" if timeout else None] * 2, "winner": [c.winner, d.winner],
            "reason": c.reason}


async def _players(port: int, games: int, at_once: int) -> None:
    """The child process: `at_once` slots, each playing games until `games` were started."""
    started = 0
    outcomes: list[dict[str, Any]] = []

    async def slot() -> None:
        nonlocal started
        while started < games:
            number = started
            started += 1
            kind = GAMES[number % len(GAMES)]
            try:
                outcomes.append(await _one_game(kind, port, 2 * number))
            except Exception as error:  # a failed player is a finding, not a crash
                outcomes.append({"game": kind, "error": repr(error)})

    await asyncio.gather(*(slot() for _ in range(at_once)))
    print(json.dumps(outcomes))


# ----------------------------------------------------------------------------- server
def _percentile(samples: list[float], share: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def soak(games: int, at_once: int) -> dict[str, Any]:
    from server.config import ServerConfig
    from server.runtime import GauntletServer
    from server.store import Store

    folder = Path(tempfile.mkdtemp(prefix="gauntlet-soak-"))
    db = folder / "soak.db"
    store = Store(f"sqlite:///{db}")
    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=folder)
    try:
        async with GauntletServer(config, store=store) as server:
            cpu, wall = time.process_time(), time.perf_counter()
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.soak", "--players", str(server.tcp_port),
                "--games", str(games), "--at-once", str(at_once),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                cwd=Path(__file__).parents[1])
            out, err = await child.communicate()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if child.returncode != 0:
                raise RuntimeError(f"players failed: {err.decode()[-2000:]}")
            if server.writer is not None:
                await server.writer.flush()
            finished = server.stats.matches_finished
            per_move = list(server.stats.move_processing_seconds)
    finally:
        store.close()
    outcomes: list[dict[str, Any]] = json.loads(out)
    with sqlite3.connect(db) as connection:
        results = connection.execute("SELECT count(*) FROM results").fetchone()[0]
        distinct = connection.execute(
            "SELECT count(DISTINCT match_id) FROM results").fetchone()[0]
    played = sum(1 for o in outcomes if "error" not in o)
    timeouts = sum(1 for o in outcomes if "error" not in o
                   and any(c and "TIMEOUT" in str(c) for c in o["cause"]))
    moves = len(per_move)
    return {
        "games": games, "at_once": at_once, "played": played,
        "failed_players": [o["error"] for o in outcomes if "error" in o][:5],
        "wall_s": round(wall, 1), "games_per_s": round(played / wall, 2),
        "moves": moves,
        "server_ms_per_move_p50": round(1000 * _percentile(per_move, 0.5), 3),
        "server_ms_per_move_p99": round(1000 * _percentile(per_move, 0.99), 3),
        "server_process_cpu_ms_per_move": round(1000 * cpu / max(moves, 1), 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "timeouts": timeouts,
        "timeouts_by_game": {kind: sum(1 for o in outcomes if o.get("game") == kind
                                       and "error" not in o
                                       and any(c and "TIMEOUT" in str(c) for c in o["cause"]))
                             for kind in GAMES},
        "matches_finished": finished,
        "results_stored": results,
        "lost_results": max(0, played - results),
        "duplicated_results": results - distinct + max(0, results - played),
        "mean_per_move_ms": round(1000 * statistics.fmean(per_move), 3) if per_move else 0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--at-once", type=int, default=200)
    parser.add_argument("--players", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else sys.argv[1:]
                             if __name__ == "__main__" else [])
    if args.players is not None:
        asyncio.run(_players(args.players, args.games, args.at_once))
        return
    figures = asyncio.run(soak(args.games, args.at_once))
    for name, value in figures.items():
        print(f"{name}: {value}")
    ok = (figures["lost_results"] == 0 and figures["duplicated_results"] == 0
          and not figures["failed_players"] and figures["timeouts"] == 0)
    print("soak:", "OK" if ok else "FAILED")
    if not ok and __name__ == "__main__":
        sys.exit(1)


if __name__ == "__main__":
    main()
