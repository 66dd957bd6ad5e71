"""What the store keeps, and for how long: packing ended matches, dropping old events.

A server sweeps every `INTERVAL` seconds, on the store writer's thread (in order with the
matches' own writes, a few matches at a time so that no sweep holds the writer up):

- ended matches whose events are still rows (a `kill -9` before their pack, a failed pack,
  a store written by an older version) are packed (`Store.pack_match`);
- with `event_days` set (`GAUNTLET_EVENT_RETENTION_DAYS`; 0, the default, keeps them), the
  events of matches that ended longer ago are dropped, with their launched bots' output
  (`seat-logs/<match>`); the match, its seats, its result and the ratings stay;
- matches that ended without a result and without a move (a join nobody played, a bot that
  never came) are deleted whole once `unplayed_minutes` have passed (default 60; 0 keeps
  them).

`gauntlet db prune` runs the same sweep to the end at once, then `VACUUM`s (SQLite).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from server.store.models import utcnow
from server.store.store import Store
from server.store.writer import StoreWriter

log = logging.getLogger(__name__)

INTERVAL = 60.0
"""Seconds between two sweeps of a server."""
SLICE = 4
"""Matches one sweep packs, and prunes of each kind, at most (about 10 ms each)."""
BUSY_INTERVAL = 1.0
"""Seconds to the next sweep when the last one had more to do than its slice."""


@dataclass(frozen=True)
class Retention:
    """How long events and unplayed matches are kept (0: for ever)."""

    event_days: float = 0
    unplayed_minutes: float = 60

    def cutoffs(self, now: datetime) -> tuple[datetime | None, datetime | None]:
        """(events of matches ended before, unplayed matches ended before)."""
        return (now - timedelta(days=self.event_days) if self.event_days > 0 else None,
                now - timedelta(minutes=self.unplayed_minutes)
                if self.unplayed_minutes > 0 else None)


@dataclass
class Swept:
    """What a sweep did."""

    packed: int = 0
    dropped: list[str] = field(default_factory=list)  # matches whose events it dropped
    deleted: list[str] = field(default_factory=list)  # unplayed matches it deleted
    more: bool = False  # a slice was full: there may be more to do

    def add(self, other: Swept) -> None:
        self.packed += other.packed
        self.dropped += other.dropped
        self.deleted += other.deleted
        self.more = other.more


def sweep(store: Store, retention: Retention, limit: int | None = SLICE,
          now: datetime | None = None) -> Swept:
    """One sweep (blocking; a server runs it on the writer's thread). `limit` None: all."""
    events_before, unplayed_before = retention.cutoffs(now or utcnow())
    done = Swept()
    pending = store.unpacked(limit if limit is not None else 1_000_000)
    for match_id in pending:
        if store.pack_match(match_id):
            done.packed += 1
    pruned = store.prune(events_before=events_before, unplayed_before=unplayed_before,
                         limit=limit)
    done.dropped, done.deleted = pruned.dropped, pruned.deleted
    done.more = limit is not None and (len(pending) >= limit or len(pruned.dropped) >= limit
                                       or len(pruned.deleted) >= limit)
    return done


def forget_seat_logs(folder: Path | None, match_ids: list[str]) -> None:
    """Delete the launched bots' output of these matches (blocking)."""
    if folder is None:
        return
    for match_id in match_ids:
        if "/" in match_id or match_id in ("", ".", ".."):
            continue  # ids are UUIDs; never a path out of the folder
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(folder / match_id)


class Housekeeping:
    """A server's sweeps: `start()` once its writer runs, `await close()` before it closes."""

    def __init__(self, writer: StoreWriter, retention: Retention, seat_logs: Path | None,
                 interval: float = INTERVAL) -> None:
        self.writer = writer
        self.retention = retention
        self.seat_logs = seat_logs
        self.interval = interval
        self.swept = Swept()  # totals, for logs and tests
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="store-sweep")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            delay = self.interval
            try:
                done = await self.writer.call(
                    functools.partial(sweep, retention=self.retention), soon=False)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a failing store: the match service reports that
                log.warning("store sweep failed: %s", exc)
            else:
                self.swept.add(done)
                gone = done.dropped + done.deleted
                if gone:
                    await asyncio.to_thread(forget_seat_logs, self.seat_logs, gone)
                if done.dropped or done.deleted:
                    log.info("store sweep: events of %d ended matches dropped, %d unplayed "
                             "matches deleted", len(done.dropped), len(done.deleted))
                if done.more:
                    delay = BUSY_INTERVAL
            await asyncio.sleep(delay)
