"""The recorder: every live room's match log into the store, as it happens.

The match service (`server.matches`) hands each new room to `MatchRecorder.track`, whoever
made it (an SC admin's `prepare`, a plain `join`, a Kettle client, the HTTP API). The
recorder then

- queues the match row with its seats on the `StoreWriter` (the loop never writes itself);
- listens to the room's `MatchLog` (`MatchLog.listen`): each entry is queued on the writer
  as it is logged, unrendered (the writer thread turns it into plain JSON with its SC
  packets right before inserting it, `server.stored_events`: no rendering on the loop, no
  thread pool), or by a per-match pump that waits for room when the writer's queue is
  full, in order either way; an observer entry's payload also holds the frame live
  spectators got for it (`server.spectate.frames`, rendered as the entry is logged),
  which is what stored matches are replayed from;
- follows the room's status (waiting, running, paused, then finished, aborted, cancelled);
- stores the result event and awaits `commit_result` before the room announces anything
  (`store_result`, from the room's `on_result` hook: DESIGN rule 5), with each seat's
  outcome and failure category.

When the result cannot be stored (read-only database, full disk), `commit_result` is retried
briefly (`RESULT_RETRY_DELAYS`); if it still fails `store_result` raises `ResultNotStored`,
the room aborts the match without announcing a result, and the recorder turns
*unavailable*: the API answers POST /api/matches with 503 and the lobby refuses SC/Kettle
joins and prepares (the `refusal()` text), until a probe write succeeds again (every
`PROBE_INTERVAL` seconds); the probe also marks the matches aborted meanwhile as
`aborted`. A result whose match's events already failed (a gap in its stored log) is not
retried: the writer refuses it for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from server.launcher import FailureCategory
from server.rooms import (
    Entry,
    GameOver,
    MatchResult,
    PauseChanged,
    Room,
    Welcome,
)
from server.spectate.frames import Frame, frame_of, frames_for
from server.store import (
    Conflict,
    MatchStatus,
    NewEvent,
    NewSeat,
    NotFound,
    SeatOutcome,
    Store,
    StoreWriteError,
    StoreWriter,
)
from server.store.models import Outcome as SeatResult
from server.store.models import utcnow
from server.stored_events import recorded, to_events

log = logging.getLogger(__name__)

RESULT_RETRY_DELAYS = (0.1, 0.4, 1.0)
"""Seconds between the attempts to commit a result (bounded: the players are waiting)."""
PROBE_INTERVAL = 2.0
"""Seconds between probe writes while the store fails."""


class ResultNotStored(Exception):
    """Raised by `store_result`: the result is not stored, the room must not tell it."""


@dataclass
class Recorded:
    """What the recorder knows of one live room."""

    room: Room
    sc: bool
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    bot_ids: dict[int, int] = field(default_factory=dict)
    queue: deque[Entry] = field(default_factory=deque)
    frames: dict[int, Frame] = field(default_factory=dict)  # spectator frames of `queue`
    pump: asyncio.Task[None] | None = None
    created: asyncio.Future[None] | None = None
    awaited: bool = False  # an API request waits for `created` (the match row)
    started: bool = False
    result_seq: int | None = None  # the GameOver entry stored by store_result
    result_extra: dict[str, Any] = field(default_factory=dict)  # merged into its payload
    result_stored: bool = False
    cancel_requested: bool = False
    failed: bool = False


Spawn = Callable[[Coroutine[Any, Any, Any], str], "asyncio.Task[Any]"]


class MatchRecorder:
    """Live rooms into the store through one `StoreWriter` (None: nothing is recorded, the
    rooms are only followed), and the store's health. One per match service."""

    def __init__(self, writer: StoreWriter | None, spawn: Spawn) -> None:
        self.writer = writer
        self._spawn = spawn
        self.records: dict[str, Recorded] = {}
        # Why the store is considered failing (None: it writes), the matches aborted over it
        # (still to be marked `aborted`), and the probe that watches for its recovery.
        self.store_error: str | None = None
        self._aborted_unmarked: set[str] = set()
        self._probe: asyncio.Task[None] | None = None
        self._wake_probe = asyncio.Event()
        self._closing = False

    # --- the store's health ------------------------------------------------------------

    def refusal(self) -> str | None:
        """Why new matches are refused now (None: they are not). The lobby's gate."""
        if self.store_error is None:
            return None
        return (f"the match store cannot write ({self.store_error}); no new matches until "
                "it does")

    def store_failed(self, what: str, error: BaseException | str,
                      match_id: str | None = None) -> None:
        """The store refused a write that matters: refuse new matches until it writes."""
        if match_id is not None:
            self._aborted_unmarked.add(match_id)
        first = self.store_error is None
        if first:
            # The first failure says why (the database's error); later ones mostly follow
            # from it ("match ... was not stored"), and the probe reports the current cause.
            self.store_error = str(error)[:300] or type(error).__name__
            log.critical("STORE FAILING: %s: %s. New matches are refused until the store "
                         "writes again (probed every %.1f s).", what, self.store_error,
                         PROBE_INTERVAL)
        if self.writer is not None and (self._probe is None or self._probe.done()) \
                and not self._closing:
            self._probe = self._spawn(self._probe_store(), "store-probe")

    async def _probe_store(self) -> None:
        """While the store fails: try a real write now and then; clear the failure on success."""
        while self.store_error is not None and not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake_probe.wait(), PROBE_INTERVAL)
            if self._closing or self.writer is None or not self.writer.alive:
                return
            pending = sorted(self._aborted_unmarked)
            try:
                # On a thread of its own, not the writer's: the probe commits and
                # checkpoints outside the writer's group transaction.
                await asyncio.to_thread(self.writer.store.probe)
                marked = await self.writer.call(functools.partial(_probe_write, aborted=pending))
            except Exception as exc:
                log.warning("store still failing: %s", exc)
                self.store_error = str(exc)[:300] or type(exc).__name__
                continue
            self._aborted_unmarked.difference_update(marked)
            log.warning("STORE WRITES AGAIN: new matches are accepted; %d aborted match(es) "
                        "marked aborted", len(marked))
            self.store_error = None

    # --- rooms ---------------------------------------------------------------------------

    def track(self, room: Room, sc: bool, source: str | None = None) -> Recorded:
        """Record `room` from its first entry on (`source` into the match's options)."""
        record = Recorded(room, sc)
        if source is not None:
            record.options["source"] = source
        self.records[room.id] = record
        # By id, not a closure over `record` (which holds the room): a finished room and
        # its log are then freed at once rather than left as a cycle for the collector.
        frames_for(room).subscribe(functools.partial(self._on_room_entry, room.id),
                                   functools.partial(self._wants_frame, room.id))
        task = room.task
        if task is not None:
            task.add_done_callback(lambda _t: self._room_done(record))
        if self.writer is not None:
            record.created = asyncio.get_running_loop().create_future()
            # Later in this loop turn: `prepare` hands out the reservations after this hook,
            # and the API sets bots and seed; the room's task has logged nothing yet.
            asyncio.get_running_loop().call_soon(self._queue_create, record)
        return record

    def _queue_create(self, record: Recorded) -> None:
        assert self.writer is not None and record.created is not None
        room = record.room
        seats = [NewSeat(slot.display_name, record.bot_ids.get(i), slot.reservation)
                 for i, slot in enumerate(room.slots)]
        options = dict(record.options)
        created = record.created

        # A room the lobby made (a client's join) keeps the seed its game drew, as an API
        # match does: a position of it, or a bot asked again, is dealt the same.
        seed = record.seed if record.seed is not None else getattr(room.game, "seed", None)

        def create(store: Store) -> None:
            store.create_match(room.game_type, seats, seed=seed, options=options,
                               match_id=room.id)

        try:
            # Unless an API request waits for the row, only the match's events do: it can
            # go in with whatever the thread commits next.
            future = self.writer.call(create, soon=record.awaited)
        except Exception as exc:
            record.failed = True
            created.set_exception(exc)
            self.store_failed(f"match {room.id} not created", exc)
            return

        def done(f: asyncio.Future[None]) -> None:
            if f.cancelled():
                created.cancel()
            elif f.exception() is not None:
                record.failed = True
                log.error("match %s could not be stored: %s", room.id, f.exception())
                self.store_failed(f"match {room.id} not created", f.exception() or "",
                                   None)
                created.set_exception(f.exception())  # type: ignore[arg-type]
            else:
                created.set_result(None)

        future.add_done_callback(done)
        created.add_done_callback(lambda f: f.cancelled() or f.exception())  # no "never retrieved"

    def _wants_frame(self, room_id: str, entry: Entry) -> bool:
        record = self.records.get(room_id)
        return record is not None and self._stores_frame(record, entry)

    def _stores_frame(self, record: Recorded, entry: Entry) -> bool:
        """A frame is stored beside each observer entry, except a recorded state's (Blokus:
        its move; readers rebuild its frame) and the result stored already."""
        return (self.writer is not None and not record.failed
                and recorded(entry.event, record.room) is None
                and not (isinstance(entry.event, GameOver) and record.result_seq is not None))

    def _on_room_entry(self, room_id: str, entry: Entry, frame: Frame | None) -> None:
        record = self.records.get(room_id)
        if record is not None:
            # Rendered for another subscriber (the spectators): not ours to store.
            if frame is not None and not self._stores_frame(record, entry):
                frame = None
            self._on_entry(record, entry, frame)

    def _on_entry(self, record: Recorded, entry: Entry, frame: Frame | None) -> None:
        event = entry.event
        if isinstance(event, Welcome):
            if not record.started:
                record.started = True
                self._set_status(record, MatchStatus.PAUSED if record.room.paused
                                 else MatchStatus.RUNNING, _time_of(entry))
                self._add_setup(record)
        elif isinstance(event, PauseChanged) and record.started:
            self._set_status(record, MatchStatus.PAUSED if event.paused else MatchStatus.RUNNING,
                             _time_of(entry))
        if isinstance(event, GameOver) and record.result_seq is not None:
            return  # stored by store_result already, under this very seq
        self._enqueue(record, entry, frame)

    def _enqueue(self, record: Recorded, entry: Entry, frame: Frame | None) -> None:
        """`frame`: the spectators' frame of the entry, as live spectators get it."""
        if self.writer is None or record.failed:
            return
        if frame is not None:
            record.frames[entry.seq] = frame
        record.queue.append(entry)
        if record.pump is not None and not record.pump.done():
            return  # the pump queues it, after the entries before it
        created = record.created
        if created is None or (created.done() and not created.cancelled()
                               and created.exception() is None):
            # The usual case: straight onto the writer, no task (the pump is for waiting).
            count = len(record.queue)
            try:
                # Room first: taking the entries off the queue for a writer that turns them
                # away would lose them (the pump below queues what is left).
                if self.writer.has_room(count) and self.writer.try_append_rendered(
                        record.room.id, count, self._take_render(record)):
                    return
            except Exception as exc:
                record.failed = True
                record.queue.clear()
                log.error("match %s: events not stored: %s", record.room.id, exc)
                return
        record.pump = self._spawn(self._pump(record), f"store-pump-{record.room.id}")

    def _take_render(self, record: Recorded, limit: int | None = None
                     ) -> Callable[[datetime], list[NewEvent]]:
        """The queued entries (the first `limit`), taken off the queue, as a render call for
        the writer thread."""
        queue = record.queue
        if limit is None or limit >= len(queue):
            batch = list(queue)
            queue.clear()
        else:
            batch = [queue.popleft() for _ in range(limit)]
        frames = ({e.seq: f for e in batch if (f := record.frames.pop(e.seq, None))}
                  if record.frames else {})
        extra = None
        if record.result_seq is not None and any(e.seq == record.result_seq for e in batch):
            extra = (record.result_seq, dict(record.result_extra))
        room, sc = record.room, record.sc
        # The batch's time is not the events' own: each keeps its entry's (`Entry.at`).
        return lambda _batch_time: to_events(room, sc, batch, frames, extra)

    async def _pump(self, record: Recorded) -> None:
        """Queued entries onto the writer (rendered there), waiting for the match's row
        to be created and for room in the writer's queue."""
        assert self.writer is not None
        room = record.room
        if record.created is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(record.created)
        while record.queue and not record.failed:
            # No more than the writer ever holds: a bigger batch would wait for room forever.
            count = min(len(record.queue), self.writer.max_pending)
            try:
                await self.writer.append_rendered(room.id, count,
                                                  self._take_render(record, count))
            except Exception as exc:
                record.failed = True
                log.error("match %s: events not stored: %s", room.id, exc)

    def _set_status(self, record: Recorded, status: MatchStatus,
                    at: datetime | None = None) -> None:
        """Queue a status change, stamped now: the writer may commit it after the result
        of a short match, and `started` is when the game began, not when that was written."""
        if self.writer is None or not self.writer.alive:
            return
        at = at or utcnow()
        if record.failed and status not in (MatchStatus.ABORTED, MatchStatus.CANCELLED):
            return
        if self._after_row(record, lambda: self._set_status(record, status, at)):
            return
        match_id = record.room.id

        def write(store: Store) -> None:
            store.set_status(match_id, status, at=at)

        future = self.writer.call(write, soon=False)  # nobody waits for it
        future.add_done_callback(_log_failure(f"match {match_id}: status {status.value}"))

    @staticmethod
    def _after_row(record: Recorded, again: Callable[[], None]) -> bool:
        """True when the match's row is not stored yet: `again` is called once it is (not
        when it fails). A room seated in the loop turn that made it starts before its row
        is queued: its writes follow the row (callbacks run in order, so statuses keep
        theirs)."""
        created = record.created
        if created is None or created.done():
            return False
        created.add_done_callback(
            lambda f: None if f.cancelled() or f.exception() is not None else again())
        return True

    def _add_setup(self, record: Recorded) -> None:
        """At the start, what the game says of its setup beyond the seed (`stored_options`:
        a Kettle client's own deck, given after the match row was made) into the match's
        options, unless they name it already (an API match's decks, as given)."""
        setup = getattr(record.room.game, "stored_options", None)
        extra = {k: v for k, v in (setup() if callable(setup) else {}).items()
                 if k not in record.options}
        if not extra or self.writer is None or not self.writer.alive or record.failed:
            return
        if self._after_row(record, lambda: self._add_setup(record)):
            return
        record.options.update(extra)
        match_id = record.room.id

        def write(store: Store) -> None:
            store.add_options(match_id, extra)

        future = self.writer.call(write, soon=False)
        future.add_done_callback(_log_failure(f"match {match_id}: its setup"))

    def _room_done(self, record: Recorded) -> None:
        """The room's task ended: a match without a stored result is cancelled or aborted."""
        room = record.room
        if not record.result_stored:
            self._set_status(record, MatchStatus.CANCELLED if record.cancel_requested
                             else MatchStatus.ABORTED)
        self._pack_when_queued(record)
        # Keep the record until the pump has emptied its queue (it reads it).
        if record.pump is not None and not record.pump.done():
            record.pump.add_done_callback(lambda _t: self.records.pop(room.id, None))
        else:
            self.records.pop(room.id, None)

    def _pack_when_queued(self, record: Recorded) -> None:
        """Once the ended room's last entry is queued on the writer: pack its events into
        one row (`Store.pack_match`; nobody waits for it; what a failure leaves is packed
        later by `server.store.retention`)."""
        writer = self.writer
        if writer is None:
            return
        match_id = record.room.id

        def pack() -> None:
            if not writer.alive:
                return
            future = writer.call(lambda store: store.pack_match(match_id), soon=False)
            future.add_done_callback(_log_failure(f"match {match_id}: its packed events"))

        pump = record.pump
        if pump is not None and not pump.done():
            pump.add_done_callback(lambda _t: pack())
        else:
            pack()

    # --- results -------------------------------------------------------------------------

    async def store_result(self, room: Room, result: MatchResult,
                           failures: dict[int, tuple[FailureCategory | None, str]]) -> None:
        """Store the result before it is announced: events first, then `commit_result`
        (`ResultNotStored` when it could not be)."""
        record = self.records.get(room.id)
        if record is None or self.writer is None:
            return
        started = time.perf_counter()
        try:
            await self._store_result(record, result, failures)
            room.stats.result_store_seconds.append(time.perf_counter() - started)
        except Exception as exc:
            self.store_failed(f"the result of match {room.id} not stored", exc, room.id)
            raise ResultNotStored(f"match {room.id}: {exc}") from exc

    async def _store_result(self, record: Recorded, result: MatchResult,
                            failures: dict[int, tuple[FailureCategory | None, str]]) -> None:
        """The result event, then the result (retried briefly); raises when not stored."""
        assert self.writer is not None
        writer = self.writer
        room = record.room
        if record.failed:
            raise StoreWriteError(f"match {room.id} was not stored (see the log)")
        # The GameOver entry the room logs next, stored now: the result is in the log
        # (and so in the replay) by the time it is committed.
        seq = len(room.log.entries)
        record.result_seq = seq
        seats = frozenset(i for i, s in enumerate(room.slots) if s.player is not None)
        entry = Entry(seq, GameOver(result), seats, True)
        try:  # as the hub will render it when the room logs it, right after this
            frame = frame_of(room, entry)
        except Exception:
            log.exception("match %s: its result not rendered for spectators", room.id)
            frame = None
        self._enqueue(record, entry, frame)
        if record.pump is not None:
            await asyncio.shield(record.pump)
        if record.failed:
            raise StoreWriteError(f"match {room.id}: its events were not stored")
        if record.cancel_requested:
            await _retrying(room.id, lambda: writer.call(
                lambda store: store.set_status(room.id, MatchStatus.CANCELLED)))
            record.result_stored = True
            return
        outcomes = []
        for i, _slot in enumerate(room.slots):
            # A failed seat loses, whatever the other did: two failed seats are two losses.
            if result.lost(i):
                outcome = SeatResult.LOSS
            else:
                outcome = SeatResult.WIN if result.winner == i else SeatResult.DRAW
            category, detail = failures.get(i, (None, ""))
            parts = [result.scores[i]] if i < len(result.scores) else None
            outcomes.append(SeatOutcome(i, outcome, parts, category, detail))
        scores = {"scores": list(result.scores),
                  "cause": None if result.violation is None else result.violation.cause.value}


        async def commit() -> Any:
            try:
                return await writer.commit_result(room.id, winner=result.winner,
                                                  reason=result.reason, scores=scores,
                                                  seats=outcomes)
            except Conflict:
                # Over already: only a result of ours, committed by an attempt that reported
                # a failure after all, makes that a success.
                stored = await writer.call(lambda store: store.get_result(room.id))
                if stored is None:
                    raise
                return stored

        await _retrying(room.id, commit)
        record.result_stored = True

    def close(self) -> None:
        """No more probes: the server is closing."""
        self._closing = True
        self._wake_probe.set()


