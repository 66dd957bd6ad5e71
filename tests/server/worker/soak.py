"""`make soak-cluster`: N short games of the bundled random bot on W workers, then the same
number of games on the single-process server, on this machine.

Redis and PostgreSQL are started as the cluster tests start them. Prints games per minute
of both, and the lost (not finished) and duplicated (more than one result, or events not
one attempt's) matches of the cluster run; exits 1 if any is lost or duplicated.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

from server.games.registry import GameRegistry
from server.matches import SeatRequest
from server.settings import load_settings
from server.startup import bundled_bots
from server.store import Store
from tests.pg import start_postgres
from tests.server.worker.conftest import Worker, _free_port, worker_env

GAME = "swc_2027_blokus"


def _register(store: Store) -> list[tuple[int, str]]:
    store.upgrade()
    games = GameRegistry.from_entry_points()
    argv = next(a for n, g, a in bundled_bots(games) if n == "random" and g == GAME)
    bots = [store.create_bot(name, GAME, argv) for name in ("random-a", "random-b")]
    return [(b.id, b.name) for b in bots if b.id is not None]


async def cluster(games: int, workers: int, folder: Path) -> tuple[float, int, int]:
    pg = start_postgres()
    port = _free_port()
    subprocess.run(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--daemonize",
                    "yes", "--save", "", "--dir", str(folder)], check=True)
    redis = f"redis://127.0.0.1:{port}/0"
    running: list[Worker] = []
    try:
        url = pg.create_database()
        store = Store(url)
        bots = _register(store)
        from server.worker.dispatch import Dispatcher

        settings = load_settings(broker_url=redis, database_url=url, max_queued=32)
        dispatcher = Dispatcher(settings, store)
        env = worker_env(redis, url, folder / "data", visibility=600)
        running = [Worker(env, folder / f"worker-{i}.log") for i in range(workers)]
        start = time.monotonic()
        ids = []

        async def feed() -> None:
            for i in range(games):
                ids.append(await dispatcher.submit(GAME, bots if i % 2 else bots[::-1], seed=i))

        await feed()
        statuses = await asyncio.gather(*(dispatcher.wait(m) for m in ids))
        elapsed = time.monotonic() - start
        lost = sum(1 for s in statuses if s != "finished")
        with store.engine.connect() as conn:
            dup = conn.execute(sa.text(
                "SELECT count(*) FROM (SELECT m.id FROM matches m "
                "LEFT JOIN results r ON r.match_id = m.id "
                "LEFT JOIN (SELECT match_id, count(*) n, max(seq) s FROM match_events "
                "GROUP BY match_id UNION ALL SELECT match_id, events, last_seq FROM "
                "match_logs WHERE data IS NOT NULL) e ON e.match_id = m.id "
                "GROUP BY m.id, e.n, e.s HAVING count(r.match_id) > 1 "
                "OR max(e.n) <> max(e.s) + 1) x")).scalar_one()
        dispatcher.close()
        store.close()
        return games / elapsed * 60, lost, int(dup)
    finally:
        for worker in running:
            worker.stop()
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"],
                       capture_output=True, check=False)
        pg.stop()


async def single(games: int, concurrency: int, folder: Path) -> float:
    """The same games on one process (SQLite), `concurrency` at a time, as the ladder runs."""
    from server.config import ServerConfig
    from server.runtime import GauntletServer

    store = Store(f"sqlite:///{folder / 'single.db'}")
    bots = _register(store)
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=folder / "single")
    async with GauntletServer(config, store=store) as server:
        slots = asyncio.Semaphore(concurrency)

        async def one(i: int) -> None:
            async with slots:
                seats = [SeatRequest(bot=b) for b, _ in (bots if i % 2 else bots[::-1])]
                room, _ = await server.matches.create_match(GAME, seats, seed=i)
                if room.task is not None:
                    await asyncio.shield(room.task)

        start = time.monotonic()
        await asyncio.gather(*(one(i) for i in range(games)))
        elapsed = time.monotonic() - start
    store.close()
    return games / elapsed * 60


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="gauntlet-soak-"))
    try:
        rate, lost, dup = asyncio.run(cluster(args.games, args.workers, folder))
        print(f"cluster: {args.games} games on {args.workers} workers: {rate:.1f} games/min; "
              f"lost {lost}, duplicated {dup}", flush=True)
        base = asyncio.run(single(args.games, args.workers, folder))
        print(f"single process: {args.games} games, {args.workers} at a time: "
              f"{base:.1f} games/min", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if lost or dup else 0


if __name__ == "__main__":
    sys.exit(main())
