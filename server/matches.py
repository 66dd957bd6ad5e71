"""The match service: every room becomes a stored match; bots the server launches sit in them.

The lobby tells the service of each new room (`Lobby.room_listeners`), whoever made it: an
SC admin's `prepare`, a plain `join`, a Kettle client, the HTTP API. The service then

- queues the match row with its seats on the `StoreWriter` (the loop never writes itself);
- swaps the room's `MatchLog` for a `RecordingLog` that hands each entry over as it is
  appended; each entry is queued on the writer as it comes, unrendered (the writer thread
  turns it into plain JSON with its SC packets right before inserting it: no rendering on
  the loop, no thread pool), or by a per-match pump that waits for room when the writer's
  queue is full, in order either way; an observer entry's
  payload also holds the frame live spectators got for it (`server.spectate.frames`,
  rendered as the entry is logged), which is what stored matches are replayed from;
- follows the room's status (waiting, running, paused, then finished, aborted, cancelled);
- in the room's `on_result` hook, stores the result event and awaits `commit_result` before
  the room announces anything (DESIGN rule 5), with each seat's outcome and failure category.

When the result cannot be stored (read-only database, full disk), `commit_result` is retried
briefly (`RESULT_RETRY_DELAYS`); if it still fails the hook raises `ResultNotStored`, the room
aborts the match without announcing a result, and the service turns *unavailable*: the API
answers POST /api/matches with 503 and the lobby refuses SC/Kettle joins and prepares (the
`refusal()` text), until a probe write succeeds again (every `PROBE_INTERVAL` seconds); the
probe also marks the matches aborted meanwhile as `aborted`. A result whose match's events
already failed (a gap in its stored log) is not retried: the writer refuses it for good.

Bots registered in the store are launched per seat with `server.launcher`; their failure
categories (failed_to_start, crash) and the room's verdicts (timeout, illegal_move,
protocol_error, disconnect) land on their seat, their output is kept under the data folder.

Without a store (`store=None`: tests, benchmarks) the service only launches bots; nothing
is recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import functools
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from server.games.registry import GameRegistry, Recording
from server.launcher import BotProcess, BotSpec, FailureCategory, WireProtocol, launch
from server.rooms import (
    Cause,
    Clocks,
    DecisionRequested,
    Entry,
    GameOver,
    LeftCause,
    Lobby,
    MatchLog,
    MatchResult,
    MoveRejected,
    PauseChanged,
    Room,
    RoomClosed,
    RoomEvent,
    SlotRequest,
    StateChanged,
    Welcome,
)
from server.rooms.inprocess import IN_PROCESS, InProcessPlayer
from server.spectate.frames import Frame, frame_of
from server.store import (
    Conflict,
    JSONText,
    MatchStatus,
    NewEvent,
    NewSeat,
    NotFound,
    SeatOutcome,
    Store,
    StoreWriteError,
    StoreWriter,
    encode_json,
)
from server.store.models import Outcome as SeatResult
from server.store.models import utcnow

log = logging.getLogger(__name__)

LEFT_WAIT = 1.0
"""Seconds the result waits for a launched bot whose connection ended to exit (crash or not)."""
BOT_EXIT_WAIT = 3.0
"""Seconds launched bots get to exit by themselves after their match, before SIGTERM."""
SEAT_LOGS = "seat-logs"
"""Folder under the data folder with one file per launched seat."""
RESULT_RETRY_DELAYS = (0.1, 0.4, 1.0)
"""Seconds between the attempts to commit a result (bounded: the players are waiting)."""
PROBE_INTERVAL = 2.0
"""Seconds between probe writes while the store fails."""


class ResultNotStored(Exception):
    """Raised by the `on_result` hook: the result is not stored, the room must not tell it."""


class MatchError(Exception):
    """A request the service refuses; `status` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a new match: a registered bot the server launches, or a reserved name."""

    name: str | None = None
    bot: str | int | None = None


@dataclass
class Tracked:
    """What the service knows of one live room."""

    room: Room
    sc: bool
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    bot_ids: dict[int, int] = field(default_factory=dict)
    procs: dict[int, BotProcess] = field(default_factory=dict)
    queue: deque[Entry] = field(default_factory=deque)
    frames: dict[int, Frame] = field(default_factory=dict)  # spectator frames of `queue`
    pump: asyncio.Task[None] | None = None
    created: asyncio.Future[None] | None = None
    awaited: bool = False  # an API request waits for `created` (the match row)
    started: bool = False
    result_seq: int | None = None  # the GameOver entry stored by on_result
    result_extra: dict[str, Any] = field(default_factory=dict)  # merged into its payload
    result_stored: bool = False
    cancel_requested: bool = False
    failed: bool = False


class RecordingLog(MatchLog):
    """A `MatchLog` that tells a listener of every entry as it is appended (synchronously)."""

    def __init__(self, listener: Callable[[Entry], None]) -> None:
        super().__init__()
        self._listener = listener

    def append(self, event: RoomEvent, seats: frozenset[int] | set[int] = frozenset(),
               observers: bool = False) -> Entry:
        entry = super().append(event, seats, observers)
        try:
            self._listener(entry)
        except Exception:  # recording must never break a match
            log.exception("recording a log entry failed")
        return entry


class MatchService:
    """Rooms to stored matches, and bots launched for seats. One per server."""

    def __init__(self, lobby: Lobby, store: Store | None, writer: StoreWriter | None, *,
                 host: str, port: Callable[[], int], data_dir: Path) -> None:
        self.lobby = lobby
        self.store = store
        self.writer = writer
        self.host = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
        self._port = port
        self.data_dir = Path(data_dir)
        self.tracked: dict[str, Tracked] = {}
        # Launched bots of ended rooms until their seat logs are on disk (`seat_log`).
        self._unwritten_logs: dict[str, dict[int, BotProcess]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        # Why the store is considered failing (None: it writes), the matches aborted over it
        # (still to be marked `aborted`), and the probe that watches for its recovery.
        self.store_error: str | None = None
        self._aborted_unmarked: set[str] = set()
        self._probe: asyncio.Task[None] | None = None
        self._wake_probe = asyncio.Event()

    # --- the store's health ------------------------------------------------------------

    def refusal(self) -> str | None:
        """Why new matches are refused now (None: they are not). The lobby's gate."""
        if self.store_error is None:
            return None
        return (f"the match store cannot write ({self.store_error}); no new matches until "
                "it does")

    def check_available(self) -> None:
        """`MatchError` 503 while the store fails."""
        reason = self.refusal()
        if reason is not None:
            raise MatchError(reason, 503)

    def _store_failed(self, what: str, error: BaseException | str,
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

    # --- the lobby's hook ------------------------------------------------------------

    def room_created(self, room: Room) -> None:
        """A `Lobby.room_listeners` entry: track the room, record it from its first entry on."""
        sc = self.lobby.speaks(room, "sc")
        tracked = Tracked(room, sc)
        if room.id in self.lobby.join_openers:  # an unauthenticated join opened it
            tracked.options["source"] = "join"
        self.tracked[room.id] = tracked
        # By id, not a closure over `tracked` (which holds the room): a finished room and
        # its log are then freed at once rather than left as a cycle for the collector.
        room.log = RecordingLog(functools.partial(self._on_room_entry, room.id))
        task = room.task
        if task is not None:
            task.add_done_callback(lambda _t: self._room_done(tracked))
        if self.writer is not None:
            tracked.created = asyncio.get_running_loop().create_future()
            # Later in this loop turn: `prepare` hands out the reservations after this hook,
            # and the API sets bots and seed; the room's task has logged nothing yet.
            asyncio.get_running_loop().call_soon(self._queue_create, tracked)

    def _queue_create(self, tracked: Tracked) -> None:
        assert self.writer is not None and tracked.created is not None
        room = tracked.room
        seats = [NewSeat(slot.display_name, tracked.bot_ids.get(i), slot.reservation)
                 for i, slot in enumerate(room.slots)]
        options = dict(tracked.options)
        created = tracked.created

        def create(store: Store) -> None:
            store.create_match(room.game_type, seats, seed=tracked.seed, options=options,
                               match_id=room.id)

        try:
            # Unless an API request waits for the row, only the match's events do: it can
            # go in with whatever the thread commits next.
            future = self.writer.call(create, soon=tracked.awaited)
        except Exception as exc:
            tracked.failed = True
            created.set_exception(exc)
            self._store_failed(f"match {room.id} not created", exc)
            return

        def done(f: asyncio.Future[None]) -> None:
            if f.cancelled():
                created.cancel()
            elif f.exception() is not None:
                tracked.failed = True
                log.error("match %s could not be stored: %s", room.id, f.exception())
                self._store_failed(f"match {room.id} not created", f.exception() or "",
                                   None)
                created.set_exception(f.exception())  # type: ignore[arg-type]
            else:
                created.set_result(None)

        future.add_done_callback(done)
        created.add_done_callback(lambda f: f.cancelled() or f.exception())  # no "never retrieved"

    def _on_room_entry(self, room_id: str, entry: Entry) -> None:
        tracked = self.tracked.get(room_id)
        if tracked is not None:
            self._on_entry(tracked, entry)

    def _on_entry(self, tracked: Tracked, entry: Entry) -> None:
        event = entry.event
        if isinstance(event, Welcome):
            proc = tracked.procs.get(event.seat)
            if proc is not None:
                proc.connected()
            if not tracked.started:
                tracked.started = True
                self._set_status(tracked, MatchStatus.PAUSED if tracked.room.paused
                                 else MatchStatus.RUNNING)
        elif isinstance(event, PauseChanged) and tracked.started:
            self._set_status(tracked, MatchStatus.PAUSED if event.paused else MatchStatus.RUNNING)
        if isinstance(event, GameOver) and tracked.result_seq is not None:
            return  # stored by on_result already, under this very seq
        self._enqueue(tracked, entry)

    def _enqueue(self, tracked: Tracked, entry: Entry) -> None:
        if self.writer is None or tracked.failed:
            return
        try:  # rendered now, as the hub renders it for live spectators (the same frame)
            # A recorded state (Blokus: its move) has its frame rebuilt when read.
            frame = None if recorded(entry.event, tracked.room) is not None \
                else frame_of(tracked.room, entry)
        except Exception:
            log.exception("match %s: entry %d not rendered for spectators",
                          tracked.room.id, entry.seq)
            frame = None
        if frame is not None:
            tracked.frames[entry.seq] = frame
        tracked.queue.append(entry)
        if tracked.pump is not None and not tracked.pump.done():
            return  # the pump queues it, after the entries before it
        created = tracked.created
        if created is None or (created.done() and not created.cancelled()
                               and created.exception() is None):
            # The usual case: straight onto the writer, no task (the pump is for waiting).
            count = len(tracked.queue)
            try:
                # Room first: taking the entries off the queue for a writer that turns them
                # away would lose them (the pump below queues what is left).
                if self.writer.has_room(count) and self.writer.try_append_rendered(
                        tracked.room.id, count, self._take_render(tracked)):
                    return
            except Exception as exc:
                tracked.failed = True
                tracked.queue.clear()
                log.error("match %s: events not stored: %s", tracked.room.id, exc)
                return
        tracked.pump = self._spawn(self._pump(tracked), f"store-pump-{tracked.room.id}")

    def _take_render(self, tracked: Tracked, limit: int | None = None
                     ) -> Callable[[datetime], list[NewEvent]]:
        """The queued entries (the first `limit`), taken off the queue, as a render call for
        the writer thread."""
        queue = tracked.queue
        if limit is None or limit >= len(queue):
            batch = list(queue)
            queue.clear()
        else:
            batch = [queue.popleft() for _ in range(limit)]
        frames = ({e.seq: f for e in batch if (f := tracked.frames.pop(e.seq, None))}
                  if tracked.frames else {})
        extra = None
        if tracked.result_seq is not None and any(e.seq == tracked.result_seq for e in batch):
            extra = (tracked.result_seq, dict(tracked.result_extra))
        return functools.partial(_to_events, tracked.room, tracked.sc, batch, frames, extra)

    async def _pump(self, tracked: Tracked) -> None:
        """Queued entries onto the writer (rendered there), waiting for the match's row
        to be created and for room in the writer's queue."""
        assert self.writer is not None
        room = tracked.room
        if tracked.created is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(tracked.created)
        while tracked.queue and not tracked.failed:
            # No more than the writer ever holds: a bigger batch would wait for room forever.
            count = min(len(tracked.queue), self.writer.max_pending)
            try:
                await self.writer.append_rendered(room.id, count,
                                                  self._take_render(tracked, count))
            except Exception as exc:
                tracked.failed = True
                log.error("match %s: events not stored: %s", room.id, exc)

    def _set_status(self, tracked: Tracked, status: MatchStatus) -> None:
        if self.writer is None or not self.writer.alive:
            return
        if tracked.failed and status not in (MatchStatus.ABORTED, MatchStatus.CANCELLED):
            return
        created = tracked.created
        if created is not None and not created.done():
            # A room seated in the loop turn that made it starts before its row is queued:
            # the status follows the row (callbacks run in order, so statuses keep theirs).
            created.add_done_callback(
                lambda f: None if f.cancelled() or f.exception() is not None
                else self._set_status(tracked, status))
            return
        match_id = tracked.room.id

        def write(store: Store) -> None:
            store.set_status(match_id, status)

        future = self.writer.call(write, soon=False)  # nobody waits for it
        future.add_done_callback(_log_failure(f"match {match_id}: status {status.value}"))

    def _room_done(self, tracked: Tracked) -> None:
        """The room's task ended: a match without a stored result is cancelled or aborted."""
        room = tracked.room
        for proc in tracked.procs.values():
            proc.match_ended()
        if tracked.procs:
            self._unwritten_logs[room.id] = dict(tracked.procs)
            self._spawn(self._stop_bots(tracked), f"stop-bots-{room.id}")
        if not tracked.result_stored:
            self._set_status(tracked, MatchStatus.CANCELLED if tracked.cancel_requested
                             else MatchStatus.ABORTED)
        self._pack_when_queued(tracked)
        # Keep the entry until the pump has emptied its queue (it reads `tracked`).
        if tracked.pump is not None and not tracked.pump.done():
            tracked.pump.add_done_callback(lambda _t: self.tracked.pop(room.id, None))
        else:
            self.tracked.pop(room.id, None)

    def _pack_when_queued(self, tracked: Tracked) -> None:
        """Once the ended room's last entry is queued on the writer: pack its events into
        one row (`Store.pack_match`; nobody waits for it; what a failure leaves is packed
        later by `server.store.retention`)."""
        writer = self.writer
        if writer is None:
            return
        match_id = tracked.room.id

        def pack() -> None:
            if not writer.alive:
                return
            future = writer.call(lambda store: store.pack_match(match_id), soon=False)
            future.add_done_callback(_log_failure(f"match {match_id}: its packed events"))

        pump = tracked.pump
        if pump is not None and not pump.done():
            pump.add_done_callback(lambda _t: pack())
        else:
            pack()

    # --- the room's on_result hook -----------------------------------------------------

    async def on_result(self, room: Room, result: MatchResult) -> None:
        """Store the result before it is announced: events first, then `commit_result`."""
        tracked = self.tracked.get(room.id)
        if tracked is None:
            return
        failures = await self._seat_failures(tracked, result)
        for proc in tracked.procs.values():
            proc.match_ended()
        if self.writer is None:
            return
        started = time.perf_counter()
        try:
            await self._store_result(tracked, result, failures)
            room.stats.result_store_seconds.append(time.perf_counter() - started)
        except Exception as exc:
            self._store_failed(f"the result of match {room.id} not stored", exc, room.id)
            raise ResultNotStored(f"match {room.id}: {exc}") from exc

    async def _store_result(self, tracked: Tracked, result: MatchResult,
                            failures: dict[int, tuple[FailureCategory | None, str]]) -> None:
        """The result event, then the result (retried briefly); raises when not stored."""
        assert self.writer is not None
        writer = self.writer
        room = tracked.room
        if tracked.failed:
            raise StoreWriteError(f"match {room.id} was not stored (see the log)")
        # The GameOver entry the room logs next, stored now: the result is in the log
        # (and so in the replay) by the time it is committed.
        seq = len(room.log.entries)
        tracked.result_seq = seq
        seats = frozenset(i for i, s in enumerate(room.slots) if s.player is not None)
        self._enqueue(tracked, Entry(seq, GameOver(result), seats, True))
        if tracked.pump is not None:
            await asyncio.shield(tracked.pump)
        if tracked.failed:
            raise StoreWriteError(f"match {room.id}: its events were not stored")
        if tracked.cancel_requested:
            await _retrying(room.id, lambda: writer.call(
                lambda store: store.set_status(room.id, MatchStatus.CANCELLED)))
            tracked.result_stored = True
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
        tracked.result_stored = True

    async def _seat_failures(self, tracked: Tracked, result: MatchResult
                             ) -> dict[int, tuple[FailureCategory | None, str]]:
        """Each seat's failure category and detail: the room's verdict, the launcher's first."""
        found: dict[int, tuple[FailureCategory | None, str]] = {}
        violation = result.violation
        if violation is not None and violation.seat is not None:
            found[violation.seat] = (_category(violation.cause, violation.left_cause,
                                               violation.seat in tracked.procs),
                                     _violation_text(violation))
            proc = tracked.procs.get(violation.seat)
            if proc is not None and violation.cause is Cause.LEFT and proc.running:
                # The connection ended first; the exit status says whether it crashed.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(proc.wait(), LEFT_WAIT)
        for seat, proc in tracked.procs.items():
            failure = proc.failure
            if failure is not None:
                found[seat] = (failure.category, failure.detail)
        return found

    # --- matches the API creates -------------------------------------------------------

    async def create_match(self, game: str, seats: Sequence[SeatRequest], *,
                           seed: int | None = None, paused: bool = False,
                           clocks: Clocks | None = None, match_id: str | None = None
                           ) -> tuple[Room, list[dict[str, Any]]]:
        """Prepare a room (every seat reserved), store it, launch its bots.

        Returns the room and per seat {index, name, bot, reservation} (the reservation only
        for seats the caller fills itself). `MatchError` 503 while the store fails.
        """
        self.check_available()
        if game not in self.lobby.games:
            raise MatchError(f"unknown game {game!r}; known: "
                             f"{', '.join(self.lobby.games.ids())}", 404)
        plugin = self.lobby.games.get(game)
        if len(seats) != plugin.seat_count:
            raise MatchError(f"seats: {game} needs exactly {plugin.seat_count} seats, "
                             f"got {len(seats)}", 422)
        bots: dict[int, Any] = {}
        for i, seat in enumerate(seats):
            if seat.bot is None:
                continue
            if self.store is None:
                raise MatchError("this server has no store: no registered bots", 409)
            bot = await asyncio.to_thread(_find_bot, self.store, seat.bot)
            if bot is None:
                raise MatchError(f"seats[{i}].bot: no registered bot {seat.bot!r}", 404)
            if bot.game != game:
                raise MatchError(f"seats[{i}].bot: bot {bot.name!r} plays {bot.game}, "
                                 f"not {game}", 422)
            bots[i] = bot
        protocol: WireProtocol = "sc" if plugin.speaks("sc") else "kettle"
        slots = [SlotRequest(display_name=(s.name or (bots[i].name if i in bots else "")))
                 for i, s in enumerate(seats)]
        try:
            room, _codes = self.lobby.prepare(game, slots, paused, clocks, seed,
                                              room_id=match_id)
        except Exception as exc:
            raise MatchError(str(exc), 409) from exc
        tracked = self.tracked[room.id]
        tracked.seed = seed
        tracked.options = {"paused": paused, "source": "api",
                           **({"clocks": dataclasses.asdict(clocks)} if clocks else {})}
        tracked.bot_ids = {i: b.id for i, b in bots.items() if b.id is not None}
        tracked.awaited = True
        if tracked.created is not None:
            await asyncio.shield(tracked.created)
        answer: list[dict[str, Any]] = []
        for i, slot in enumerate(room.slots):
            bot = bots.get(i)
            answer.append({"index": i, "name": slot.display_name,
                           "bot": None if bot is None else bot.name,
                           "reservation": None if bot is not None else slot.reservation})
        # Only a bot without a command line can be an in-process one: `bundled()` probes the
        # installed kits, which a match of launched bots need not pay for.
        in_process = {b.name: b.play for b in plugin.bundled() if b.play is not None} \
            if any(not b.command for b in bots.values()) else {}
        for i, bot in list(bots.items()):
            play = in_process.get(bot.name) if not bot.command else None
            reservation = room.slots[i].reservation
            if play is not None and reservation is not None:
                # A bundled bot of a game no wire protocol speaks: it plays in this process.
                player = InProcessPlayer(play, bot.name)
                self.lobby.seated(self.lobby.join_prepared(player, reservation, IN_PROCESS))
                del bots[i]
        for i, bot in bots.items():
            spec = BotSpec(bot.name, game, list(bot.command),
                           cwd=Path(bot.workdir) if bot.workdir else None, env=dict(bot.env),
                           protocol=protocol)
            reservation = room.slots[i].reservation
            if protocol == "kettle" and reservation is not None:
                # Kettle's join_game names the game and the password: GAME_ID:PASSWORD.
                reservation = f"{room.id}:{reservation}"
            proc = launch(spec, self.host, self._port(), reservation, data_dir=self.data_dir)
            tracked.procs[i] = proc
            await proc.start()
            self._spawn(self._watch(tracked, i, proc), f"watch-bot-{room.id}-{i}")
        return room, answer

    async def launched_reservation(self, client: Any, server: Any) -> str | None:
        """The reservation of the launched, still empty seat whose bot holds the client end
        of this loopback connection (`server.launcher.peers`), or None.

        A bot that only reads the official clients' `--reservation` flag gets its code in
        its environment instead and sends a plain `<join/>`: it still takes its own seat.
        """
        waiting = {proc.mark: room.slots[seat].reservation
                   for tracked in self.tracked.values()
                   if not (room := tracked.room).started and not room.closed
                   for seat, proc in tracked.procs.items()
                   if room.slots[seat].player is None and proc.running}
        if not waiting or not isinstance(client, tuple) or not isinstance(server, tuple):
            return None
        return await asyncio.to_thread(_holder_of, waiting, client, server)

    async def _watch(self, tracked: Tracked, seat: int, proc: BotProcess) -> None:
        """A bot that exits before its match started loses it: the room is told which seat
        failed (the launcher knows; the room only sees nobody come)."""
        await proc.wait()
        room = tracked.room
        if not room.started and not room.closed and proc.failure is not None:
            log.warning("room %s: seat %d %s; it loses", room.id, seat, proc.failure)
            room.seat_failed(seat)

    async def _stop_bots(self, tracked: Tracked) -> None:
        """Give the bots a moment to leave by themselves (their last words), then stop them."""
        procs = dict(tracked.procs)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(p.wait() for p in procs.values() if p.running)), BOT_EXIT_WAIT)
        await asyncio.gather(*(p.stop() for p in procs.values()), return_exceptions=True)
        try:
            await asyncio.to_thread(self._write_seat_logs, tracked.room.id, procs)
        finally:
            self._unwritten_logs.pop(tracked.room.id, None)

    def _write_seat_logs(self, match_id: str, procs: dict[int, BotProcess]) -> None:
        folder = self.data_dir / SEAT_LOGS / match_id
        folder.mkdir(parents=True, exist_ok=True)
        for seat, proc in procs.items():
            (folder / f"{seat}.log").write_text(seat_log_text(proc), encoding="utf-8")

    def seat_log(self, match_id: str, seat: int) -> str | None:
        """A launched seat's output: live from the process, else from its file (blocking)."""
        tracked = self.tracked.get(match_id)
        procs = tracked.procs if tracked is not None else self._unwritten_logs.get(match_id, {})
        if seat in procs:  # live, or ended and its file not written yet
            return seat_log_text(procs[seat])
        path = self.data_dir / SEAT_LOGS / match_id / f"{seat}.log"
        try:
            return path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None

    # --- admin control -----------------------------------------------------------------

    def live_room(self, match_id: str) -> Room | None:
        room = self.lobby.rooms.get(match_id)
        return None if room is None or room.closed else room

    def control(self, match_id: str, action: str) -> None:
        """pause, resume, step or cancel a live match; `MatchError` when it is not live."""
        room = self.live_room(match_id)
        if room is None:
            raise MatchError(f"match {match_id} is not running on this server", 409)
        if action == "pause":
            room.pause(True)
        elif action == "resume":
            room.pause(False)
        elif action == "step":
            room.step(False)
        elif action == "cancel":
            tracked = self.tracked.get(match_id)
            if tracked is not None:
                tracked.cancel_requested = True
            room.cancel()
        else:
            raise MatchError(f"unknown action {action!r}", 404)

    # --- life cycle --------------------------------------------------------------------

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("task %s failed", task.get_name(), exc_info=task.exception())

    async def close(self) -> None:
        """After the lobby closed: stop every launched bot, let every pump finish."""
        self._closing = True
        self._wake_probe.set()
        procs = [p for t in self.tracked.values() for p in t.procs.values()]
        await asyncio.gather(*(p.stop() for p in procs), return_exceptions=True)
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def seat_log_text(proc: BotProcess) -> str:
    """The command and both streams, the reservation code cut out (a bot may print it)."""
    return proc.redact(f"== {' '.join(proc.argv)}\n== stdout ==\n{proc.log.stdout.text()}\n"
                       f"== stderr ==\n{proc.log.stderr.text()}\n")


