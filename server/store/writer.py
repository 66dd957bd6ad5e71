"""`StoreWriter`: the event loop hands writes over, one thread commits them in batches.

DESIGN rule 3 forbids a synchronous database write on the loop, and rule 5 wants a result
durable before it is announced. So the loop only enqueues; a single writer thread commits:

- Events are batched: the thread takes what is queued (up to `batch_size`, waiting at most
  `max_delay` for more) and inserts it in one transaction, so a burst of moves costs one
  commit (one fsync), not one per event. While it waits, events do not wake it (only a
  barrier does): every wake-up of a second thread costs the loop a GIL hand-off.
- Events may be queued unrendered (`append_rendered`): a function the thread calls to get
  them (given the batch's time: a batch's events share it, and it is converted for the
  database once), so that turning game states into JSON costs the loop nothing and needs
  no other thread (a thread pool rendering beside the loop and the writer cost three
  times what the rendering itself does, in GIL hand-offs and wake-ups).
- Calls (`commit_result`, `call`) join the batch in queue order: group commit. The batch's
  events and calls run in one transaction, each call in a savepoint of its own, and one
  commit (one fsync) makes them all durable; only then are the callers told. `await
  commit_result(...)` therefore returns only once the result row and every event appended
  before it are committed; the caller announces the result after that. A call ends the
  thread's wait for more (its caller is waiting), unless queued with `soon=False` (nobody
  waits for it). A result, though, waits up to `commit_delay` (25 ms) while other matches
  are writing, for their events and results to share its commit, as PostgreSQL's
  `commit_delay` does: with ten free-running matches at once that halved the commits and
  cut the store's cost per move by more than a third; a match alone never waits. `flush` is a
  barrier: it returns once everything queued before it is committed.
- One thread and one FIFO queue keep each match's events in the order they were appended;
  (match_id, seq) being the key keeps any event from being stored twice.

Backpressure: at most `max_pending` events are queued or being written. `append` waits
(FIFO, so order is kept even for waiting callers) until the thread has committed enough to
make room; `try_append` refuses instead. The bound covers events in flight too, so memory
stays bounded however slow the disk is.

Failures: a failing batch is retried match by match, so one match's bad event (an unknown
match id, a duplicate seq, a payload that is not JSON) never costs another match its events.
A match whose events could not be stored is marked failed: its later events are dropped
(storing them would leave a gap in its log), its `commit_result` raises `StoreWriteError`,
and the next `flush` raises it too. A database that fails as a whole (read-only file, full
disk) fails every match in the batch the same way. Every failure is logged. The thread
itself never dies of a database error; if it ever stops, callers get `StoreWriteError`
instead of waiting forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time as _time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from server.store.engine import is_sqlite
from server.store.models import Result, utcnow
from server.store.store import NewEvent, SeatOutcome, Store, StoreError, TransactionLost

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_FAILED_MATCHES = 10_000
"""How many failed match ids the thread remembers (oldest forgotten first)."""

COMMIT_DELAY = 0.025
"""Seconds a result may wait for other matches' writes to share its commit (`_due`)."""


class StoreWriteError(StoreError):
    """Writes did not reach the database; `failures` maps match ids to the cause."""

    def __init__(self, message: str, failures: dict[str, BaseException] | None = None) -> None:
        super().__init__(message)
        self.failures: dict[str, BaseException] = dict(failures or {})


@dataclass
class _Call(Generic[T]):
    """A barrier: run `fn` on the thread after the events before it are committed."""

    fn: Callable[[], T]
    future: asyncio.Future[T]
    # Refuse to run if this match's events failed (its log has a gap): commit_result.
    match_id: str | None = None
    # Someone awaits it: the thread stops waiting for more and commits (see `call`).
    soon: bool = True


@dataclass
class _Flush:
    future: asyncio.Future[None]


@dataclass
class _Stop:
    future: asyncio.Future[None]


@dataclass(slots=True)
class _Render:
    """`count` events of one match, rendered on the writer thread by `render(batch time)`."""

    match_id: str
    count: int
    render: Callable[[datetime], Sequence[NewEvent]]


_Item = NewEvent | _Render | _Call[Any] | _Flush | _Stop


