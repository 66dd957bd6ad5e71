"""What a stored match costs on disk, and how fast the demo ladder may play for a night.

Issue #24: `make run` for 27 minutes wrote 1.12 GB (3,144 matches; a Hearth match about
617 KB, a Blokus match about 16 KB). Targets: at most 60 KB per stored Hearth match and
8 KB per Blokus match (all its rows: match, seats, events, result), and a night of
`make run` under 1 GB.

The real server (`GauntletServer`, a SQLite file in a temporary folder) plays ladder-like
matches of the bundled bots, launched as processes as the demo ladder launches them (Blokus
`random` vs `greedy`, Hearth `hearth-random` vs `hearth-greedy`, seats alternating), a few
at a time. Measured per game, over the matches after a warm-up (so that the file's fixed
pages and first-time growth are not counted):

- the database file's growth per match (WAL checkpointed and truncated first, so the file
  holds everything; freed pages that later matches reuse are counted where they were made);
- the stored bytes per match (`stored_bytes`: the values of all the match's rows), median
  and maximum;
- a VACUUMed copy of the file per match (its fixed pages included), and the same with the
  events unpacked into rows again (what the previous version stored, less its HSReplay
  copy of 89 KB per Hearth match);
- the launched bots' output under `seat-logs/` (disk blocks per match).

Then the demo's pace: the interval between ladder games at which 12 hours stay under 1 GB.

    .venv/bin/python -m bench.store_size
    .venv/bin/python -m bench.store_size --matches 50 --warmup 5 --concurrency 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

GAMES = {"swc_2027_blokus": ("random", "greedy"), "hearth": ("hearth-random", "hearth-greedy")}
TARGETS = {"swc_2027_blokus": 8_000, "hearth": 60_000}
NIGHT_SECONDS = 12 * 3600
NIGHT_BUDGET = 1_000_000_000


def _value_bytes(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, bool | int | float | datetime):
        return 8
    return len(json.dumps(value, separators=(",", ":")).encode())


def stored_bytes(store: Any, match_id: str) -> int:
    """The bytes of every value in the rows a match has (match, seats, events, packed log,
    result): what it stores, without the database's own per-row and index overhead."""
    from server.store.models import Match, MatchEvent, MatchLog, Result, Seat

    total = 0
    with store.engine.connect() as conn:
        for model, key in ((Match, "id"), (Seat, "match_id"), (MatchEvent, "match_id"),
                           (MatchLog, "match_id"), (Result, "match_id")):
            table: sa.Table = model.__table__  # type: ignore[union-attr]
            for row in conn.execute(sa.select(table).where(table.c[key] == match_id)):
                total += sum(_value_bytes(v) for v in row)
    return total


def _file_bytes(db: Path) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    return db.stat().st_size


def _disk_bytes(folder: Path) -> int:
    if not folder.exists():
        return 0
    total = folder.stat().st_blocks * 512
    for path in folder.rglob("*"):
        total += path.stat().st_blocks * 512
    return total


@dataclass
class GameSize:
    game: str
    matches: int
    file_per_match: float
    stored_median: float
    stored_max: int
    vacuumed_per_match: float  # a VACUUMed copy of the file, per match
    rows_per_match: float  # the same, the events unpacked into rows
    seat_logs_per_match: float
    seconds_per_match: float
    ids: list[str] = field(default_factory=list)


async def _play(server: Any, game: str, seats: tuple[str, str], count: int, concurrency: int,
                seed: int) -> tuple[list[str], float]:
    from server.matches import SeatRequest

    ids: list[str] = []
    queue = list(range(count))
    started = time.perf_counter()

    async def worker() -> None:
        while queue:
            i = queue.pop(0)
            a, b = seats if i % 2 == 0 else seats[::-1]
            room, _ = await server.matches.create_match(
                game, [SeatRequest(bot=a), SeatRequest(bot=b)], seed=seed + i)
            ids.append(room.id)
            if room.task is not None:
                await asyncio.shield(room.task)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    # Each room's end queued its pack before its task's awaiter resumed: this flush
    # commits them.
    await server.writer.flush()
    return ids, time.perf_counter() - started


