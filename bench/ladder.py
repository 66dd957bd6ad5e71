"""Ladder throughput: games per minute and CPU per game with the bundled random bots.

    python -m bench ladder                      # 45 s per game
    GAUNTLET_BENCH_LADDER_SECONDS=20 python -m bench ladder

A real server in this process (SQLite store in a temporary folder, HTTP off), the ladder at
its default concurrency (cores - 1) or GAUNTLET_LADDER_CONCURRENCY, one game at a time, two
bundled random bots per game (`random` and a second registration of the same command). Each
game is launched as child processes by the launcher, as the ladder always does: bot start-up
is part of the cost. CPU: the server process, and the bot processes (reaped children).
"""

from __future__ import annotations

import asyncio
import os
import resource
import tempfile
import time
from pathlib import Path

from server.config import ServerConfig
from server.ladder import LadderOptions
from server.runtime import GauntletServer
from server.store import Store

RANDOM = {"swc_2027_blokus": "random", "hearth": "hearth-random"}


def _cpu() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


async def _run(seconds: float) -> list[str]:
    lines = []
    concurrency = os.environ.get("GAUNTLET_LADDER_CONCURRENCY")
    options = LadderOptions(concurrency=int(concurrency) if concurrency else None)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'ladder.db'}")
        server = GauntletServer(ServerConfig(tcp_port=0, admin_password="pw",
                                             data_dir=Path(tmp) / "data"),
                                store=store, ladder=options)
        await server.start()
        ladder = server.ladder
        assert ladder is not None
        try:
            for game, name in RANDOM.items():
                for bot in store.list_bots(game=game):
                    if bot.name != name and bot.id is not None:
                        store.delete_bot(bot.id)
                random = store.get_bot_by_name(name)
                assert random is not None
                store.create_bot(f"{name}-2", game, random.command)
            for game in RANDOM:
                before = ladder.ladder.rated_matches(game)
                cpu0, kids0 = _cpu()
                start = time.perf_counter()
                await ladder.set_running(game, True)
                await asyncio.sleep(seconds)
                await ladder.set_running(game, False)
                while ladder.live_games().get(game):
                    await asyncio.sleep(0.1)
                wall = time.perf_counter() - start
                cpu1, kids1 = _cpu()
                games = ladder.ladder.rated_matches(game) - before
                per = max(games, 1)
                lines.append(f"| {game} | {ladder.concurrency} | {games} | {wall:.0f} | "
                             f"{games * 60 / wall:.1f} | {(cpu1 - cpu0) * 1000 / per:.0f} | "
                             f"{(kids1 - kids0) * 1000 / per:.0f} |")
        finally:
            await server.close()
            store.close()
    return lines


def main() -> None:
    seconds = float(os.environ.get("GAUNTLET_BENCH_LADDER_SECONDS", "45"))
    print(f"Ladder, bundled random vs random, {seconds:.0f} s per game, "
          f"{os.cpu_count()} cores\n")
    print("| game | concurrency | games rated | wall s | games/min | server CPU ms/game "
          "| bots CPU ms/game |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for line in asyncio.run(_run(seconds)):
        print(line)


if __name__ == "__main__":
    main()
