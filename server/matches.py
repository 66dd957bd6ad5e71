"""The match service: rooms become stored matches, and bots the server launches sit in them.

The lobby tells the service of each new room (`Lobby.room_listeners`), whoever made it: an
SC admin's `prepare`, a plain `join`, a Kettle client, the HTTP API. The service hands it
to its recorder (`server.recorder.MatchRecorder`: the match log into the store, the
statuses, the result before it is announced) and keeps, per room, the bots it launched.

- `create_match` prepares a room with every seat reserved, stores it and launches its
  registered bots (`server.launcher`), or seats a game's in-process bundled bots;
- a launched bot's failure categories (failed_to_start, crash) and the room's verdicts
  (timeout, illegal_move, protocol_error, disconnect) land on its seat (`on_result`, the
  room's hook, before the recorder stores the result); its output is kept under the data
  folder (`seat_log`), and its stderr per move, stamped with its seat's decisions (the
  room's log tells its process of each), in the store once the match is over
  (`seat_moves`);
- `control` pauses, steps, resumes and cancels a live match.

Without a store (`store=None`: tests, benchmarks) the service only launches bots; nothing
is recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.launcher import BotProcess, BotSpec, FailureCategory, WireProtocol, launch
from server.recorder import MatchRecorder, Recorded, ResultNotStored
from server.rooms import (
    Cause,
    Clocks,
    DecisionRequested,
    Entry,
    LeftCause,
    Lobby,
    MatchResult,
    Room,
    SlotRequest,
    StateChanged,
    Welcome,
)
from server.rooms.inprocess import IN_PROCESS, InProcessPlayer
from server.store import Store, StoreWriter

if TYPE_CHECKING:
    from server.positions import Start

__all__ = ["MatchError", "MatchService", "ResultNotStored", "SeatRequest", "checked_deck",
           "seat_log_text"]

log = logging.getLogger(__name__)

LEFT_WAIT = 1.0
"""Seconds the result waits for a launched bot whose connection ended to exit (crash or not)."""
BOT_EXIT_WAIT = 3.0
"""Seconds launched bots get to exit by themselves after their match, before SIGTERM."""
SEAT_LOGS = "seat-logs"
"""Folder under the data folder with one file per launched seat."""


class MatchError(Exception):
    """A request the service refuses; `status` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def checked_deck(plugin: Any, spec: Any, where: str) -> Any:
    """`spec` read by the game (`GamePlugin.read_deck`), or `MatchError` 422 saying where
    and, from the game, which card broke which rule."""
    if plugin.read_deck is None or plugin.use_deck is None:
        raise MatchError(f"{where}: {plugin.game_id} takes no decks", 422)
    try:
        return plugin.read_deck(spec)
    except ValueError as error:
        raise MatchError(f"{where}: {error}", 422) from None


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a new match: a registered bot the server launches, or a reserved name."""

    name: str | None = None
    bot: str | int | None = None
    deck: Any = None  # the game's `read_deck` reads it (Hearth: a name, a code, hero+cards)


@dataclass
class Tracked:
    """What the service knows of one live room: the bots it launched for it."""

    room: Room
    record: Recorded
    procs: dict[int, BotProcess] = field(default_factory=dict)


class MatchService:
    """Rooms to stored matches, and bots launched for seats. One per server."""

    def __init__(self, lobby: Lobby, store: Store | None, writer: StoreWriter | None, *,
                 host: str, port: Callable[[], int], data_dir: Path) -> None:
        self.lobby = lobby
        self.store = store
        self.host = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
        self._port = port
        self.data_dir = Path(data_dir)
        self.tracked: dict[str, Tracked] = {}
        # Launched bots of ended rooms until their seat logs are on disk (`seat_log`).
        self._unwritten_logs: dict[str, dict[int, BotProcess]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.recorder = MatchRecorder(writer, self._spawn)

    # --- the store's health ------------------------------------------------------------

    @property
    def store_error(self) -> str | None:
        """Why the store is considered failing (None: it writes)."""
        return self.recorder.store_error

    def refusal(self) -> str | None:
        """Why new matches are refused now (None: they are not). The lobby's gate."""
        return self.recorder.refusal()

    def check_available(self) -> None:
        """`MatchError` 503 while the store fails."""
        reason = self.refusal()
        if reason is not None:
            raise MatchError(reason, 503)

    # --- the lobby's hook ------------------------------------------------------------

    def room_created(self, room: Room) -> None:
        """A `Lobby.room_listeners` entry: track the room, record it from its first entry on."""
        source = "join" if room.id in self.lobby.join_openers else None  # unauthenticated
        record = self.recorder.track(room, self.lobby.speaks(room, "sc"), source)
        tracked = Tracked(room, record)
        self.tracked[room.id] = tracked
        room.log.listen(functools.partial(self._on_room_entry, room.id))
        task = room.task
        if task is not None:
            task.add_done_callback(lambda _t: self._room_done(tracked))

    def _on_room_entry(self, room_id: str, entry: Entry) -> None:
        """Tell a launched bot's process what its seat's entries mean for it: connected,
        a decision asked (its stderr is stamped with it from now on), an answer applied."""
        tracked = self.tracked.get(room_id)
        if tracked is None or not tracked.procs:
            return
        event = entry.event
        if isinstance(event, Welcome):
            proc = tracked.procs.get(event.seat)
            if proc is not None:
                proc.connected()
        elif isinstance(event, DecisionRequested):
            proc = tracked.procs.get(event.seat)
            if proc is not None:
                proc.decision_opened(entry.seq)
        elif isinstance(event, StateChanged) and event.answer is not None:
            proc = tracked.procs.get(event.answer[0])
            if proc is not None:
                proc.decision_answered(event.think)

    def _room_done(self, tracked: Tracked) -> None:
        """The room's task ended: its launched bots are stopped, their logs written."""
        room = tracked.room
        for proc in tracked.procs.values():
            proc.match_ended()
        if tracked.procs:
            self._unwritten_logs[room.id] = dict(tracked.procs)
            self._spawn(self._stop_bots(tracked), f"stop-bots-{room.id}")
        self.tracked.pop(room.id, None)

    # --- the room's on_result hook -----------------------------------------------------

    async def on_result(self, room: Room, result: MatchResult) -> None:
        """Each seat's failure, then the result stored before it is announced
        (`ResultNotStored` when it could not be)."""
        tracked = self.tracked.get(room.id)
        if tracked is None:
            return
        failures = await self._seat_failures(tracked, result)
        for proc in tracked.procs.values():
            proc.match_ended()
        await self.recorder.store_result(room, result, failures)

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

    async def _checked(self, game: str, seats: Sequence[SeatRequest], store: Store | None
                       ) -> tuple[Any, dict[int, Any]]:
        """The one validation of a new match: the store writes, the game is known, the seat
        count fits and every seat's bot is registered for that game. Its plugin and the
        registered bots by seat; `MatchError` with the HTTP status that fits."""
        self.check_available()
        if game not in self.lobby.games:
            raise MatchError(f"game: unknown game {game!r}; known: "
                             f"{self.lobby.games.listing()}", 404)
        plugin = self.lobby.games.get(game)
        if len(seats) != plugin.seat_count:
            raise MatchError(f"seats: {game} needs exactly {plugin.seat_count} seats, "
                             f"got {len(seats)}", 422)
        bots: dict[int, Any] = {}
        for i, seat in enumerate(seats):
            if seat.bot is None:
                continue
            if store is None:
                raise MatchError("this server has no store: no registered bots", 409)
            bot = await asyncio.to_thread(find_bot, store, seat.bot)
            if bot is None or bot.id is None:
                raise MatchError(f"seats[{i}].bot: no registered bot {seat.bot!r}", 404)
            if bot.game != game:
                raise MatchError(f"seats[{i}].bot: bot {bot.name!r} plays {bot.game}, "
                                 f"not {game}", 422)
            bots[i] = bot
        return plugin, bots

    @staticmethod
    def _decks(plugin: Any, seats: Sequence[SeatRequest], bots: dict[int, Any]
               ) -> dict[int, tuple[Any, Any]]:
        """Each seat's deck, read by the game, and as it was given: the seat's own, else its
        registered bot's default deck; `MatchError` 422 naming the seat, the card and the
        rule."""
        found: dict[int, tuple[Any, Any]] = {}
        for i, seat in enumerate(seats):
            if seat.deck is not None:
                found[i] = (checked_deck(plugin, seat.deck, f"seats[{i}].deck"), seat.deck)
            elif i in bots and getattr(bots[i], "deck", None) is not None:
                # Read again: a deck registered before a card changed is refused here.
                found[i] = (checked_deck(plugin, bots[i].deck,
                                         f"seats[{i}]: bot {bots[i].name!r}'s deck"),
                            bots[i].deck)
        return found

    async def start_match(self, game: str, seats: Sequence[SeatRequest], *,
                          seed: int | None = None, paused: bool = False,
                          clocks: Clocks | None = None, remote: Any = None,
                          remote_wait: float | None = None, start: Start | None = None
                          ) -> tuple[str, list[dict[str, Any]]]:
        """What `POST /api/matches` does: the match's id and its seats (as `create_match`).

        With `remote` (a cluster's `server.worker.dispatch.Dispatcher`) a match of
        registered bots only, not paused, is queued for the workers (waiting up to
        `remote_wait` seconds for room: `MatchError` 503 after); any other is played here (a
        reserved seat needs this node's TCP port). A match from a position (`start`) is
        played here too: the workers' jobs carry no positions."""
        if remote is None or paused or start is not None or any(
                s.bot is None or s.deck is not None for s in seats):
            # A seat with a deck is played here too: the workers' jobs carry no decks.
            room, answer = await self.create_match(game, seats, seed=seed, paused=paused,
                                                   clocks=clocks, start=start)
            return room.id, answer
        _plugin, bots = await self._checked(game, seats, remote.store)
        named = [(bots[i].id, bots[i].name) for i in range(len(seats))]
        # A full queue raises its own MatchError (503).
        match_id = await remote.submit(game, named, seed=seed, clocks=clocks, source="api",
                                       timeout=remote_wait)
        return match_id, [{"index": i, "name": name, "bot": name, "reservation": None}
                          for i, (_id, name) in enumerate(named)]

    async def create_match(self, game: str, seats: Sequence[SeatRequest], *,
                           seed: int | None = None, paused: bool = False,
                           clocks: Clocks | None = None, match_id: str | None = None,
                           start: Start | None = None) -> tuple[Room, list[dict[str, Any]]]:
        """Prepare a room (every seat reserved), store it, launch its bots.

        Returns the room and per seat {index, name, bot, reservation} (the reservation only
        for seats the caller fills itself). `MatchError` 503 while the store fails.
        `start`: the match goes on from this position (`server.positions`), its seed and
        decks the position's (a seat's deck is refused), recorded in its options' "from".
        """
        plugin, bots = await self._checked(game, seats, self.store)
        if start is not None:
            given = next((i for i, s in enumerate(seats) if s.deck is not None), None)
            if given is not None:
                raise MatchError(f"seats[{given}].deck: a match from a position plays the "
                                 "position's decks", 422)
            decks: dict[int, tuple[Any, Any]] = {}  # a bot's default deck is not dealt
        else:
            decks = self._decks(plugin, seats, bots)
        protocol: WireProtocol = "sc" if plugin.speaks("sc") else "kettle"
        slots = [SlotRequest(display_name=(s.name or (bots[i].name if i in bots else "")))
                 for i, s in enumerate(seats)]
        try:
            room, _codes = self.lobby.prepare(game, slots, paused, clocks, seed,
                                              room_id=match_id,
                                              game=None if start is None else start.game)
        except Exception as exc:
            raise MatchError(str(exc), 409) from exc
        for i, (deck, _given) in decks.items():
            plugin.use_deck(room.game, i, deck)  # before any seat joins: nothing was dealt
        tracked = self.tracked[room.id]
        record = tracked.record
        record.seed = seed  # None: the recorder stores the one the game drew
        record.options = {"paused": paused, "source": "api",
                           **({"clocks": dataclasses.asdict(clocks)} if clocks else {})}
        if decks:  # as given: a position of this match is dealt them again
            record.options["decks"] = {str(i): given for i, (_d, given) in decks.items()}
        if start is not None:
            record.options["from"] = start.origin
        record.bot_ids = {i: b.id for i, b in bots.items() if b.id is not None}
        record.awaited = True
        if record.created is not None:
            await asyncio.shield(record.created)
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

    async def wait_stored(self, match_id: str) -> None:
        """Until a match of this server is over and its end is in the store (a result, or
        the status of a match that ended without one); at once for one that is not live."""
        room = self.live_room(match_id)
        if room is not None and room.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(room.task)
        # The room's end queues the status of a match without result; wait for it.
        writer = self.recorder.writer
        if writer is not None:
            with contextlib.suppress(Exception):
                await writer.flush()

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
            await self._store_moves(tracked.room.id, procs)
            await asyncio.to_thread(self._write_seat_logs, tracked.room.id, procs)
        finally:
            self._unwritten_logs.pop(tracked.room.id, None)

    async def _store_moves(self, match_id: str, procs: dict[int, BotProcess]) -> None:
        """Each launched seat's stderr by move into the store (`seat_moves`), through the
        writer (in order with the match's own writes: its row exists by then)."""
        writer = self.recorder.writer
        if self.store is None or writer is None:
            return
        for seat, proc in procs.items():
            proc.moves.flush()
            moves = [move.as_json() for move in proc.moves.moves()]
            try:
                await writer.call(functools.partial(_save_moves, match_id=match_id,
                                                    seat=seat, moves=moves), soon=False)
            except Exception:  # the seat-log file still has its output
                log.warning("match %s seat %d: its move logs were not stored", match_id, seat,
                            exc_info=True)

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

    def seat_moves(self, match_id: str, seat: int) -> list[dict[str, Any]] | None:
        """A launched seat's stderr by move (`Move.as_json` dicts, turn 0 first): live from
        the process, else from the store (blocking); None when no bot was launched for it
        (or it was played before move logs were kept and its seat-log file is gone)."""
        tracked = self.tracked.get(match_id)
        procs = tracked.procs if tracked is not None else self._unwritten_logs.get(match_id, {})
        if seat in procs:
            return [move.as_json() for move in procs[seat].moves.moves()]
        if self.store is not None:
            stored = self.store.seat_moves(match_id, seat)
            if stored:
                return [_stored_move(row) for row in stored]
        path = self.data_dir / SEAT_LOGS / match_id / f"{seat}.log"
        return [] if path.is_file() else None

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
            record = self.recorder.records.get(match_id)
            if record is not None:
                record.cancel_requested = True
            room.cancel()
        else:
            raise MatchError(f"unknown action {action!r}", 404)

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
        self.recorder.close()
        procs = [p for t in self.tracked.values() for p in t.procs.values()]
        await asyncio.gather(*(p.stop() for p in procs), return_exceptions=True)
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def seat_log_text(proc: BotProcess) -> str:
    """The command and both streams, the reservation code cut out (a bot may print it)."""
    return proc.redact(f"== {' '.join(proc.argv)}\n== stdout ==\n{proc.log.stdout.text()}\n"
                       f"== stderr ==\n{proc.log.stderr.text()}\n")


def _save_moves(store: Store, *, match_id: str, seat: int,
                moves: list[dict[str, Any]]) -> None:
    store.save_seat_moves(match_id, seat, moves)


def _stored_move(row: Any) -> dict[str, Any]:
    """A `seat_moves` row in the shape `Move.as_json` gives a live one."""
    return {"turn": row.turn, "seq": row.seq, "think_ms": row.think_ms,
            "cpu_ms": row.cpu_ms, "peak_rss_kb": row.peak_rss_kb, "lines": list(row.lines),
            "truncated": bool(row.dropped_lines or row.dropped_bytes),
            "dropped_lines": row.dropped_lines, "dropped_bytes": row.dropped_bytes}


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


def find_bot(store: Store, key: str | int) -> Any:
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
