"""Asking a bot again: a stored match played once more, up to one seat's decision, with a
fresh bot process in that seat and the stored answers everywhere else.

The match is played in a room of our own server code, in a throwaway lobby with its own
TCP listener on a free loopback port (nothing is stored, no other match sees it), with
the match's id as the room's id and the game rebuilt from its seed and decks: the bot's
session writes the same bytes the original seat got. Every other seat is a
`ScriptedPlayer` that answers its stored answers. The asked seat is the bot, launched as
the launcher launches any bot (`server.launcher`) and joined with a reservation. The room
drives a `ScriptedGame`, the real game behind a thin wrapper that, for each of the asked
seat's decisions before the asked one, applies the stored answer whatever the bot said
(so that the bot is sent the original news after it), and at the asked decision applies
the bot's own answer and ends. Each of the seat's answers is kept with its think time,
as the room measured it (its request's bytes written to the answer's bytes read).

Order: the stored answers are applied in their stored order, so that the news (a Hearth
history interleaves both mulligans) come out as they did. A scripted seat answers as soon
as every stored answer before its own was applied, synchronously when that is at once (so
it is queued before the bot could answer anything); the asked seat's answers before the
asked decision are replaced, whenever they come. A bot that answered a simultaneous
decision (the mulligan) faster than the in-process scripted seat breaks the order; the
room then ends as crashed and the ask says so (it has not been seen: a bot's answer goes
through a socket and a process, a scripted one through a function call).

What a bot receives is the original seat's bytes only while its own answers are taken as
the stored ones: a session's acknowledgement of an answer (Kettle's) still acknowledges
the bot's own, and an answer the protocol refuses (not an answer at all) is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.ask.stored import AskError, StoredMatch
from server.games.registry import GamePlugin, GameRegistry, StoredAnswers
from server.launcher import BotProcess, BotSpec, launch
from server.launcher.peers import holder, socket_inode
from server.launcher.reaping import marked_processes
from server.matches import MatchError
from server.net.listener import TcpListener
from server.rooms import (
    Clocks,
    DecisionRequested,
    Entry,
    Lobby,
    MatchResult,
    Room,
    RoomClosed,
    ServerStats,
    SlotRequest,
)
from server.rooms.errors import LobbyError
from server.rooms.game import Decision, Game, OnRefusal, RuleViolation, Views
from server.rooms.inprocess import IN_PROCESS
from server.rooms.result import Outcome

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
START_WAIT = 60.0
"""Seconds the asked bot gets to start and join (a JVM, a first import of a big library)."""


@dataclass
class Said:
    """One answer of the asked seat: its decision number, the bot's answer and the stored
    one in log form (None: none), the bot's think time in milliseconds, whether the game
    took it (only the asked decision's answer is applied; earlier ones are replaced)."""

    decision: int
    answer: Any
    stored: Any
    think_ms: float | None
    legal: bool = True

    @property
    def same(self) -> bool:
        return self.answer is not None and self.answer == self.stored

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.decision, "answer": self.answer, "stored": self.stored,
                "same": self.same, "think_ms": self.think_ms, "legal": self.legal}


@dataclass
class Asked:
    """What an ask found: the answer stored at the asked decision (`stored`, log form),
    every answer of the seat up to the asked decision (`said`), and `failure` when the
    bot gave none at the asked decision (it crashed, timed out, never joined: the room's
    or the launcher's words)."""

    decision: int
    stored: Any = None
    said: list[Said] = field(default_factory=list)
    failure: str | None = None
    stderr: str = ""

    @property
    def last(self) -> Said | None:
        """The answer at the asked decision (None: the bot gave none)."""
        return self.said[-1] if self.said and self.said[-1].decision == self.decision \
            else None


def start_game(plugin: GamePlugin, seed: int | None, options: Mapping[str, Any] | None,
               events: list[tuple[int, str, Any]],
               origin: Callable[[], Game] | None = None) -> Game:
    """The stored match's game before its first answer: the game's own rebuild
    (`StoredAnswers.first_game`; `origin`: for a match from a position, the game there,
    `server.positions.origin_of`) with each seat's deck from the match's options (`decks`,
    as the game reads them); `AskError` naming what cannot be rebuilt."""
    answers = _answers(plugin)
    try:
        game = answers.first_game(seed, events, origin)
    except (ValueError, MatchError) as error:
        raise AskError("match", str(error)) from None
    decks = (options or {}).get("decks") or {}
    if decks and (plugin.read_deck is None or plugin.use_deck is None):
        raise AskError("match", f"its options name decks, and {plugin.game_id} takes none")
    for seat, spec in sorted(decks.items()):
        assert plugin.read_deck is not None and plugin.use_deck is not None
        try:
            plugin.use_deck(game, int(seat), plugin.read_deck(spec))
        except (TypeError, ValueError) as error:
            raise AskError("match", f"seat {seat}'s stored deck: {error}") from None
    return game