def _holder_of(waiting: dict[str, str | None], client: tuple[Any, ...],
               server: tuple[Any, ...]) -> str | None:
    """Blocking: which waiting mark's process holds the connection `client` -> `server`."""
    from server.launcher.peers import holder, socket_inode
    from server.launcher.reaping import marked_processes

    inode = socket_inode((str(client[0]), int(client[1])), (str(server[0]), int(server[1])))
    if inode is None:
        return None
    for mark, processes in marked_processes(list(waiting)).items():
        if holder(inode, processes) is not None:
            return waiting[mark]
    return None


def _find_bot(store: Store, key: str | int) -> Any:
    """A registered bot: an int is its id, a str its name (a bot may be named "1")."""
    if isinstance(key, int):
        return store.get_bot(key)
    return store.get_bot_by_name(key)


def _category(cause: Cause, left: LeftCause | None, launched: bool) -> FailureCategory | None:
    match cause:
        case Cause.SOFT_TIMEOUT | Cause.HARD_TIMEOUT:
            return FailureCategory.TIMEOUT
        case Cause.RULE_VIOLATION:
            return FailureCategory.ILLEGAL_MOVE
        case Cause.PROCESS_VIOLATION:
            return FailureCategory.PROTOCOL_ERROR
        case Cause.LEFT:
            if left is LeftCause.PROTOCOL_ERROR:
                return FailureCategory.PROTOCOL_ERROR
            if left is LeftCause.NOT_CONNECTED and launched:
                return FailureCategory.FAILED_TO_START
            return FailureCategory.DISCONNECT
    return None