def _time_of(entry: Entry) -> datetime:
    """When the room logged `entry`: the time its status change happened."""
    return datetime.fromtimestamp(entry.at, UTC)


async def _retrying(match_id: str, attempt: Callable[[], Any]) -> Any:
    """`await attempt()`, again after each of `RESULT_RETRY_DELAYS` while it fails.

    A match whose events were not all stored is not retried: the writer refuses its result
    for good (the stored log has a gap).
    """
    for delay in (*RESULT_RETRY_DELAYS, None):
        try:
            return await attempt()
        except (NotFound, StoreWriteError) as exc:
            gap = isinstance(exc, StoreWriteError) and match_id in exc.failures
            if delay is None or gap or isinstance(exc, NotFound):
                raise
            log.warning("match %s: storing the result failed (%s); retrying in %.1f s",
                        match_id, exc, delay)
        except Exception as exc:
            if delay is None:
                raise
            log.warning("match %s: storing the result failed (%s); retrying in %.1f s",
                        match_id, exc, delay)
        await asyncio.sleep(delay)
    raise AssertionError("unreachable")


def _probe_write(store: Store, aborted: Sequence[str]) -> list[str]:
    """Writer thread, once `Store.probe` proved that the store takes what a match writes:
    mark `aborted` matches aborted. Returns the matches it marked or found over already."""
    done: list[str] = []
    for match_id in aborted:
        with contextlib.suppress(NotFound, Conflict):  # never created, or over already
            store.set_status(match_id, MatchStatus.ABORTED)
        done.append(match_id)
    return done


def _log_failure(what: str) -> Callable[[asyncio.Future[Any]], None]:
    def done(f: asyncio.Future[Any]) -> None:
        if not f.cancelled() and f.exception() is not None:
            log.warning("%s not stored: %s", what, f.exception())

    return done