def check_replays(plugin: GamePlugin, game: Game, match: StoredMatch, until: int) -> None:
    """Every stored answer before decision `until` applies to `game` in order (it is
    played on): `AskError` when the stored match does not rebuild (a deck or a card that
    changed since, a damaged log). Cheap beside the bot's own time."""
    answers = _answers(plugin)
    limit = match.answer_of[until]
    limit = len(match.answers) if limit is None else limit
    for index, stored in enumerate(match.answers[:limit]):
        try:
            game.apply(stored.seat, answers.decode(stored.move))
        except (ValueError, RuleViolation) as error:
            raise AskError("match", f"its stored answer {index} (seat {stored.seat}, "
                           f"{stored.move!r}) does not apply to the rebuilt game: {error}"
                           ) from None


def _answers(plugin: GamePlugin) -> StoredAnswers:
    if plugin.answers is None:
        raise AskError("match", f"{plugin.game_id} matches cannot be asked again")
    return plugin.answers


class ScriptedGame:
    """The room's game: `inner` with the asked seat's answers before `last` replaced by
    the stored ones, and the seat's every answer kept (`said`). `applied` counts the
    stored answers applied so far; `when_applied(n)` waits until n are."""

    def __init__(self, inner: Game, answers: StoredAnswers, match: StoredMatch, seat: int,
                 last: int, stats: ServerStats) -> None:
        self.inner = inner
        self.game_type = inner.game_type
        self.seat_count = inner.seat_count
        self.on_refusal: OnRefusal = inner.on_refusal
        self._answers = answers
        self._match = match
        self.seat = seat
        self._mine = [n for n in match.seat_decisions(seat) if n <= last]
        self.last = last
        self._stats = stats
        self.applied = 0
        self.said: list[Said] = []
        self.done = asyncio.Event()
        self.broken: str | None = None
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    def __getattr__(self, name: str) -> Any:
        # What a game's own session or renderer reads of its adapter (Blokus's `state`).
        return getattr(self.inner, name)

    @property
    def is_over(self) -> bool:
        return self.inner.is_over

    def pending(self) -> Mapping[int, Decision]:
        return self.inner.pending()

    def accepts(self, data: object) -> bool:
        return self.inner.accepts(data)

    def apply(self, seat: int, answer: Any) -> None:
        if self.done.is_set():  # asked already; the room is being cancelled
            raise RuleViolation("ASKED", "the asked decision was answered", answer)
        if seat == self.seat:
            self._asked(answer)
            if self.done.is_set():  # the asked decision: the bot's own answer is played
                try:
                    self.inner.apply(seat, answer)
                except RuleViolation:
                    self.said[-1].legal = False
                    raise
                return
            answer = self._answers.decode(self._match.stored_move(self.said[-1].decision))
        expected = self._match.answers[self.applied] if self.applied < len(
            self._match.answers) else None
        if expected is None or expected.seat != seat:
            self.broken = (f"seat {seat} answered where the stored match has "
                           f"{'no answer' if expected is None else f'seat {expected.seat}'}")
            self.done.set()
            raise RuntimeError(self.broken)  # the room ends as crashed
        self.inner.apply(seat, answer)
        self.applied += 1
        for count, waiter in list(self._waiters):
            if count <= self.applied and not waiter.done():
                waiter.set_result(None)
        self._waiters = [(c, w) for c, w in self._waiters if not w.done()]

    def _asked(self, answer: Any) -> None:
        """Keep the asked seat's answer, with the think time the room just measured (it
        appends it to its stats right before applying)."""
        number = self._mine[len(self.said)]
        think = self._stats.think_seconds[-1] if self._stats.think_seconds else None
        self.said.append(Said(number, self._answers.encode(answer),
                              self._match.stored_move(number),
                              None if think is None else round(think * 1000, 3)))
        if number == self.last:
            self.done.set()

    def when_applied(self, count: int) -> asyncio.Future[None]:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.applied >= count:
            waiter.set_result(None)
        else:
            self._waiters.append((count, waiter))
        return waiter

    def news(self, seats: Collection[int], observers: bool) -> Views:
        return self.inner.news(seats, observers)

    def view(self, seat: int | None) -> Any:
        return self.inner.view(seat)

    def outcome(self) -> Outcome | None:
        return self.inner.outcome()

    def scores(self) -> tuple[int, ...]:
        return self.inner.scores()

    def stopped(self) -> Outcome:
        return self.inner.stopped()

    def concede(self, seat: int) -> bool:
        return self.inner.concede(seat)