def _violation_text(v: Any) -> str:
    parts = [v.cause.value]
    if v.left_cause is not None:
        parts.append(v.left_cause.value)
    if v.mistake_text:
        parts.append(v.mistake_text)
    if v.process:
        parts.append(v.process)
    return ": ".join(parts)


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


# --- log entries as stored events ----------------------------------------------------

_KINDS: dict[type, str] = {
    Welcome: "welcome", StateChanged: "state", DecisionRequested: "decision",
    MoveRejected: "rejected", PauseChanged: "pause", GameOver: "result", RoomClosed: "closed",
}


def _to_events(room: Room, sc: bool, entries: list[Entry],
               frames: dict[int, Frame] | None = None,
               extra: tuple[int, dict[str, Any]] | None = None,
               now: datetime | None = None) -> list[NewEvent]:
    """Runs on the writer thread: the entries' states are clones nobody mutates, and each
    observer entry's spectator frame (`server.spectate.frames`, plain dicts rendered when
    the entry was logged) is stored beside its payload: replays read it back. `extra`:
    (seq, fields merged into that entry's payload) of the result event. (A Hearth match's
    HSReplay document is not stored: `server.games.hearth.replay.stored_hsreplay` builds it
    from the events' history when it is read.)
    `now`: their time (the writer gives each batch one; None: now)."""
    now = now or utcnow()
    frames = frames or {}
    events = []
    for e in entries:
        event = e.event
        if type(event) is DecisionRequested and e.seq not in frames:
            # Every move has one; its payload is one of a few texts (see _decision_text).
            text = _decision_text(e.seats, e.observers, event.seat)
            events.append(NewEvent(room.id, e.seq, "decision", text, now))
            continue
        frame = frames.get(e.seq)
        found = record_of(event, room) if frame is None and (
            extra is None or e.seq != extra[0]) else None
        if found is not None:
            # Every move has one too: the payload `entry_payload` makes, written directly.
            key, record = found
            prefix = _state_prefix(e.seats, e.observers, e.to_players, key)
            events.append(NewEvent(room.id, e.seq, "state", JSONText(f"{prefix}{record}}}"),
                                   now))
            continue
        payload = entry_payload(room, sc, e)
        if frame is not None:
            payload.update(frame.payload())
        if extra is not None and e.seq == extra[0]:
            payload.update(extra[1])
        events.append(NewEvent(room.id, e.seq, _KINDS.get(type(event), "other"),
                               JSONText(encode_json(payload)), now))
    return events


