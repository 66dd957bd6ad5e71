"""StoreWriter.append_rendered: events rendered on the writer thread, in queue order."""

from __future__ import annotations

import functools
import threading
from datetime import datetime

import pytest

from server.store import NewEvent, NewSeat, Store, StoreWriteError, StoreWriter


def _new_match(store: Store) -> str:
    return store.create_match("blokus", [NewSeat("a"), NewSeat("b")]).id


async def test_rendered_events_are_rendered_on_the_writer_thread_in_order(store: Store) -> None:
    match_id = _new_match(store)
    threads: set[str] = set()

    def render(first: int, count: int, now: datetime) -> list[NewEvent]:
        threads.add(threading.current_thread().name)
        return [NewEvent(match_id, seq, "move", {"seq": seq}, now)
                for seq in range(first, first + count)]

    async with StoreWriter(store, max_pending=8, batch_size=5, max_delay=0.001) as writer:
        seq = 0
        for count in (1, 3, 2, 4, 1, 3):  # more than max_pending in all: some wait for room
            call = functools.partial(render, seq, count)
            if not (count % 2 and writer.try_append_rendered(match_id, count, call)):
                await writer.append_rendered(match_id, count, call)
            seq += count
        await writer.append(match_id, seq, "plain", {"seq": seq})
        await writer.flush()
        assert writer.pending == 0
        assert writer.stats.committed_events == seq + 1
        batches = writer.stats.batches
    assert threads == {"gauntlet-store-writer"}
    stored = store.events_since(match_id)
    assert [e.seq for e in stored] == list(range(seq + 1))
    # Each batch's rendered events share the batch's time (converted for the database once).
    assert 1 < len({e.time for e in stored[:-1]}) <= batches


async def test_a_render_that_fails_fails_its_match_only(store: Store) -> None:
    bad, good = _new_match(store), _new_match(store)

    def broken(now: datetime) -> list[NewEvent]:
        raise ValueError("not renderable")

    async with StoreWriter(store, max_delay=0.001) as writer:
        await writer.append(bad, 0, "move")
        await writer.append_rendered(bad, 1, broken)
        await writer.append_rendered(good, 1, lambda now: [NewEvent(good, 0, "move", {}, now)])
        await writer.append(bad, 2, "move")  # dropped: the log would have a gap
        with pytest.raises(StoreWriteError):
            await writer.flush()
        with pytest.raises(StoreWriteError):
            await writer.commit_result(bad, winner=0, reason="done")
        assert writer.pending == 0
    # Nothing after the failed render (seq 0 too when it shared the batch: a failed
    # match's events in that batch are dropped with it).
    assert [e.seq for e in store.events_since(bad)] in ([], [0])
    assert [e.seq for e in store.events_since(good)] == [0]
