"""Packed event logs, the retention and `gauntlet db prune`, on SQLite and PostgreSQL.

An ended match's events are packed into one row (`Store.pack_match`) and read back exactly
as their rows were; the retention drops old events (results, seats and ratings stay) and
deletes matches that ended without a move; `gauntlet db prune` does it all at once and
gives the space back (VACUUM).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from server.store import JSONText, MatchStatus, NewEvent, NewSeat, SeatOutcome, Store, migrate
from server.store.retention import Retention, sweep

REPO = Path(__file__).resolve().parents[3]
LONG_AGO = datetime(2026, 1, 1, 12, tzinfo=UTC)


def _rows(store: Store, match_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT count(*) FROM match_events WHERE match_id = :m"),
                                {"m": match_id}).scalar_one())


def _seen(store: Store, match_id: str, since: int = 0,
          limit: int | None = None) -> list[tuple[Any, ...]]:
    return [(e.match_id, e.seq, e.time, e.kind, e.payload)
            for e in store.events_since(match_id, since, limit=limit)]


def _match(store: Store, kinds: list[str], *, status: MatchStatus | None = None,
           at: datetime = LONG_AGO, result: bool = False) -> str:
    """A match with one event of each of `kinds`, ended at `at` (status or a result)."""
    match = store.create_match("blokus", [NewSeat("a"), NewSeat("b")], seed=1)
    store.set_status(match.id, MatchStatus.RUNNING, at=at - timedelta(minutes=5))
    store.append_events([NewEvent(match.id, i, kind, {"i": i}, at - timedelta(seconds=60 - i))
                         for i, kind in enumerate(kinds)])
    if result:
        store.store_result(match.id, winner=0, reason="REGULAR", scores={"scores": [2, 1]},
                           seats=[SeatOutcome(0, "win"), SeatOutcome(1, "loss")], at=at)
    elif status is not None:
        store.set_status(match.id, status, at=at)
    return match.id


def test_a_packed_match_reads_back_exactly_as_its_rows(store: Store) -> None:
    match = store.create_match("hearth", [NewSeat("a"), NewSeat("b")])
    store.set_status(match.id, MatchStatus.RUNNING)
    t0 = datetime(2027, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
    payloads: list[Any] = [
        JSONText('{"seats":[0],"observers":false,"seat":0}'),
        {"nested": {"deep": [[1, [2, [3, {"x": "é ✓ \\u0000"}]]]]}, "f": 0.1, "n": None},
        JSONText('{"b":1,"a":2}'),  # key order kept
        {"big": "x" * 50_000},
        [1, 2, 3],
    ]
    events = [NewEvent(match.id, seq, ["welcome", "state", "decision", "state", "other"][seq],
                       payload, t0 + timedelta(microseconds=7 * seq ** 3))
              for seq, payload in enumerate(payloads)]
    store.append_events(events)
    assert store.pack_match(match.id) is False  # still running: its events keep coming
    store.store_result(match.id, winner=None, reason="DRAW", scores={})
    rows = _seen(store, match.id)
    slices = {(s, n): _seen(store, match.id, s, n) for s in (0, 2, 4, 9) for n in (None, 1, 3)}
    last = store.last_seq(match.id)

    assert store.pack_match(match.id) is True
    assert _rows(store, match.id) == 0
    assert _seen(store, match.id) == rows
    assert {k: _seen(store, match.id, *k) for k in slices} == slices
    assert store.last_seq(match.id) == last == 4
    assert list(rows[2][4]) == ["b", "a"] and list(_seen(store, match.id)[2][4]) == ["b", "a"]
    assert store.pack_match(match.id) is False  # nothing left as rows

    # A row arriving after the pack (the room's `closed`) reads back with it, and the next
    # pack merges it in.
    late = NewEvent(match.id, 5, "closed", {"late": True}, t0 + timedelta(seconds=9))
    store.append_events([late])
    expected = [*rows, (match.id, 5, late.time, "closed", {"late": True})]
    assert _seen(store, match.id) == expected
    assert store.pack_match(match.id) is True
    assert _rows(store, match.id) == 0 and _seen(store, match.id) == expected
    assert store.last_seq(match.id) == 5

    # And back as rows (what an older version wrote).
    assert store.unpack_match(match.id) == 6
    assert _rows(store, match.id) == 6 and _seen(store, match.id) == expected


def test_the_retention_drops_old_events_and_keeps_results(store: Store) -> None:
    old = _match(store, ["welcome", "state", "state", "result"], result=True)
    store.pack_match(old)
    old_rows = _match(store, ["welcome", "state", "state"], status=MatchStatus.ABORTED)
    recent = _match(store, ["state", "state"], result=True, at=datetime.now(UTC))
    running = store.create_match("blokus", [NewSeat("a")])
    store.set_status(running.id, MatchStatus.RUNNING, at=LONG_AGO)
    store.append_events([NewEvent(running.id, 0, "state", {}, LONG_AGO)])
    result, seats = store.get_result(old), store.seats(old)
    cutoff = datetime.now(UTC) - timedelta(days=30)

    pruned = store.prune(events_before=cutoff)
    assert sorted(pruned.dropped) == sorted([old, old_rows]) and pruned.deleted == []
    for match_id in (old, old_rows):
        assert store.events_since(match_id) == [] and _rows(store, match_id) == 0
        assert store.events_dropped(match_id) is not None
        assert store.get_match(match_id) is not None
    assert store.get_result(old) == result and store.seats(old) == seats
    assert len(store.events_since(recent)) == 2 and store.events_dropped(recent) is None
    assert len(store.events_since(running.id)) == 1  # open: never touched
    assert store.prune(events_before=cutoff).dropped == []  # once
    # A late row of a dropped match is dropped too when it is packed.
    store.append_events([NewEvent(old, 9, "closed", {}, LONG_AGO)])
    assert store.pack_match(old) and store.events_since(old) == []


def test_unplayed_matches_are_deleted_once_old(store: Store) -> None:
    """No move = at most the opening state; a match with a result is always kept."""
    unplayed = _match(store, ["welcome", "welcome", "state", "decision"],
                      status=MatchStatus.ABORTED)
    packed = _match(store, ["welcome", "state"], status=MatchStatus.CANCELLED)
    assert store.pack_match(packed)
    empty = _match(store, [], status=MatchStatus.ABORTED)
    played = _match(store, ["welcome", "state", "decision", "state"],
                    status=MatchStatus.ABORTED)
    finished = _match(store, ["state", "result"], result=True)
    recent = _match(store, ["state"], status=MatchStatus.ABORTED, at=datetime.now(UTC))
    waiting = store.create_match("blokus", [NewSeat("a")]).id

    pruned = store.prune(unplayed_before=datetime.now(UTC) - timedelta(hours=1))
    assert sorted(pruned.deleted) == sorted([unplayed, packed, empty])
    for match_id in pruned.deleted:
        assert store.get_match(match_id) is None and store.seats(match_id) == []
        assert store.events_since(match_id) == []
    for match_id in (played, finished, recent, waiting):
        assert store.get_match(match_id) is not None


def test_a_sweep_packs_leftovers_a_slice_at_a_time(store: Store) -> None:
    """Ended matches still stored as rows (a crash before their pack, an older version)."""
    ids = [_match(store, ["welcome", "state", "state"], status=MatchStatus.ABORTED)
           for _ in range(5)]
    before = {i: _seen(store, i) for i in ids}
    first = sweep(store, Retention(0, 0), limit=3)
    assert first.packed == 3 and first.more
    second = sweep(store, Retention(0, 0), limit=3)
    assert second.packed == 2 and not second.more
    assert all(_rows(store, i) == 0 for i in ids)
    assert {i: _seen(store, i) for i in ids} == before


def test_the_probe_leaves_nothing_behind(store: Store) -> None:
    store.probe()
    store.probe(size=10)
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM store_probe")).scalar_one() == 0


def _gauntlet(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "gauntlet"), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, **(env or {})})


def test_gauntlet_db_prune_drops_and_gives_the_space_back(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    url = f"sqlite:///{db}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        big = {"frame": os.urandom(30_000).hex()}  # what a packed log cannot shrink
        old = []
        for _ in range(20):
            match_id = _match(store, ["welcome", "state", "state", "result"], result=True)
            store.append_events([NewEvent(match_id, 4, "state", big, LONG_AGO)])
            old.append(match_id)
        unplayed = _match(store, ["state"], status=MatchStatus.ABORTED)
        recent = _match(store, ["state", "state", "result"], result=True,
                        at=datetime.now(UTC))
        (tmp_path / "data" / "seat-logs" / old[0]).mkdir(parents=True)
        (tmp_path / "data" / "seat-logs" / old[0] / "0.log").write_text("== out\n")
    finally:
        store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = db.stat().st_size

    done = _gauntlet("db", "prune", "--db", url, "--older-than", "30",
                     "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    assert "events of 20 matches dropped, 1 unplayed matches deleted" in done.stdout
    assert "(vacuumed)" in done.stdout
    assert db.stat().st_size < before / 4, (before, db.stat().st_size)
    assert not (tmp_path / "data" / "seat-logs" / old[0]).exists()
    store = Store(url)
    try:
        assert all(store.get_result(i) is not None and store.events_since(i) == []
                   for i in old)
        assert store.get_match(unplayed) is None
        assert len(store.events_since(recent)) == 3
    finally:
        store.close()
    # The setting says the same as the option; 0 keeps the events.
    again = _gauntlet("db", "prune", "--db", url, env={"GAUNTLET_EVENT_RETENTION_DAYS": "0"})
    assert again.returncode == 0 and "events of 0 matches dropped" in again.stdout


def test_gauntlet_db_prune_reports_a_bad_database_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_bytes(b"not a database" * 1000)
    done = _gauntlet("db", "prune", "--db", f"sqlite:///{tmp_path / 'junk.db'}")
    assert done.returncode != 0
    assert done.stderr.startswith("error: cannot prune") and "Traceback" not in done.stderr


@pytest.mark.parametrize("days", ["-1", "soon"])
def test_gauntlet_db_prune_refuses_a_bad_age(days: str, tmp_path: Path) -> None:
    done = _gauntlet("db", "prune", "--db", f"sqlite:///{tmp_path / 'g.db'}",
                     "--older-than", days)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_the_packing_doctests() -> None:
    import doctest

    import server.store.packing

    assert doctest.testmod(server.store.packing).failed == 0


def test_a_packed_log_of_an_unknown_format_is_refused() -> None:
    import zlib

    from server.store.packing import PackError, unpack

    with pytest.raises(PackError, match="format 2"):
        unpack(zlib.compress(b'{"format":2,"events":[]}'))
    with pytest.raises(PackError, match="not a packed log"):
        unpack(b"garbage")


async def test_a_running_server_sweeps_its_store(tmp_path: Path) -> None:
    """Rows left by a crash or an older version are packed, unplayed matches deleted, by
    the server itself (its first sweep runs as it starts)."""
    import asyncio

    from server.config import ServerConfig
    from server.runtime import GauntletServer

    url = f"sqlite:///{tmp_path / 'g.db'}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        left = _match(store, ["welcome", "state", "state", "result"], result=True)
        unplayed = _match(store, ["state"], status=MatchStatus.ABORTED)
        before = _seen(store, left)
        config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "data",
                              unplayed_retention_minutes=30)
        async with GauntletServer(config, store=store) as server:
            assert server.housekeeping is not None
            async with asyncio.timeout(60):
                while _rows(store, left) or store.get_match(unplayed) is not None:
                    await asyncio.sleep(0.05)
        assert _seen(store, left) == before
    finally:
        store.close()


def test_the_downgrade_writes_packed_events_back_as_rows(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        match_id = _match(store, ["welcome", "state", "state", "result"], result=True)
        before = _seen(store, match_id)
        assert store.pack_match(match_id) and _rows(store, match_id) == 0
    finally:
        store.close()
    migrate.downgrade(url, "0002")
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT seq, kind, payload FROM match_events "
                                        "WHERE match_id = :m ORDER BY seq"),
                                {"m": match_id}).all()
            tables = sa.inspect(conn).get_table_names()
    finally:
        engine.dispose()
    assert "match_logs" not in tables and "store_probe" not in tables
    import json

    assert [(seq, kind, json.loads(payload)) for seq, kind, payload in rows] == \
        [(e[1], e[3], e[4]) for e in before]
    migrate.upgrade(url)  # and up again
    store = Store(url)
    try:
        assert _seen(store, match_id) == before
    finally:
        store.close()