@functools.lru_cache(maxsize=256)
def _decision_text(seats: frozenset[int], observers: bool, seat: int) -> JSONText:
    """A decision request's stored payload (as `entry_payload` makes it): it depends on
    nothing else, so each of the few there are is encoded once."""
    return JSONText(encode_json({**_audience(seats, observers, False), "seat": seat}))


@functools.lru_cache(maxsize=256)
def _state_prefix(seats: frozenset[int], observers: bool, replay: bool, key: str) -> str:
    """A recorded state's payload up to its record: `{...audience...,"<key>":`."""
    return encode_json(_audience(seats, observers, replay))[:-1] + f",{encode_json(key)}:"


def _audience(seats: frozenset[int], observers: bool, replay: bool) -> dict[str, Any]:
    """The part of every stored payload that says who got the entry and whether the
    official replay shows it."""
    return {"seats": sorted(seats), "observers": observers, "replay": replay}


def recorded(event: RoomEvent, room: Room) -> Recording | None:
    """How a state event is stored when its game records states compactly
    (`GamePlugin.recording`: Blokus stores the move); None: stored as its news."""
    if not isinstance(event, StateChanged) or room.plugin is None:
        return None
    return room.plugin.recording


def record_of(event: RoomEvent, room: Room) -> tuple[str, str] | None:
    """A recorded state event's (payload field, record as JSON text); None: not recorded."""
    recording = recorded(event, room)
    if recording is None or not isinstance(event, StateChanged):
        return None
    return recording.key, recording.record_text(event)