class ScriptedPlayer:
    """A seat that answers its stored answers (`moves`: index in the stored order, the
    room's answer), each once every stored answer before it was applied."""

    def __init__(self, game: ScriptedGame, moves: Sequence[tuple[int, Any]]) -> None:
        self._game = game
        self._moves = list(moves)
        self._next = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        event = entry.event
        if isinstance(event, DecisionRequested) and event.seat == seat \
                and self._next < len(self._moves):
            index, move = self._moves[self._next]
            self._next += 1
            if self._game.applied >= index:
                self._submit(room, move)  # now: queued before anything the bot may say
            else:
                task = asyncio.get_running_loop().create_task(self._later(room, index, move))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        return time.monotonic()

    async def _later(self, room: Room, index: int, move: Any) -> None:
        await self._game.when_applied(index)
        self._submit(room, move)

    def _submit(self, room: Room, move: Any) -> None:
        with contextlib.suppress(LobbyError):  # the room ended meanwhile
            room.submit(self, move, time.monotonic())

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()


class _Watcher:
    """The room's observer: tells the launched bot's process once its seat is taken (a
    crash after that is a crash, not a failure to start), and ends the wait when the room
    closes (however it ends)."""

    def __init__(self, seat: int, proc: BotProcess) -> None:
        self.closed = asyncio.Event()
        self._seat = seat
        self._proc = proc
        self._told = False

    def offer_room_event(self, room: Room, entry: Entry) -> bool:
        if not self._told and room.slots[self._seat].present:
            self._told = True
            self._proc.connected()
        if isinstance(entry.event, RoomClosed):
            self.closed.set()
        return True


async def ask(plugin: GamePlugin, match: StoredMatch, game: Game, seat: int, last: int,
              spec: BotSpec, *, clocks: Clocks, names: Sequence[str] = ()) -> Asked:
    """Play `match` again in `game` (its start, `start_game`) with `spec`'s bot in `seat`
    up to that seat's decision `last` (its every decision before it answered with the
    stored answer); what the bot said at each."""
    answers = _answers(plugin)
    stats = ServerStats()
    scripted = ScriptedGame(game, answers, match, seat, last, stats)
    registry = GameRegistry([dataclasses.replace(plugin, new_game=lambda _seed: scripted)])
    lobby = Lobby(clocks=clocks, stats=stats, games=registry, max_rooms=1,
                  empty_room_timeout=None)
    listener = TcpListener(lobby, host=HOST, port=0, admin_password=secrets.token_hex(16),
                           login_timeout=START_WAIT)
    await listener.start()
    asked = Asked(last, match.stored_move(last))
    proc: BotProcess | None = None
    players: list[ScriptedPlayer] = []
    try:
        slots = [SlotRequest(display_name=names[i] if i < len(names) else "")
                 for i in range(match.seat_count)]
        room, codes = lobby.prepare(plugin.game_id, slots, False, clocks, None,
                                    room_id=match.match_id)
        for other in range(match.seat_count):
            if other == seat:
                continue
            moves = [(i, answers.decode(a.move)) for i, a in enumerate(match.answers)
                     if a.seat == other]
            player = ScriptedPlayer(scripted, moves)
            players.append(player)
            lobby.seated(lobby.join_prepared(player, codes[other], IN_PROCESS))
        reservation = codes[seat]
        if spec.protocol == "kettle":  # Kettle's join_game names the game: GAME_ID:PASSWORD
            reservation = f"{room.id}:{reservation}"
        proc = launch(spec, HOST, listener.bound_port, reservation)
        watcher = _Watcher(seat, proc)
        room.add_observer(watcher)
        lobby.find_launched = _launched_finder(room, seat, proc, codes[seat])
        await proc.start()
        asked.failure = await _until_asked(room, scripted, watcher, proc)
        asked.said = scripted.said
    finally:
        for player in players:
            player.stop()
        await lobby.close()
        if proc is not None:
            proc.match_ended()
            await proc.stop()
            asked.stderr = proc.redact(proc.log.stderr.text())
        await listener.close()
    return asked


