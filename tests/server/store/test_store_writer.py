"""StoreWriter: batching, ordering, durability of results, backpressure, failing databases."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from server.store import (
    Conflict,
    NewEvent,
    NewSeat,
    NotFound,
    SeatOutcome,
    Store,
    StoreWriteError,
    StoreWriter,
    migrate,
)
from tests.faults import checked_statements


def _new_match(store: Store, seats: int = 2) -> str:
    return store.create_match("blokus", [NewSeat(f"p{i}") for i in range(seats)]).id


async def test_many_matches_at_once_are_stored_in_order_once(store: Store) -> None:
    matches = [_new_match(store) for _ in range(30)]
    per_match = 150
    rng = random.Random(5)

    async def play(match_id: str) -> None:
        for seq in range(per_match):
            await writer.append(match_id, seq, "move", {"seq": seq, "match": match_id})
            if rng.random() < 0.3:
                await asyncio.sleep(0)

    async with StoreWriter(store, max_pending=64, batch_size=50, max_delay=0.005) as writer:
        await asyncio.gather(*(play(m) for m in matches))
        await writer.flush()
        stats = writer.stats
        assert writer.pending == 0

    total = len(matches) * per_match
    assert stats.committed_events == total and stats.dropped_events == 0
    assert stats.batches < total / 10  # batched, not one commit per event
    assert stats.largest_batch <= 50
    for match_id in matches:
        events = store.events_since(match_id)
        assert [e.seq for e in events] == list(range(per_match))
        assert all(e.payload == {"seq": e.seq, "match": match_id} for e in events)
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM match_events")).scalar_one() == total


async def test_a_result_is_readable_elsewhere_when_the_await_returns(
        store: Store, db_url: str) -> None:
    match_id = _new_match(store)
    other = Store(db_url)  # its own engine: a second connection, as another process would
    try:
        async with StoreWriter(store, max_delay=0.5) as writer:
            await writer.call(lambda s: s.set_status(match_id, "running"))
            for seq in range(40):
                await writer.append(match_id, seq, "move", {"seq": seq})
            result = await writer.commit_result(
                match_id, winner=1, reason="REGULAR", scores={"points": [3, 8]},
                seats=[SeatOutcome(0, "loss", [0, 3]), SeatOutcome(1, "win", [2, 8])])
            # No flush, no sleep: the await itself is the guarantee.
            stored = other.get_result(match_id)
            assert stored is not None and stored.scores == {"points": [3, 8]}
            assert stored.committed == result.committed
            assert len(other.events_since(match_id)) == 40
            match = other.get_match(match_id)
            assert match is not None and match.status == "finished"
            with pytest.raises(Conflict):
                await writer.commit_result(match_id, winner=0, reason="twice")
    finally:
        other.close()


async def test_calls_run_in_order_with_events(store: Store) -> None:
    """Creating a match, its events and its result need no await in between."""
    async with StoreWriter(store) as writer:
        match_id = "00000000-0000-4000-8000-000000000001"
        created = writer.call(
            lambda s: s.create_match("hearth", [NewSeat("a")], match_id=match_id))
        started = writer.call(lambda s: s.set_status(match_id, "running"))
        for seq in range(5):
            assert writer.try_append(match_id, seq, "move", {"seq": seq})
        result = await writer.commit_result(match_id, winner=0, reason="REGULAR")
        assert created.done() and started.done()
        assert (await created).id == match_id and result.match_id == match_id
    assert [e.seq for e in store.events_since(match_id)] == list(range(5))


async def test_a_call_nobody_waits_for_joins_the_next_group(store: Store) -> None:
    """`soon=False` (a status change): the thread keeps gathering (up to `max_delay`, here
    far longer than the test) instead of committing at once; the next call that someone
    awaits takes it along, in queue order."""
    match_id = _new_match(store)
    async with StoreWriter(store, max_delay=60) as writer:
        started = writer.call(lambda s: s.set_status(match_id, "running"), soon=False)
        await asyncio.sleep(0.3)
        assert not started.done()
        async with asyncio.timeout(20):
            found = await writer.call(lambda s: s.get_match(match_id))
        assert started.done() and started.exception() is None
        assert found is not None and found.status == "running"


async def test_a_result_waits_for_company_while_other_matches_write(store: Store) -> None:
    """`commit_delay` (here far longer than the test): a result is held back while another
    match is writing, so that one commit serves several matches; here a flush ends the
    wait, and both results share a group."""
    first, second = _new_match(store), _new_match(store)
    async with StoreWriter(store, max_delay=60, commit_delay=30) as writer:
        await writer.append(first, 0, "move")
        await writer.append(second, 0, "move")
        await writer.flush()
        groups = writer.stats.groups
        await writer.append(second, 1, "move")
        one = asyncio.ensure_future(writer.commit_result(first, winner=0, reason="REGULAR"))
        await asyncio.sleep(0.3)
        assert not one.done()
        other = asyncio.ensure_future(writer.commit_result(second, winner=1, reason="REGULAR"))
        await asyncio.sleep(0.1)
        assert not other.done()
        async with asyncio.timeout(20):
            await writer.flush()
        assert one.done() and other.done()
        assert writer.stats.groups == groups + 1
    assert store.get_result(first) is not None and store.get_result(second) is not None
    assert [e.seq for e in store.events_since(second)] == [0, 1]


async def test_a_match_alone_is_not_kept_waiting(store: Store) -> None:
    """Nobody else writes: the result is committed at once, whatever `commit_delay` says.
    (The other match's events are two batches old by then.)"""
    alone, idle = _new_match(store), _new_match(store)
    async with StoreWriter(store, max_delay=60, commit_delay=30) as writer:
        await writer.append(idle, 0, "move")
        await writer.flush()
        await writer.append(alone, 0, "move")
        await writer.flush()
        await writer.append(alone, 1, "move")
        async with asyncio.timeout(20):
            await writer.commit_result(alone, winner=0, reason="REGULAR")
    assert store.get_result(alone) is not None


async def test_a_full_queue_makes_appends_wait_in_order(store: Store) -> None:
    match_id = _new_match(store)
    gate = threading.Event()
    async with StoreWriter(store, max_pending=4, batch_size=100) as writer:
        blocked = writer.call(lambda s: gate.wait(10))
        for seq in range(4):
            await writer.append(match_id, seq, "move")
        assert writer.pending == 4
        assert not writer.try_append(match_id, 99, "refused")
        waiting = [asyncio.ensure_future(writer.append(match_id, seq, "move"))
                   for seq in (4, 5, 6)]
        cancelled = asyncio.ensure_future(writer.append(match_id, 98, "cancelled"))
        await asyncio.sleep(0.05)
        assert not any(t.done() for t in waiting)
        cancelled.cancel()
        gate.set()
        assert await blocked is True
        await asyncio.gather(*waiting)
        await writer.flush()
        assert writer.pending == 0  # the cancelled append gave its slot back
    assert [e.seq for e in store.events_since(match_id)] == list(range(7))


async def test_a_bad_event_costs_only_its_own_match(store: Store) -> None:
    good = [_new_match(store) for _ in range(3)]
    twice = _new_match(store)
    async with StoreWriter(store, max_delay=0.2) as writer:
        for seq in range(10):
            for match_id in good:
                await writer.append(match_id, seq, "move", {"seq": seq})
            if seq == 5:
                await writer.append("no-such-match", 0, "move")
                await writer.append(twice, 0, "move")
                await writer.append(twice, 0, "again")
        with pytest.raises(StoreWriteError) as raised:
            await writer.flush()
        assert set(raised.value.failures) == {"no-such-match", twice}
        await writer.flush()  # reported once
        await writer.append(twice, 1, "after the gap")
        with pytest.raises(StoreWriteError, match="result was not written"):
            await writer.commit_result(twice, winner=0, reason="REGULAR")
        for match_id in good:
            await writer.commit_result(match_id, winner=0, reason="REGULAR")
        assert writer.alive
        assert writer.stats.dropped_events == 4
    for match_id in good:
        assert [e.seq for e in store.events_since(match_id)] == list(range(10))
        assert store.get_result(match_id) is not None
    assert store.events_since(twice) == [] and store.get_result(twice) is None


async def test_a_read_only_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    migrate.upgrade(f"sqlite:///{path}")
    writable = Store(f"sqlite:///{path}")
    match_id = _new_match(writable)
    writable.close()
    read_only = Store(f"sqlite:///file:{path}?mode=ro&uri=true")
    try:
        async with StoreWriter(read_only) as writer:
            await writer.append(match_id, 0, "move")
            with pytest.raises(StoreWriteError, match="readonly") as raised:
                await writer.flush()
            assert isinstance(raised.value.__cause__, sa.exc.OperationalError)
            with pytest.raises(StoreWriteError):
                await writer.commit_result(match_id, winner=0, reason="REGULAR")
            with pytest.raises(sa.exc.OperationalError, match="readonly"):
                await writer.call(lambda s: s.create_match("blokus"))
            assert writer.alive
            match = await writer.call(lambda s: s.get_match(match_id))
            assert match is not None and match.status == "waiting"
    finally:
        read_only.close()


async def test_the_writer_outlives_a_failing_disk(store: Store) -> None:
    failing = {"on": False}

    def disk_full(statement: str) -> None:
        if failing["on"] and statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise OSError(28, "No space left on device")

    lost = _new_match(store)
    with checked_statements(store.engine, disk_full):
        async with StoreWriter(store) as writer:
            failing["on"] = True
            await writer.append(lost, 0, "move")
            with pytest.raises(StoreWriteError, match="No space left"):
                await writer.flush()
            with pytest.raises(StoreWriteError):
                await writer.commit_result(lost, winner=0, reason="REGULAR")
            failing["on"] = False
            assert writer.alive
            fine = await writer.call(lambda s: s.create_match("blokus", [NewSeat("a")]))
            await writer.append(fine.id, 0, "move")
            await writer.commit_result(fine.id, winner=0, reason="REGULAR")
            # The lost match can still be closed down by the caller.
            await writer.call(lambda s: s.set_status(lost, "aborted"))
    assert len(store.events_since(fine.id)) == 1
    lost_match = store.get_match(lost)
    assert lost_match is not None and lost_match.status == "aborted"


async def test_appends_never_wait_for_a_locked_database(tmp_path: Path) -> None:
    """Another process holding SQLite's write lock stalls the thread, not the loop."""
    path = tmp_path / "locked.db"
    migrate.upgrade(f"sqlite:///{path}")
    store = Store(f"sqlite:///{path}")
    match_id = _new_match(store)
    locker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN IMMEDIATE")
    try:
        async with StoreWriter(store, max_delay=0) as writer:
            ticks = 0
            started = time.monotonic()
            for seq in range(20):
                await writer.append(match_id, seq, "move")
            flushed = asyncio.ensure_future(writer.flush())
            while time.monotonic() - started < 0.5:
                await asyncio.sleep(0.01)
                ticks += 1
            assert ticks > 25 and not flushed.done()
            locker.execute("COMMIT")
            await flushed
    finally:
        locker.close()
        store.close()
    assert len(Store(f"sqlite:///{path}").events_since(match_id)) == 20


async def test_a_closed_writer_refuses_work(store: Store) -> None:
    writer = StoreWriter(store)
    with pytest.raises(RuntimeError, match="not started"):
        await writer.append("x", 0, "move")
    await writer.start()
    match_id = _new_match(store)
    await writer.append(match_id, 0, "move")
    await writer.close()
    await writer.close()
    assert not writer.alive
    assert len(store.events_since(match_id)) == 1  # close committed what was queued
    with pytest.raises(StoreWriteError):
        await writer.append(match_id, 1, "move")
    with pytest.raises(StoreWriteError):
        await writer.flush()


def test_events_are_plain_values() -> None:
    """The writer's input is the store's `NewEvent`: no room types needed."""
    e = NewEvent("m", 3, "move", {"x": 1})
    assert (e.match_id, e.seq, e.kind, e.payload) == ("m", 3, "move", {"x": 1})
    assert e.time.tzinfo is not None


async def test_a_group_runs_without_savepoints_until_a_write_fails(tmp_path: Path) -> None:
    """On SQLite a group where nothing fails runs its writes without savepoints (each is a
    statement that costs the writer a GIL hand-off); when one write fails the group is
    rolled back and written again with them: the failing call gets its error, nothing
    else is lost, nothing is counted twice. (PostgreSQL always uses the savepoints.)"""
    url = f"sqlite:///{tmp_path / 'gauntlet.db'}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        await _savepoints_only_when_needed(store)
    finally:
        store.close()


async def _savepoints_only_when_needed(store: Store) -> None:
    statements: list[str] = []
    event.listen(store.engine, "connect",
                 lambda dbapi, _record: dbapi.set_trace_callback(statements.append))
    store.engine.dispose()  # new connections, traced
    first, second = _new_match(store), _new_match(store)
    gate = threading.Event()
    async with StoreWriter(store, max_delay=0.2) as writer:
        await writer.append(first, 0, "move")
        await writer.flush()
        assert statements and not [s for s in statements if "SAVEPOINT" in s]
        # One group: a call holds the writer while the rest queue behind it.
        blocked = writer.call(lambda s: gate.wait(10))
        await asyncio.sleep(0.05)
        for seq in (1, 2):
            await writer.append(first, seq, "move")
        failing = writer.call(lambda s: s.set_status("no-such-match", "running"))
        await writer.append(second, 0, "move")
        started = writer.call(lambda s: s.set_status(second, "running"))
        statements.clear()
        gate.set()
        assert await blocked is True
        with pytest.raises(NotFound):
            await failing
        await started
        found = store.get_match(second)
        assert found is not None and found.status == "running"
        await writer.flush()
        assert [s for s in statements if "SAVEPOINT" in s]  # the careful second run
        assert writer.stats.dropped_events == 0 and writer.stats.committed_events == 4
    assert [e.seq for e in store.events_since(first)] == [0, 1, 2]
    assert [e.seq for e in store.events_since(second)] == [0]