def entry_payload(room: Room, sc: bool, entry: Entry) -> dict[str, Any]:
    """One log entry as plain JSON: audience, a summary, and for SC games its XML packets
    (a state of a game that records states: its record, `GamePlugin.recording`)."""
    event = entry.event
    replay = ((isinstance(event, StateChanged) and entry.to_players)
              or isinstance(event, MoveRejected | GameOver))
    payload = _audience(entry.seats, entry.observers, replay)
    found = record_of(event, room)
    match event:
        case Welcome(seat=seat) | DecisionRequested(seat=seat):
            payload["seat"] = seat
        case MoveRejected():
            payload.update(seat=event.seat, rule=event.rule, mistake=event.mistake_name,
                           text=event.mistake_text, process=event.process, final=event.final,
                           move=_plain(event.move))
        case PauseChanged(paused=paused):
            payload["paused"] = paused
        case GameOver(result=result):
            payload.update(winner=result.winner, reason=result.reason,
                           scores=list(result.scores),
                           cause=None if result.violation is None
                           else result.violation.cause.value)
        case StateChanged(views=views) if not sc and found is None:
            # As it is when it is plain data (a Hearth history: `_plain`'s depth bound cut
            # nested blocks, and the HSReplay document is rebuilt from these on read).
            payload["public"] = views.public if _is_plain(views.public) \
                else _plain(views.public)
    if found is not None:
        # The record (Blokus: the move), not the state: readers rebuild the state from it.
        payload[found[0]] = json.loads(found[1])
    elif sc and not isinstance(event, DecisionRequested):  # a moveRequest says nothing
        try:
            payload["xml"] = sc_packets(room, entry)
        except Exception:
            log.exception("room %s: entry %d not rendered as SC XML", room.id, entry.seq)
    return payload


