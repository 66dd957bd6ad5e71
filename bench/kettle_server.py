"""The server's time per Hearth decision over Kettle, with the bundled random bots over TCP.

The server runs in a child process; the bots (bots.hearth RandomBot through the kit's
asyncio layer) run in this one, so their thinking is not counted. Figures, from the
server process:

- per decision: `ServerStats.move_processing_seconds`, from the moment an answer's bytes
  were read until the next decision's bytes were written (decode, map, apply, history per
  seat, options, encode, write): p50 and p99;
- the server process's CPU time over the run divided by the decisions answered (every
  cost included: sockets, rooms, store).

    .venv/bin/python bench/kettle_server.py --games 1 --rounds 10
    .venv/bin/python bench/kettle_server.py --games 20 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _serve(pipe: Connection, data_dir: str) -> None:
    from server.config import ServerConfig
    from server.runtime import GauntletServer

    async def main() -> None:
        config = ServerConfig(tcp_port=0, admin_password="bench", no_timeout=True,
                              data_dir=Path(data_dir))
        async with GauntletServer(config) as srv:
            pipe.send(srv.tcp_port)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, pipe.recv)  # "measure": reset the counters
            srv.stats.move_processing_seconds.clear()
            cpu = time.process_time()
            pipe.send("ok")
            await loop.run_in_executor(None, pipe.recv)  # "stop"
            pipe.send((list(srv.stats.move_processing_seconds), time.process_time() - cpu,
                       len(srv.stats.think_seconds)))

    asyncio.run(main())


async def _games(port: int, games: int, rounds: int, seed: int) -> int:
    from bots.hearth import RandomBot
    from bots.hearth.aio import play_async

    played = 0
    for r in range(rounds):
        await asyncio.gather(*(
            play_async(RandomBot(seed + 2 * (r * games + g) + p), "127.0.0.1", port,
                       idle_timeout=120)
            for g in range(games) for p in (0, 1)))
        played += games
    return played


def measure(games: int, rounds: int, seed: int = 1) -> dict[str, float]:
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    with tempfile.TemporaryDirectory() as data_dir:
        server = ctx.Process(target=_serve, args=(child, data_dir), daemon=True)
        server.start()
        port = parent.recv()
        asyncio.run(_games(port, 1, 1, seed + 10_000))  # warm-up (imports, card data)
        parent.send("measure")
        parent.recv()
        thinks_before = 0
        played = asyncio.run(_games(port, games, rounds, seed))
        parent.send("stop")
        processing, cpu, thinks = parent.recv()
        server.join(10)
    thinks -= thinks_before
    ms = sorted(t * 1000 for t in processing)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return {"games": played, "decisions": len(ms), "p50_ms": statistics.median(ms),
            "p99_ms": p99, "cpu_per_decision_ms": cpu * 1000 / max(1, len(ms))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 20],
                        help="concurrent games (one run per value)")
    parser.add_argument("--rounds", type=int, default=5, help="batches of games per run")
    args = parser.parse_args(argv)
    for games in args.games:
        r = measure(games, args.rounds)
        print(f"{games:3d} concurrent: {r['games']:.0f} games, {r['decisions']:.0f} decisions, "
              f"p50 {r['p50_ms']:.3f} ms, p99 {r['p99_ms']:.3f} ms, "
              f"server CPU {r['cpu_per_decision_ms']:.3f} ms/decision")


if __name__ == "__main__":
    main()