async def _measure(folder: Path, game: str, matches: int, warmup: int,
                   concurrency: int) -> GameSize:
    from server.config import ServerConfig
    from server.runtime import GauntletServer
    from server.store import Store

    db = folder / f"{game}.db"
    data = folder / f"data-{game}"
    store = Store(f"sqlite:///{db}")
    config = ServerConfig(tcp_port=0, admin_password="bench", data_dir=data)
    try:
        async with GauntletServer(config, store=store) as server:
            await _play(server, game, GAMES[game], warmup, concurrency, 1000)
            assert server.writer is not None
            before, logs_before = _file_bytes(db), _disk_bytes(data / "seat-logs")
            ids, seconds = await _play(server, game, GAMES[game], matches, concurrency, 5000)
            after, logs_after = _file_bytes(db), _disk_bytes(data / "seat-logs")
        sizes = [stored_bytes(store, i) for i in ids]
    finally:
        store.close()
    count = warmup + len(ids)
    return GameSize(game, len(ids), (after - before) / len(ids), statistics.median(sizes),
                    max(sizes), _vacuumed(db, count, rows=False),
                    _vacuumed(db, count, rows=True), (logs_after - logs_before) / len(ids),
                    seconds / len(ids) * concurrency, ids)


def _vacuumed(db: Path, count: int, *, rows: bool) -> float:
    """A VACUUMed copy's bytes per match (`count` matches, fixed pages included), its
    events packed as they are, or unpacked into rows (`rows`) as the previous version
    stored them (less its HSReplay copy)."""
    from server.store import Store

    copy = db.with_name(f"{db.stem}-{'rows' if rows else 'packed'}.db")
    shutil.copy(db, copy)
    if rows:
        store = Store(f"sqlite:///{copy}")
        try:
            with sqlite3.connect(copy) as conn:
                ids = [i for (i,) in conn.execute("SELECT match_id FROM match_logs")]
            for match_id in ids:
                store.unpack_match(match_id)
        finally:
            store.close()
    with sqlite3.connect(copy) as conn:
        conn.execute("VACUUM")
    return _file_bytes(copy) / count


def pace(sizes: list[GameSize]) -> tuple[float, float, float]:
    """(bytes per demo ladder game, the same with each game's largest matches, the least
    interval in seconds between game starts at which a night of the largest stays under
    the budget). The demo's ladder alternates the games; seat logs included."""
    mean = statistics.mean(s.file_per_match + s.seat_logs_per_match for s in sizes)
    largest = statistics.mean(s.file_per_match * s.stored_max / s.stored_median
                              + s.seat_logs_per_match for s in sizes)
    return mean, largest, NIGHT_SECONDS * largest / NIGHT_BUDGET


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="measured matches per game")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args(argv if argv is not None else sys.argv[1:] if
                             __name__ == "__main__" else [])
    with tempfile.TemporaryDirectory(prefix="gauntlet-store-size-") as tmp:
        sizes = [asyncio.run(_measure(Path(tmp), game, args.matches, args.warmup,
                                      args.concurrency)) for game in GAMES]
    print(f"{'game':<16} {'matches':>7} {'file/match':>11} {'stored med':>11} "
          f"{'stored max':>11} {'vacuumed':>9} {'as rows':>9} {'seat logs':>10} {'target':>7}")
    for s in sizes:
        met = s.file_per_match <= TARGETS[s.game] and s.stored_max <= TARGETS[s.game]
        print(f"{s.game:<16} {s.matches:>7} {s.file_per_match / 1000:>9.1f}KB "
              f"{s.stored_median / 1000:>9.1f}KB {s.stored_max / 1000:>9.1f}KB "
              f"{s.vacuumed_per_match / 1000:>7.1f}KB {s.rows_per_match / 1000:>7.1f}KB "
              f"{s.seat_logs_per_match / 1000:>8.1f}KB {TARGETS[s.game] / 1000:>5.0f}KB"
              f"  ({'met' if met else 'MISSED'})")
    mean, largest, interval = pace(sizes)
    from server.commands.demo import DEMO_LADDER_INTERVAL

    games = NIGHT_SECONDS / DEMO_LADDER_INTERVAL
    print(f"\nthe demo ladder (games alternating, seat logs included): {mean / 1000:.1f} KB "
          f"a game, {largest / 1000:.1f} KB with the largest matches; a night (12 h) of "
          f"the largest under 1 GB needs {interval:.2f} s between game starts. The demo "
          f"waits {DEMO_LADDER_INTERVAL} s: at most {games:.0f} games, "
          f"{games * mean / 1e9:.2f} GB a night ({games * largest / 1e9:.2f} GB with the "
          "largest matches)")
    print(f"cpu: {os.cpu_count()} cores; seconds per match (one slot): "
          + ", ".join(f"{s.game} {s.seconds_per_match:.2f}" for s in sizes))


if __name__ == "__main__":
    main()