async def _until_asked(room: Room, scripted: ScriptedGame, watcher: _Watcher,
                       proc: BotProcess) -> str | None:
    """Wait for the asked answer, the room's end or the bot's exit before it joined; why
    no answer came (None: it came), and the room cancelled."""
    done = asyncio.ensure_future(scripted.done.wait())
    closed = asyncio.ensure_future(watcher.closed.wait())
    exited = asyncio.ensure_future(proc.wait())
    try:
        await asyncio.wait({done, closed, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited.done() and not done.done() and not room.started:
            # Started and gone before joining: the launcher knows why.
            return str(proc.failure) if proc.failure is not None else "the bot exited " \
                "before it joined"
        if not done.done():
            with contextlib.suppress(TimeoutError):
                # The bot exited after joining: the room reports the end in a moment.
                await asyncio.wait_for(asyncio.shield(closed), START_WAIT)
        if scripted.broken is not None:
            return f"the replay lost the stored order: {scripted.broken}"
        if scripted.done.is_set():
            return None
        return _why(room.result, proc)
    finally:
        for future in (done, closed, exited):
            future.cancel()
        with contextlib.suppress(LobbyError):
            room.cancel()


def _why(result: MatchResult | None, proc: BotProcess) -> str:
    if proc.failure is not None:
        return str(proc.failure)
    if result is None:
        return "the match ended without a result"
    if result.violation is not None:
        v = result.violation
        return ": ".join(str(p) for p in (v.cause.value, v.left_cause and v.left_cause.value,
                                         v.mistake_text, v.process) if p)
    return f"the match ended first ({result.reason})"


def _launched_finder(room: Room, seat: int, proc: BotProcess, code: str
                     ) -> Callable[[Any, Any], Any]:
    """`Lobby.find_launched` for the one launched bot: a bot that only knows the official
    clients' `--reservation` flag sends a plain `<join/>` and still takes its seat (see
    `server.launcher.peers`)."""

    async def find(client: Any, server: Any) -> str | None:
        if room.started or room.slots[seat].player is not None or not proc.running \
                or not isinstance(client, tuple) or not isinstance(server, tuple):
            return None
        held = await asyncio.to_thread(_holds, proc.mark, client, server)
        return code if held else None

    return find


def _holds(mark: str, client: tuple[Any, ...], server: tuple[Any, ...]) -> bool:
    """Blocking: whether a process carrying `mark` holds the connection's client end."""
    inode = socket_inode((str(client[0]), int(client[1])), (str(server[0]), int(server[1])))
    if inode is None:
        return False
    return any(holder(inode, processes) is not None
               for processes in marked_processes([mark]).values())


def stored_clocks(options: Mapping[str, Any] | None, default: Clocks) -> Clocks:
    """The match's own clocks (its options' `clocks`), else `default`; never paced.

    >>> stored_clocks({"clocks": {"soft": 1.0, "hard": 3.0}}, Clocks()).hard
    3.0
    """
    found = (options or {}).get("clocks")
    clocks = default
    if isinstance(found, dict):
        names = {f.name for f in dataclasses.fields(Clocks)}
        with contextlib.suppress(TypeError, ValueError):
            clocks = dataclasses.replace(default, **{k: v for k, v in found.items()
                                                      if k in names})
    return dataclasses.replace(clocks, min_move_time=0.0)


def normalized(events: Iterable[Any]) -> list[tuple[int, str, Any]]:
    """Stored events (`Store.events_since` rows, or the events API's JSON objects) as
    (seq, kind, payload) in seq order, each seq once (a pack committed while they were
    read shows some twice)."""
    found: dict[int, tuple[int, str, Any]] = {}
    for event in events:
        if isinstance(event, dict):
            seq, kind, payload = event.get("seq"), event.get("kind"), event.get("payload")
        else:
            seq, kind, payload = event.seq, event.kind, event.payload
        if isinstance(seq, int) and isinstance(kind, str):
            found.setdefault(seq, (seq, kind, payload))
    return [found[seq] for seq in sorted(found)]


async def ask_stored(plugin: GamePlugin, match_id: str, *, seed: int | None,
                     options: Mapping[str, Any] | None, events: Iterable[Any], seat: int,
                     turn: int | None, spec: BotSpec, clocks: Clocks,
                     names: Sequence[str] = (),
                     origin: Callable[[], Game] | None = None) -> Asked:
    """Ask `spec`'s bot, in `seat` of the stored match, its answer at decision `turn`
    (None: the seat's last decision, collecting every answer on the way): the checks
    first (`AskError`: nothing is started), then `ask`. `origin`: for a match that
    started from a stored position, the game there (`server.positions.origin_of`)."""
    answers = _answers(plugin)
    found = normalized(events)
    match = StoredMatch.read(match_id, plugin.seat_count, found, answers.answers(found))
    last = match.check(seat, turn)
    # The stored answers are applied once on a game of their own before any bot starts
    # (CPU work: a thread), so that a match that does not rebuild is refused, not run.
    first = await asyncio.to_thread(start_game, plugin, seed, options, found, origin)
    await asyncio.to_thread(check_replays, plugin, first, match, last)
    game = await asyncio.to_thread(start_game, plugin, seed, options, found, origin)
    return await ask(plugin, match, game, seat, last, spec,
                     clocks=stored_clocks(options, clocks), names=names)