@dataclass
class WriterStats:
    """Counters for logs and the benchmark; written by the thread, read by anyone."""

    committed_events: int = 0
    dropped_events: int = 0
    groups: int = 0  # transactions the thread has run (each one commit)
    batches: int = 0
    failed_batches: int = 0
    largest_batch: int = 0
    errors: list[str] = field(default_factory=list)


class StoreWriter:
    """Batches a server's writes onto one thread; use as `async with StoreWriter(store):`."""

    def __init__(self, store: Store, *, max_pending: int = 10_000, batch_size: int = 500,
                 max_delay: float = 0.1, commit_delay: float = COMMIT_DELAY) -> None:
        if max_pending < 1 or batch_size < 1 or max_delay < 0 or commit_delay < 0:
            raise ValueError("max_pending and batch_size must be positive, the delays >= 0")
        self.store = store
        self.max_pending = max_pending
        self.batch_size = batch_size
        self.max_delay = max_delay
        self.commit_delay = commit_delay
        self.stats = WriterStats()
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        # Set with each barrier queued: ends the thread's wait for more events early.
        self._urgent = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._running = False  # from start() until the thread's body ends (`alive`)
        self._closing = False
        # Loop side: free event slots and the callers waiting for some, first come first served.
        self._free = max_pending
        self._waiters: deque[tuple[int, asyncio.Future[None]]] = deque()
        # Thread side only: failed matches (with the cause) and failures since the last flush.
        self._failed: OrderedDict[str, BaseException] = OrderedDict()
        self._unreported: dict[str, BaseException] = {}
        # The matches with events in the batch being gathered, and in the one before.
        self._writing: set[str] = set()
        self._written: set[str] = set()

    # --- lifecycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Start the thread; the writer then belongs to the running event loop."""
        if self._thread is not None:
            raise RuntimeError("StoreWriter already started")
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="gauntlet-store-writer",
                                        daemon=True)
        self._running = True
        self._thread.start()

    async def close(self) -> None:
        """Commit everything queued, then stop the thread (idempotent).

        Failures still unreported are logged (they were logged when they happened too),
        not raised: closing happens on shutdown paths that must go on.
        """
        if self._thread is None or self._closing:
            return
        self._closing = True
        if self._thread.is_alive():
            future = self._new_future()
            self._put_barrier(_Stop(future))
            await future
        await asyncio.to_thread(self._thread.join)

    async def __aenter__(self) -> StoreWriter:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def alive(self) -> bool:
        """The thread is running (asked for every event queued: a flag the thread clears
        as it ends, not `Thread.is_alive()`, which takes a lock)."""
        return self._running

    @property
    def pending(self) -> int:
        """Events queued or being written."""
        return self.max_pending - self._free

    # --- events -----------------------------------------------------------------------

    async def append(self, match_id: str, seq: int, kind: str, payload: Any = None, *,
                     time: datetime | None = None) -> None:
        """Queue one event; waits while `max_pending` events are queued already."""
        await self.append_many([_event(match_id, seq, kind, payload, time)])

    async def append_many(self, events: Sequence[NewEvent]) -> None:
        """Queue events in order; waits for room for all of them at once."""
        if not events:
            return
        self._check_running()
        if len(events) > self.max_pending:
            # More than fits at all: queue it in slices, each waiting its turn.
            for start in range(0, len(events), self.max_pending):
                await self.append_many(events[start:start + self.max_pending])
            return
        await self._reserve(len(events))
        if self._closing or not self.alive:  # closed while this caller waited for room
            self._give_back(len(events))
            raise StoreWriteError("the store writer is not running")
        for event in events:
            self._queue.put(event)

    def try_append(self, match_id: str, seq: int, kind: str, payload: Any = None, *,
                   time: datetime | None = None) -> bool:
        """Queue one event if there is room now; False (nothing queued) when full."""
        self._check_running()
        if self._waiters or self._free < 1:
            return False
        self._free -= 1
        self._queue.put(_event(match_id, seq, kind, payload, time))
        return True

    async def append_rendered(self, match_id: str, count: int,
                              render: Callable[[datetime], Sequence[NewEvent]]) -> None:
        """Queue `count` events of one match that the writer thread gets by `render(time)`,
        `time` being the batch's (the time the events are stored with).

        `render` runs on the writer thread, in queue order, right before the batch it joins
        is inserted: it must only read data nobody mutates any more. If it raises, the match
        is failed like a match whose events could not be stored (its log would have a gap).
        """
        self._check_running()
        count = max(1, count)
        await self._reserve(count)
        if self._closing or not self.alive:
            self._give_back(count)
            raise StoreWriteError("the store writer is not running")
        self._queue.put(_Render(match_id, count, render))

    def try_append_rendered(self, match_id: str, count: int,
                            render: Callable[[datetime], Sequence[NewEvent]]) -> bool:
        """`append_rendered` if there is room now; False (nothing queued) when full."""
        self._check_running()
        count = max(1, count)
        if not self.has_room(count):
            return False
        self._free -= count
        self._queue.put(_Render(match_id, count, render))
        return True

    def has_room(self, count: int = 1) -> bool:
        """Whether `count` events may be queued now without waiting (`try_append...`)."""
        return not self._waiters and self._free >= max(1, count)

    # --- barriers ---------------------------------------------------------------------

    async def commit_result(self, match_id: str, *, winner: int | None, reason: str,
                            scores: Any = None, seats: Sequence[SeatOutcome] = (),
                            at: datetime | None = None) -> Result:
        """Store a match's result durably; returns once it and the events before it are.

        Raises `StoreWriteError` when the match's events could not all be stored (the
        result is not written then: it would describe a log with a gap), or the store's
        `NotFound`/`Conflict` (unknown match, match over already). If the awaiting task is
        cancelled the result may still be committed; `get_result` tells.
        """
        seats = tuple(seats)

        def write() -> Result:
            return self.store.store_result(match_id, winner=winner, reason=reason,
                                           scores=scores, seats=seats, at=at)

        return await self._barrier(write, match_id)

    def call(self, fn: Callable[[Store], T], *, soon: bool = True) -> asyncio.Future[T]:
        """Queue `fn(store)` for the writer thread now; await the future for its value.

        For the rooms' other writes (create a match, set its status) without blocking the
        loop and in order with the match's events. It is queued when called, not when
        awaited, so `call(create); try_append(...)` stores the match before its events.

        `soon=False` for a write nobody waits for (a status change): it joins the batch
        the thread gathers anyway, committed within `max_delay`, instead of ending the
        thread's wait and costing a group and a commit of its own. With every call ending
        the wait, the status changes made about half of the writer's groups.
        """
        self._check_running()
        future: asyncio.Future[T] = self._new_future()
        store = self.store
        item = _Call(lambda: fn(store), future, None, soon)
        if soon:
            self._put_barrier(item)
        else:
            self._queue.put(item)
        return future

    async def flush(self) -> None:
        """Wait until everything queued before is committed.

        Raises `StoreWriteError` naming the matches whose events failed since the previous
        flush (each failure is reported by one flush only).
        """
        self._check_running()
        future = self._new_future()
        self._put_barrier(_Flush(future))
        await future

    # --- loop side helpers ------------------------------------------------------------

    def _check_running(self) -> None:
        if self._loop is None:
            raise RuntimeError("StoreWriter not started (await start() or use `async with`)")
        if self._closing or not self.alive:
            raise StoreWriteError("the store writer is not running")

    def _new_future(self) -> asyncio.Future[Any]:
        assert self._loop is not None
        return self._loop.create_future()

    def _put_barrier(self, item: _Call[Any] | _Flush | _Stop) -> None:
        self._queue.put(item)
        self._urgent.set()

    async def _barrier(self, fn: Callable[[], T], match_id: str | None) -> T:
        self._check_running()
        future: asyncio.Future[T] = self._new_future()
        self._put_barrier(_Call(fn, future, match_id))
        return await future

    async def _reserve(self, n: int) -> None:
        """Take `n` event slots, waiting in line behind earlier callers if need be."""
        if not self._waiters and self._free >= n:
            self._free -= n
            return
        assert self._loop is not None
        waiter: asyncio.Future[None] = self._loop.create_future()
        entry = (n, waiter)
        self._waiters.append(entry)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._give_back(n)  # granted just before the cancel: return the slots
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(entry)
                self._give_back(0)  # the next in line may fit now
            raise
        if not self.alive:
            # Woken because the thread is gone (the slots were not taken, see _give_back).
            raise StoreWriteError("the store writer is not running")

    def _give_back(self, n: int) -> None:
        """Loop thread: slots are free again; wake waiters in order while they fit.

        Once the thread is gone every waiter is woken without slots, to fail at once.
        """
        self._free += n
        while self._waiters:
            need, waiter = self._waiters[0]
            if waiter.done():
                self._waiters.popleft()
                continue
            if self._free < need and self.alive:
                break
            self._waiters.popleft()
            if self.alive:
                self._free -= need
            waiter.set_result(None)

    # --- the thread -------------------------------------------------------------------

    def _to_loop(self, fn: Callable[..., object], *args: object) -> None:
        """Schedule `fn(*args)` on the loop; a closed loop has nobody left to tell."""
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            log.debug("event loop closed; dropped a writer notification")

    def _resolve(self, future: asyncio.Future[Any], value: Any = None,
                 error: BaseException | None = None) -> None:
        def settle() -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

        self._to_loop(settle)

    def _run(self) -> None:
        """Thread body: groups until a `_Stop`; no exception leaves it unlogged."""
        try:
            while True:
                items, barrier, slots = self._next_batch()
                outcomes: list[_Outcome] = []
                try:
                    outcomes = self._write_group(items)
                except Exception as exc:  # a bug, not a database error: those are handled inside
                    log.exception("store writer: unexpected error writing %d items", len(items))
                    outcomes = [(c.future, None, exc) for c in items if isinstance(c, _Call)]
                finally:
                    if slots:
                        self._to_loop(self._give_back, slots)
                    if outcomes:
                        self._to_loop(_settle, outcomes)
                if barrier is None:
                    continue
                if isinstance(barrier, _Stop):
                    self._report_unreported()
                    self._resolve(barrier.future)
                    return
                self._run_flush(barrier)
        except BaseException:
            log.critical("store writer thread stopped by an unexpected error", exc_info=True)
            raise
        finally:
            self._running = False
            self._fail_leftovers()

    def _next_batch(self) -> tuple[list[NewEvent | _Call[Any]], _Flush | _Stop | None, int]:
        """Block for the next item, then gather events and calls until full, due, or at a
        flush or stop.

        Returns the events and calls in queue order, the barrier that ended the batch (if
        any) and the number of event slots the batch's items had reserved. While waiting
        for more the thread sleeps on `_urgent` (set by calls and barriers only): queued
        events do not wake it. A batch is due `max_delay` after its first item, or as soon
        as nothing more is queued once it holds a call someone awaits; a result waits up to
        `commit_delay` for company first while other matches are writing (`_due`).
        """
        batch: list[NewEvent | _Call[Any]] = []
        events = 0
        slots = 0
        # No more than max_pending events can ever be queued: waiting for more is pointless.
        limit = min(self.batch_size, self.max_pending)
        item = self._queue.get()
        due = _time.monotonic() + self.max_delay
        now: datetime | None = None  # the batch's time, given to every render
        self._written, self._writing = self._writing, set()
        while True:
            if isinstance(item, NewEvent):
                batch.append(item)
                events += 1
                slots += 1
                self._writing.add(item.match_id)
            elif isinstance(item, _Render):
                slots += item.count
                before = len(batch)
                if now is None:
                    now = utcnow()
                self._render(item, batch, now)
                events += len(batch) - before
                self._writing.add(item.match_id)
            elif isinstance(item, _Call):
                batch.append(item)
                if item.soon:
                    due = min(due, self._due(item))
            else:
                return batch, item, slots
            if events >= limit:
                return batch, None, slots
            while True:
                try:
                    item = self._queue.get_nowait()
                    break
                except queue.Empty:
                    remaining = due - _time.monotonic()
                    if remaining <= 0:
                        return batch, None, slots
                    self._urgent.wait(remaining)
                    self._urgent.clear()  # a barrier queued after this wakes the next wait

    def _due(self, call: _Call[Any]) -> float:
        """When a batch holding `call`, which someone awaits, is to be committed.

        At once, unless it is a match's result and other matches are writing (in this
        batch or the one before): then it may wait `commit_delay` for their events and
        results, so that one commit (its fsync, the pages it rewrites) serves them all. A
        commit costs the writer about 0.4 ms of CPU, as much as some thirty moves' events,
        and the benchmark's ten matches at once, one ending every few tens of milliseconds,
        made nearly one group per result (docs/benchmarks.md, "Store"). A match alone is
        never kept waiting.
        """
        now = _time.monotonic()
        if call.match_id is None or not self.commit_delay:
            return now
        others = (self._writing | self._written) - {call.match_id}
        return now + self.commit_delay if others else now

    def _render(self, item: _Render, batch: list[NewEvent | _Call[Any]], now: datetime) -> None:
        """Thread side: an unrendered item's events into `batch` (a failure fails the match)."""
        if item.match_id in self._failed:
            self.stats.dropped_events += item.count  # a failed match's events are dropped
            return
        try:
            events = item.render(now)
        except Exception as exc:
            log.exception("store writer: events of match %s not rendered", item.match_id)
            self._mark_failed(item.match_id, exc, item.count)
            return
        batch.extend(events)

    def _write_group(self, items: list[NewEvent | _Call[Any]]) -> list[_Outcome]:
        """Group commit: the batch's events and calls, in queue order, in one transaction.

        Runs of events are inserted together (a failing run is retried match by match, so
        only culprits lose events), each call runs in a savepoint of its own, and the
        callers hear of their calls only after the commit: a returned call is durable. On
        SQLite the group is first tried without the savepoints (`_write_group_plain`);
        what follows is the way it is written when anything in it fails.
        When the transaction as a whole fails (its BEGIN or its commit: a read-only file,
        a full disk) nothing of it is stored, every match with events in it is failed and
        every call gets the error.
        """
        if not items:
            return []
        self.stats.groups += 1
        if is_sqlite(self.store.engine):
            done = self._write_group_plain(items)
            if done is not None:
                return done
        outcomes: list[_Outcome] = []
        inserted: list[list[NewEvent]] = []
        try:
            with self.store.group():
                run: list[NewEvent] = []
                for item in items:
                    if isinstance(item, NewEvent):
                        run.append(item)
                        continue
                    if run:
                        inserted.extend(self._insert(run))
                        run = []
                    outcomes.append(self._call(item))
                if run:
                    inserted.extend(self._insert(run))
        except Exception as error:
            # Lost: the error that made the database drop it says why, not the lost savepoint.
            exc = error.__cause__ if isinstance(error, TransactionLost) and isinstance(
                error.__cause__, Exception) else error
            self.stats.failed_batches += 1
            log.warning("store writer: a transaction of %d items failed: %s", len(items), exc)
            lost: dict[str, int] = {}
            for item in items:
                if isinstance(item, NewEvent) and item.match_id not in self._failed:
                    lost[item.match_id] = lost.get(item.match_id, 0) + 1
            for match_id, count in lost.items():
                self._mark_failed(match_id, exc, count)
            calls = [item for item in items if isinstance(item, _Call)]
            return [(call.future, None, exc) for call in calls]
        for events in inserted:
            self._count(events)
        return outcomes

    def _write_group_plain(self, items: list[NewEvent | _Call[Any]]) -> list[_Outcome] | None:
        """The usual group, where nothing fails, without a savepoint per write: on SQLite
        each statement costs the writer a GIL hand-off with the event loop's thread, and
        the savepoints were about half of the statements. None when anything raised: the
        group is rolled back whole and `_write_group` runs it again the careful way (the
        calls are database writes only, so running one twice changes nothing).

        SQLite only: a failed statement there undoes itself and leaves the transaction
        open, and one that drops the transaction shows in `in_transaction`. (PostgreSQL
        aborts the transaction on any error and a commit then quietly rolls back.)
        """
        outcomes: list[_Outcome] = []
        inserted: list[list[NewEvent]] = []
        dropped = 0
        try:
            with self.store.group(savepoints=False):
                run: list[NewEvent] = []
                for item in [*items, None]:  # None: past the end, the last run goes in
                    if isinstance(item, NewEvent):
                        run.append(item)
                        continue
                    live = [e for e in run if e.match_id not in self._failed]
                    dropped += len(run) - len(live)
                    run = []
                    if live:
                        self.store.append_events(live)
                        inserted.append(live)
                    if item is None:
                        break
                    if item.match_id is not None and item.match_id in self._failed:
                        outcomes.append(self._call(item))  # refused without a write
                    else:
                        outcomes.append((item.future, item.fn(), None))
                if (inserted or outcomes) and not self.store.group_open():
                    raise TransactionLost("the database dropped the transaction")
        except Exception as exc:
            log.debug("store writer: a group of %d items is written again with savepoints "
                      "(%s)", len(items), exc)
            return None
        self.stats.dropped_events += dropped
        for events in inserted:
            self._count(events)
        return outcomes

    def _insert(self, run: list[NewEvent]) -> list[list[NewEvent]]:
        """Insert a run of events; on failure retry per match. Returns what went in."""
        live = [e for e in run if e.match_id not in self._failed]
        self.stats.dropped_events += len(run) - len(live)
        if not live:
            return []
        try:
            self.store.append_events(live)
        except TransactionLost:
            raise
        except Exception as exc:
            self.stats.failed_batches += 1
            log.warning("store writer: a batch of %d events failed (%s); retrying per match",
                        len(live), exc)
        else:
            return [live]
        by_match: dict[str, list[NewEvent]] = {}
        for event in live:
            by_match.setdefault(event.match_id, []).append(event)
        done = []
        for match_id, events in by_match.items():
            try:
                self.store.append_events(events)
            except TransactionLost:
                raise
            except Exception as exc:
                self._mark_failed(match_id, exc, len(events))
            else:
                done.append(events)
        return done

    def _count(self, events: list[NewEvent]) -> None:
        self.stats.batches += 1
        self.stats.committed_events += len(events)
        self.stats.largest_batch = max(self.stats.largest_batch, len(events))

    def _mark_failed(self, match_id: str, exc: BaseException, lost: int) -> None:
        log.error("store writer: %d events of match %s could not be stored, its later "
                  "events are dropped: %s", lost, match_id, exc)
        self.stats.dropped_events += lost
        self.stats.errors.append(f"{match_id}: {exc}")
        del self.stats.errors[:-100]
        self._failed[match_id] = exc
        while len(self._failed) > MAX_FAILED_MATCHES:
            self._failed.popitem(last=False)
        self._unreported[match_id] = exc

    def _run_flush(self, barrier: _Flush) -> None:
        failures, self._unreported = self._unreported, {}
        error = _write_error("events could not be stored", failures) if failures else None
        self._resolve(barrier.future, error=error)

    def _call(self, call: _Call[Any]) -> _Outcome:
        """Run a call inside the group; its outcome is told after the commit."""
        if call.match_id is not None and call.match_id in self._failed:
            cause = self._failed[call.match_id]
            self._unreported.pop(call.match_id, None)
            return (call.future, None,
                    _write_error("events could not be stored; the result was not written",
                                 {call.match_id: cause}))
        try:
            value = call.fn()
        except TransactionLost:
            raise
        except Exception as exc:
            if not isinstance(exc, StoreError):
                log.error("store writer: a write failed: %s", exc)
            return (call.future, None, exc)
        return (call.future, value, None)

    def _report_unreported(self) -> None:
        if self._unreported:
            log.error("store writer closing with unreported failures: %s",
                      ", ".join(sorted(self._unreported)))
            self._unreported.clear()

    def _fail_leftovers(self) -> None:
        """After the thread stops: nothing queued may wait forever."""
        error = StoreWriteError("the store writer stopped")
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, NewEvent):
                self.stats.dropped_events += 1
            elif isinstance(item, _Render):
                self.stats.dropped_events += item.count
            else:
                self._resolve(item.future, error=error)
        self._to_loop(self._give_back, 0)  # waiters see the thread dead and give up


_Outcome = tuple["asyncio.Future[Any]", Any, BaseException | None]
"""A call's future, its value and its error, told to the loop after the group's commit."""


def _settle(outcomes: list[_Outcome]) -> None:
    """Loop side: settle the futures of a committed (or failed) group, in queue order."""
    for future, value, error in outcomes:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)


def _event(match_id: str, seq: int, kind: str, payload: Any,
           time: datetime | None) -> NewEvent:
    return NewEvent(match_id, seq, kind, {} if payload is None else payload,
                    time or utcnow())


def _write_error(what: str, failures: dict[str, BaseException]) -> StoreWriteError:
    first = next(iter(failures.values()))
    names = ", ".join(sorted(failures)[:5]) + (" ..." if len(failures) > 5 else "")
    error = StoreWriteError(f"{what} (match {names}): {first}", failures)
    error.__cause__ = first
    return error