def sc_packets(room: Room, entry: Entry) -> list[str]:
    """The SC packets of an entry as the official replay records them (the first seat's)."""
    from server.net.replay import packet_bytes
    from server.net.sc_translate import room_event_messages

    seat = min(entry.seats) if entry.seats else None
    return [packet_bytes(message).decode()
            for message in room_event_messages(room, entry, seat)]


def _is_plain(value: Any) -> bool:
    """Whether `value` is JSON as it is (dicts with string keys, lists and tuples, strings,
    numbers, booleans, None), however deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(k) is str for k in item):
                return False
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif not (item is None or kind is str or kind is int or kind is bool
                  or kind is float):
            return False
    return True


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-able rendering of game data (bounded depth and size)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value if not isinstance(value, str) else value[:10_000]
    if depth > 8:
        return repr(value)[:200]
    if isinstance(value, enum.Enum):
        return _plain(value.value, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), depth + 1)
                for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in list(value.items())[:1000]}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v, depth + 1) for v in list(value)[:1000]]
    return repr(value)[:1000]


def bundled_bots(games: GameRegistry) -> list[tuple[str, str, list[str]]]:
    """(name, game, argv) of the bots every game of `games` brings (`GamePlugin.bundled`);
    `--host --port` are appended (the reservation is in their environment)."""
    return [(bot.name, plugin.game_id, list(bot.argv))
            for plugin in games for bot in plugin.bundled()]


def register_bundled_bots(store: Store, games: GameRegistry) -> list[str]:
    """Register the bundled bots that are not registered yet (blocking; at start-up)."""
    added = []
    for name, game, argv in bundled_bots(games):
        if store.get_bot_by_name(name) is None:
            with contextlib.suppress(Exception):
                store.create_bot(name, game, argv)
                added.append(name)
    return added


def abort_stale_waiting(store: Store, *, keep_dispatched: bool = False) -> list[str]:
    """Waiting matches of a previous run: their rooms and reservations died with it.

    With a broker (`keep_dispatched`, as `Store.recover`) the matches queued for the workers
    stay: they are not this node's."""
    from server.store.store import dispatched

    ids: list[str] = []
    kept = 0
    while True:
        page = store.list_matches(status=MatchStatus.WAITING, limit=500, offset=kept)
        progress = False
        for match in page.items:
            if keep_dispatched and dispatched(match.options):
                kept += 1
                continue
            with contextlib.suppress(Exception):
                store.set_status(match.id, MatchStatus.ABORTED)
                ids.append(match.id)
                progress = True
        if not progress:
            return ids
