"""Fault tests: a player that hangs up at every point of both protocols.

One real `GauntletServer` per protocol, a SQLite store in tmp_path, real TCP sockets. A
reference game (fixed game seed, seeded random players) gives each seat's transcript:
every message it receives and every answer it sends. Then, for each seat, one match per
point of that transcript: the player hangs up after its k-th received message, right
after its k-th answer, in the middle of writing its k-th answer (a few byte counts), once
with a reset (SO_LINGER 0) instead of a FIN; plus the points before a game starts
(connected without a byte, half an opening, half a join, joined before the opponent,
joined as the second player while the room starts).

The opponent plays in lockstep with the one who hangs up: it answers a decision only
once the other has read everything before it, and never after it hung up. So what the
room handles after the cut is the hang-up, and the expected outcome follows from the
reference transcript: once the game is over (or the answer just sent ended it) the
result is regular and nobody has a failure; otherwise the one who left loses with
`disconnect` (`LEFT: LOST_CONNECTION`), the opponent wins and is told so. Before the start
a hang-up frees the seat: the reservation works again and the match plays to the end.

For every point: the dropped match ends (every wait is bounded), its stored result and
seats are as expected, its stored events are exactly the room's log (seq 0..n-1, one
result, `closed` last); matches of bystanders play meanwhile, back to back, and each one
is stored finished and regular; after the sweep a fresh match plays to the end and no
room, session or tracked match is left over.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocols.base import NEED_DATA, ConnectionClosed, StreamEnd
from protocols.kettle import (
    ChooseEntities,
    ChooseOption,
    ClientConnection,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    JoinGame,
    Nack,
    Options,
    QueuePlayer,
)
from protocols.sc import messages as m
from server.config import Limits, ServerConfig
from server.matches import SeatRequest
from server.rooms import Room
from server.runtime import GauntletServer
from server.store import Store
from tests.server.sc_client import ScClient

WAIT = 30.0  # upper bound of every wait; nothing asserts on elapsed time
BLOKUS, HEARTH = "swc_2027_blokus", "hearth"
GAME_SEED = 7
AT_ONCE = 6  # dropped matches at a time (the bystanders play beside them)


def config(tmp_path: Path) -> ServerConfig:
    # Short clocks: a hang-up the server missed ends as a timeout (a wrong category), not
    # as a hung test. Empty rooms keep the server's 600 s: a prepared room waits for its
    # players however slow the machine is (`nobody_comes_back` shortens its own room's).
    return ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "data",
                        soft_timeout=5.0, hard_timeout=10.0, decision_timeout=10.0,
                        turn_timeout=30.0, limits=Limits(login_timeout_seconds=5.0))


@contextlib.asynccontextmanager
async def served(tmp_path: Path) -> AsyncIterator[GauntletServer]:
    store = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}")
    try:
        async with GauntletServer(config(tmp_path), store=store) as srv:
            yield srv
    finally:
        store.close()


async def prepared(srv: GauntletServer, game: str, seed: int = GAME_SEED
                   ) -> tuple[Room, list[str]]:
    room, seats = await srv.matches.create_match(
        game, [SeatRequest(name="one"), SeatRequest(name="two")], seed=seed)
    return room, [s["reservation"] for s in seats]


async def until(condition: Callable[[], bool], what: str) -> None:
    """Poll a server-side condition that has no event to await (bounded)."""
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)


def hang_up(writer: asyncio.StreamWriter, rst: bool) -> None:
    """Close without a goodbye: a FIN after what was written, or a reset (SO_LINGER 0)."""
    if rst:
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
    else:
        writer.close()


# ----------------------------------------------------------------------------- lockstep


class Lockstep:
    """The opponent answers only once the dropper has read as far (`level`: a Blokus
    turn, a count of Hearth history entries), and never after the dropper hung up."""

    def __init__(self) -> None:
        self.cond = asyncio.Condition()
        self.level = -1
        self.gone = False

    async def advance(self, level: int) -> None:
        async with self.cond:
            self.level = max(self.level, level)
            self.cond.notify_all()

    async def hang_up(self) -> None:
        async with self.cond:
            self.gone = True
            self.cond.notify_all()

    async def rejoin(self) -> None:
        """A new connection takes the seat (before the start): levels start over."""
        async with self.cond:
            self.gone, self.level = False, -1

    async def wait(self, level: int) -> bool:
        """False: the dropper is gone, do not answer."""
        async with self.cond:
            await self.cond.wait_for(lambda: self.gone or self.level >= level)
            return not self.gone


@dataclass(frozen=True)
class Cut:
    """Where a player hangs up: after its k-th received message (`recv`), right after its
    k-th answer (`sent`) or after `keep` bytes of its k-th answer (`part`)."""

    at: str
    k: int
    keep: int | Callable[[int], int] = 0
    rst: bool = False
    label: str = ""

    def __str__(self) -> str:
        how = " rst" if self.rst else ""
        return f"{self.at} {self.k}{how}" + (f" ({self.label})" if self.label else "")

    def bytes_kept(self, total: int) -> int:
        return self.keep(total) if callable(self.keep) else self.keep


@dataclass
class Played:
    """What one player saw: received message kinds and "sent", and how it ended."""

    transcript: list[str] = field(default_factory=list)
    result: Any = None  # SC Result / Kettle GameFinished
    dropped_at: float | None = None  # monotonic time of the hang-up
    errors: list[Any] = field(default_factory=list)


# ----------------------------------------------------------------------------- SC player


def sc_kind(event: Any) -> str:
    return {m.Joined: "joined", m.Welcome: "welcome", m.Memento: "memento",
            m.MoveRequest: "moveRequest", m.Result: "result", m.Left: "left"
            }.get(type(event), type(event).__name__)


async def sc_player(port: int, code: str | None, seed: int, lock: Lockstep | None = None,
                    cut: Cut | None = None, dropper: bool = False,
                    on_joined: Callable[[str], None] | None = None) -> Played:
    """A seeded random Blokus player (`code` None: `join` any room); the dropper hangs
    up at `cut`; `on_joined(room id)` is called as the room is joined."""
    rng = random.Random(seed)
    played = Played()
    client = await ScClient.connect(port)
    received = sent = 0
    state: Any = None

    async def drop() -> Played:
        hang_up(client.writer, cut is not None and cut.rst)
        played.dropped_at = time.monotonic()
        if lock is not None:
            await lock.hang_up()
        return played

    try:
        async with asyncio.timeout(WAIT):
            await client.send(m.JoinPrepared(code) if code is not None else m.Join())
            while True:
                event = await client.recv()
                if isinstance(event, ConnectionClosed | StreamEnd):
                    break
                played.transcript.append(sc_kind(event))
                received += 1
                if isinstance(event, m.Memento):
                    state = event.state
                elif isinstance(event, m.Joined) and on_joined is not None:
                    on_joined(event.room_id)
                elif isinstance(event, m.Result):
                    played.result = event
                elif isinstance(event, m.ErrorPacket | m.RoomError):
                    played.errors.append(event)
                if cut is not None and cut.at == "recv" and received == cut.k:
                    return await drop()
                if isinstance(event, m.Memento) and dropper and lock is not None:
                    await lock.advance(state.turn)
                if isinstance(event, m.MoveRequest):
                    if not dropper and lock is not None and not await lock.wait(state.turn):
                        continue  # the other one hung up: wait for the room's verdict
                    data = client.conn.send(
                        m.RoomPacket(event.room_id, rng.choice(list(state.legal_moves()))))
                    sent += 1
                    if cut is not None and cut.at == "part" and sent == cut.k:
                        client.writer.write(data[:cut.bytes_kept(len(data))])
                        return await drop()
                    await client.send_raw(data)
                    played.transcript.append("sent")
                    if cut is not None and cut.at == "sent" and sent == cut.k:
                        return await drop()
                elif isinstance(event, m.Left):
                    break
    finally:
        if played.dropped_at is None:
            await client.close()
    return played


# ----------------------------------------------------------------------------- Kettle player


def kettle_kind(event: Any) -> str:
    return {GameJoined: "game_joined", HistoryBlock: "history_block",
            EntityChoices: "entity_choices", Options: "options", Nack: "nack",
            GameFinished: "game_finished"}.get(type(event), type(event).__name__)


CARDTYPE, HERO, CONTROLLER = 202, 3, 50  # hearthstone.enums GameTag.CARDTYPE, CardType.HERO


def heroes(entries: Sequence[dict[str, Any]]) -> dict[int, int]:
    """Hero entity ids by controlling player id, from top-level `full_entity` items."""
    found = {}
    for entry in entries:
        body = entry.get("full_entity")
        if isinstance(body, dict):
            tags = {t["name"]: t["value"] for t in body.get("tags", ())}
            if tags.get(CARDTYPE) == HERO:
                found[tags.get(CONTROLLER, 0)] = body["entityID"]
    return found


def choose(rng: random.Random, options: Options, face: int | None) -> ChooseOption:
    """A random option, rarely END_TURN; the enemy hero (`face`) as target whenever it is
    one (short games), else a random target and sub-option."""
    playable = list(range(1, len(options.options)))
    index = rng.choice(playable) if playable and rng.random() < 0.9 else 0
    option = options.options[index]
    target = sub = None
    targets: Sequence[int] = ()
    if option.main_option is not None:
        targets = option.main_option.targets
    if option.sub_options:
        sub = rng.randrange(len(option.sub_options))
        targets = option.sub_options[sub].targets or targets
    if targets:
        target = face if face in targets else rng.choice(targets)
    return ChooseOption(options.options_id, index, target, sub)


async def kettle_player(port: int, reservation: tuple[str, str] | None, seed: int,
                        lock: Lockstep | None = None, cut: Cut | None = None,
                        dropper: bool = False,
                        on_joined: Callable[[str], None] | None = None) -> Played:
    """A light seeded random Hearth player on the raw codec (no entity tree); the dropper
    hangs up at `cut`. `reservation` None: `queue_player`."""
    rng = random.Random(seed)
    played = Played()
    conn = ClientConnection()
    async with asyncio.timeout(WAIT):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = sent = entries = 0
    found: dict[int, int] = {}  # hero entities by player id
    me = 0

    async def drop() -> Played:
        hang_up(writer, cut is not None and cut.rst)
        played.dropped_at = time.monotonic()
        if lock is not None:
            await lock.hang_up()
        return played

    async def answer(message: Any) -> Played | None:
        nonlocal sent
        data = conn.send(message)
        sent += 1
        if cut is not None and cut.at == "part" and sent == cut.k:
            writer.write(data[:cut.bytes_kept(len(data))])
            return await drop()
        writer.write(data)
        await writer.drain()
        played.transcript.append("sent")
        if cut is not None and cut.at == "sent" and sent == cut.k:
            return await drop()
        return None

    opening = JoinGame(*reservation) if reservation is not None else QueuePlayer("drop")
    try:
        async with asyncio.timeout(WAIT):
            writer.write(conn.send(opening))
            while True:
                event = conn.next_event()
                if event is NEED_DATA:
                    data = await reader.read(65536)
                    conn.receive_data(data)
                    continue
                if isinstance(event, ConnectionClosed):
                    break
                played.transcript.append(kettle_kind(event))
                received += 1
                if isinstance(event, HistoryBlock):
                    entries += len(event.entries)
                    found.update(heroes(event.entries))
                elif isinstance(event, GameJoined):
                    me = event.player_id
                    if on_joined is not None:
                        on_joined(event.game_id)
                elif isinstance(event, GameFinished):
                    played.result = event
                elif isinstance(event, Nack):
                    played.errors.append(event)
                if cut is not None and cut.at == "recv" and received == cut.k:
                    return await drop()
                if isinstance(event, HistoryBlock) and dropper and lock is not None:
                    await lock.advance(entries)
                reply: Any = None
                if isinstance(event, GameJoined):
                    reply = GetGameState()
                elif isinstance(event, EntityChoices | Options):
                    if not dropper and lock is not None and not await lock.wait(entries):
                        continue  # the other one hung up: wait for the room's verdict
                    reply = (ChooseEntities(event.choice_id, ())
                             if isinstance(event, EntityChoices)
                             else choose(rng, event, found.get(3 - me)))
                if reply is not None and (done := await answer(reply)) is not None:
                    return done
                if isinstance(event, GameFinished):
                    break
    finally:
        if played.dropped_at is None:
            writer.close()
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(2.0):
                    await writer.wait_closed()
    return played


# ----------------------------------------------------------------------------- protocols


@dataclass(frozen=True)
class Proto:
    """What the scenarios need to know of a protocol."""

    game: str
    play: Callable[..., Awaitable[Played]]
    reservation: Callable[[Room, str], Any]
    end: str  # the last word about the game: SC result, Kettle game_finished
    decisions: tuple[str, ...]

    def winner(self, result: Any) -> int | None:
        """The winning seat a player was told (None: a draw)."""
        if isinstance(result, m.Result):
            team = result.winner.team if result.winner is not None else None
            return None if team is None else ("ONE", "TWO").index(team)
        return result.winners[0] - 1 if len(result.winners) == 1 else None

    def told_left(self, result: Any, seat: int) -> bool:
        """Whether a player was told that `seat` left (lost connection)."""
        if isinstance(result, m.Result):
            return (result.winner is not None and not result.winner.regular
                    and "LOST_CONNECTION" in result.winner.reason)
        return result.result == f"left: lost_connection (player {seat + 1})"

    def told_regular(self, result: Any) -> bool:
        if isinstance(result, m.Result):
            return result.winner is None or result.winner.regular
        return not result.result.startswith("left")


SC = Proto(BLOKUS, sc_player, lambda room, code: code, "result", ("moveRequest",))
KETTLE = Proto(HEARTH, kettle_player, lambda room, code: (room.id, code), "game_finished",
               ("entity_choices", "options"))


def seed_of(seat: int) -> int:
    """A seat's player seed, the same in the reference game and every dropped match."""
    return 11 + seat


# ----------------------------------------------------------------------------- the store


@dataclass
class Stored:
    status: str
    result: Any
    seats: list[Any]
    kinds: list[str]
    result_event: dict[str, Any] | None


async def stored(srv: GauntletServer, room: Room) -> Stored:
    """The match as stored once its room ended and the writer has everything."""
    assert room.task is not None
    async with asyncio.timeout(WAIT):
        await asyncio.wait([room.task])
    await until(lambda: room.id not in srv.matches.tracked, "the match is untracked")
    assert srv.writer is not None and srv.store is not None
    store = srv.store
    # A match without a result gets its end status once its row is created (a write
    # queued behind the row's): wait for an end status, then for the writer.
    async with asyncio.timeout(WAIT):
        while True:
            await srv.writer.flush()
            match = await asyncio.to_thread(store.get_match, room.id)
            if match is not None and match.status in ("finished", "aborted", "cancelled"):
                break
            await asyncio.sleep(0.01)

    def read() -> Stored:
        match = store.get_match(room.id)
        assert match is not None, room.id
        events = store.events_since(room.id, 0)
        seqs = [e.seq for e in events]
        assert seqs == list(range(len(room.log.entries))), (
            f"stored seqs {seqs[:3]}..{seqs[-3:]} ({len(seqs)}), "
            f"the room logged {len(room.log.entries)}")
        results = [e.payload for e in events if e.kind == "result"]
        assert len(results) <= 1, results
        return Stored(match.status, store.get_result(room.id), store.seats(room.id),
                      [e.kind for e in events], results[0] if results else None)

    return await asyncio.to_thread(read)


def check_finished(found: Stored, *, winner: int | None, left: int | None) -> None:
    """A finished match: `winner` won; `left` (None: nobody) lost by leaving."""
    assert found.status == "finished", found.status
    assert found.result is not None and found.result.winner == winner, found.result
    assert found.kinds.count("result") == 1 and found.kinds[-1] == "closed", found.kinds[-3:]
    assert found.result_event is not None and found.result_event["winner"] == winner
    cause = None if left is None else "LEFT"
    assert found.result.scores["cause"] == cause and found.result_event["cause"] == cause
    for seat in found.seats:
        if seat.index == left:
            assert (seat.outcome, seat.failure) == ("loss", "disconnect"), (seat.outcome,
                                                                           seat.failure,
                                                                           seat.detail)
            assert "LOST_CONNECTION" in seat.detail, seat.detail
        else:
            assert seat.failure is None, (seat.index, seat.failure, seat.detail)


# ----------------------------------------------------------------------------- bystanders


class Bystanders:
    """Regular matches back to back in `lanes` lanes while a sweep runs."""

    def __init__(self, srv: GauntletServer, proto: Proto, lanes: int = 2) -> None:
        self.srv, self.proto, self.lanes = srv, proto, lanes
        self.done: list[tuple[Room, float, float, list[Played]]] = []
        self.stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def play(self) -> tuple[Room, float, float, list[Played]]:
        started = time.monotonic()
        room, codes = await prepared(self.srv, self.proto.game, seed=len(self.done))
        played = await asyncio.gather(*(
            self.proto.play(self.srv.tcp_port, self.proto.reservation(room, code), 100 + i)
            for i, code in enumerate(codes)))
        return room, started, time.monotonic(), list(played)

    async def _lane(self) -> None:
        while not self.stop.is_set():
            self.done.append(await self.play())

    def __enter__(self) -> Bystanders:
        self._tasks = [asyncio.create_task(self._lane()) for _ in range(self.lanes)]
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()

    async def finish(self) -> None:
        """Let the lanes end their matches; each one finished regularly and is stored so."""
        self.stop.set()
        async with asyncio.timeout(WAIT):
            await asyncio.gather(*self._tasks)
        for room, _start, _end, played in self.done:
            found = await stored(self.srv, room)
            winner = self.proto.winner(played[0].result)
            assert all(self.proto.told_regular(p.result) for p in played)
            check_finished(found, winner=winner, left=None)

    def live_at(self, moment: float) -> bool:
        return any(start <= moment <= end for _room, start, end, _p in self.done)


# ----------------------------------------------------------------------------- in-game cuts


def position(ref: Sequence[str], cut: Cut) -> int:
    """Index in the reference transcript of the last thing the dropper completed."""
    if cut.at == "recv":
        return [i for i, kind in enumerate(ref) if kind != "sent"][cut.k - 1]
    sent = [i for i, kind in enumerate(ref) if kind == "sent"][cut.k - 1]
    return sent if cut.at == "sent" else sent - 1


def ends_regularly(ref: Sequence[str], proto: Proto, cut: Cut) -> bool:
    """With the opponent in lockstep: regular once the dropper has the final state (it
    comes just before the end), or when the answer it just sent ended the game."""
    final = ref.index(proto.end) - 1
    pos = position(ref, cut)
    return pos >= final or (cut.at == "sent" and pos == final - 1)


def sweep_cuts(ref: Sequence[str], proto: Proto, *, stride: int, head: int, tail: int,
               parts: Sequence[tuple[str, int | Callable[[int], int]]]) -> list[Cut]:
    """Every k near the start and the end of the game, every `stride`-th in between;
    answers cut short after each of `parts` bytes at a few answers; two resets."""
    def pick(n: int) -> list[int]:
        return [k for k in range(1, n + 1)
                if k <= head or k > n - tail or k % stride == 0]

    received = sum(1 for kind in ref if kind != "sent")
    answers = ref.count("sent")
    cuts = [Cut("recv", k) for k in pick(received)]
    cuts += [Cut("sent", k) for k in pick(answers)]
    for k in sorted({2, 3, answers // 2, answers}):
        cuts += [Cut("part", k, keep, label=label) for label, keep in parts]
    first_decision = 1 + [kind for kind in ref if kind != "sent"].index(proto.decisions[0])
    cuts += [Cut("recv", first_decision, rst=True), Cut("sent", answers // 2, rst=True)]
    return cuts


async def reference(srv: GauntletServer, proto: Proto, seat: int) -> tuple[list[str], int | None]:
    """The undisturbed game: the transcript of `seat` and the winner."""
    played = await dropped_match(srv, proto, seat, None)
    return played.transcript, proto.winner(played.result)


async def dropped_match(srv: GauntletServer, proto: Proto, seat: int, cut: Cut | None,
                        ref: Sequence[str] = (), ref_winner: int | None = None) -> Played:
    """One match in which `seat` hangs up at `cut` (None: plays to the end), checked."""
    port, other = srv.tcp_port, 1 - seat
    room, codes = await prepared(srv, proto.game)
    lock = Lockstep()
    opponent_joined = asyncio.Event()
    # The opponent first, so that the dropper's join starts the room.
    opponent = asyncio.create_task(proto.play(
        port, proto.reservation(room, codes[other]), seed_of(other), lock,
        on_joined=lambda _room_id: opponent_joined.set()))
    joined = asyncio.create_task(opponent_joined.wait())
    await asyncio.wait([opponent, joined], timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
    joined.cancel()
    if opponent.done():
        raise AssertionError(f"the opponent ended before it joined: {opponent.result()}")
    assert opponent_joined.is_set(), "the opponent was not seated"
    dropper = await proto.play(port, proto.reservation(room, codes[seat]), seed_of(seat),
                               lock, cut, dropper=True)
    if cut is None:
        async with asyncio.timeout(WAIT):
            told = await opponent
        check_finished(await stored(srv, room), winner=proto.winner(told.result), left=None)
        return dropper
    assert not dropper.errors, dropper.errors
    assert dropper.transcript == list(ref[:len(dropper.transcript)]), (
        "the game went another way than the reference", dropper.transcript[-5:])
    await until(lambda: room.closed or (not room.started and room.slots[seat].player is None),
                "the match ends or frees the seat")
    regular = ends_regularly(ref, proto, cut)
    if not room.closed:
        # The hang-up came before the start: the seat is free, the reservation works
        # again, and the match plays to the end with the player back.
        await lock.rejoin()
        again = await proto.play(port, proto.reservation(room, codes[seat]), seed_of(seat),
                                 lock, dropper=True)
        assert again.transcript[-1] == proto.end or again.transcript[-2] == proto.end
        regular = True
    async with asyncio.timeout(WAIT):
        told = await opponent
    assert not told.errors, told.errors
    found = await stored(srv, room)
    if regular:
        assert proto.told_regular(told.result), told.result
        check_finished(found, winner=ref_winner, left=None)
    else:
        assert proto.winner(told.result) == other and proto.told_left(told.result, seat), (
            told.result)
        check_finished(found, winner=other, left=seat)
    if dropper.result is not None:  # it hung up after the end: it was told the same
        assert proto.winner(dropper.result) == proto.winner(told.result)
    return dropper


def where(exc: BaseException) -> str:
    """The lines of this file an exception went through (innermost last)."""
    frames = traceback.extract_tb(exc.__traceback__)
    return " < ".join(f"{f.name}:{f.lineno}" for f in reversed(frames)
                      if f.filename == __file__)


async def run_all(jobs: Sequence[tuple[str, Awaitable[Any]]], at_once: int = AT_ONCE
                  ) -> list[Any]:
    """Run the jobs `at_once` at a time; fail naming every job that failed."""
    gate = asyncio.Semaphore(at_once)

    async def one(job: Awaitable[Any]) -> Any:
        async with gate:
            return await job

    outcomes = await asyncio.gather(*(one(job) for _name, job in jobs),
                                    return_exceptions=True)
    failed = [f"{name}: {type(o).__name__}: {str(o).splitlines()[0] if str(o) else ''} "
              f"(at {where(o)})"
              for (name, _job), o in zip(jobs, outcomes, strict=True)
              if isinstance(o, BaseException)]
    assert not failed, f"{len(failed)} of {len(jobs)} points failed:\n" + "\n".join(failed)
    return outcomes


async def fresh_match_and_nothing_left(srv: GauntletServer, proto: Proto) -> None:
    """The server still plays a whole match; no room, match or session is left over."""
    async with asyncio.timeout(WAIT):
        room, codes = await prepared(srv, proto.game, seed=99)
        played = await asyncio.gather(*(
            proto.play(srv.tcp_port, proto.reservation(room, code), i)
            for i, code in enumerate(codes)))
    check_finished(await stored(srv, room), winner=proto.winner(played[0].result), left=None)
    listener = srv._listener
    assert listener is not None
    await until(lambda: not srv.rooms and not srv.matches.tracked and not listener.sessions,
                "nothing left over")


async def sweep(srv: GauntletServer, proto: Proto, **picking: Any) -> int:
    """Every in-game cut of both seats, bystanders playing meanwhile; the count of cuts."""
    jobs: list[tuple[str, Awaitable[Any]]] = []
    for seat in (0, 1):
        ref, winner = await reference(srv, proto, seat)
        for cut in sweep_cuts(ref, proto, **picking):
            jobs.append((f"seat {seat} {cut}", dropped_match(srv, proto, seat, cut, ref, winner)))
    with Bystanders(srv, proto) as bystanders:
        dropped = await run_all(jobs)
        await bystanders.finish()
    assert len(bystanders.done) >= 2
    for (name, _job), played in zip(jobs, dropped, strict=True):
        assert played.dropped_at is not None and bystanders.live_at(played.dropped_at), name
    await fresh_match_and_nothing_left(srv, proto)
    return len(jobs)


# ----------------------------------------------------------------------------- before the start


async def raw_hang_up(port: int, data: bytes, rst: bool = False) -> None:
    """Connect, write `data` (maybe nothing), hang up."""
    async with asyncio.timeout(WAIT):
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(data)
        await writer.drain()
    hang_up(writer, rst)


async def never_seated(srv: GauntletServer, proto: Proto,
                       openings: Callable[[Room, str], Sequence[tuple[str, bytes]]]) -> None:
    """Connections that hang up before they join leave the seats alone: the server ends
    each of them, and the reservations they were about to use still seat the players."""
    room, codes = await prepared(srv, proto.game)
    cuts = openings(room, codes[0])
    await run_all([(name, raw_hang_up(srv.tcp_port, data, rst))
                   for name, data in cuts for rst in (False, True)])
    listener = srv._listener
    assert listener is not None
    await until(lambda: not listener._handlers, "every connection ended")
    assert all(slot.player is None for slot in room.slots) and not room.started
    played = await asyncio.gather(*(
        proto.play(srv.tcp_port, proto.reservation(room, code), seed_of(i))
        for i, code in enumerate(codes)))
    assert all(not p.errors for p in played), [p.errors for p in played]
    check_finished(await stored(srv, room), winner=proto.winner(played[0].result), left=None)


async def back_before_the_start(srv: GauntletServer, proto: Proto, cut: Cut) -> None:
    """Alone in a prepared room, the player hangs up: the seat is free again, and with the
    same reservation it comes back; the match plays to the end, nobody failed."""
    room, codes = await prepared(srv, proto.game)
    lock = Lockstep()
    gone = await proto.play(srv.tcp_port, proto.reservation(room, codes[0]), seed_of(0),
                            lock, cut, dropper=True)
    assert gone.dropped_at is not None and not gone.errors, gone
    await until(lambda: room.slots[0].player is None, "the seat is free")
    assert not room.started and not room.closed
    await lock.rejoin()
    async with asyncio.timeout(WAIT):
        back, other = await asyncio.gather(
            proto.play(srv.tcp_port, proto.reservation(room, codes[0]), seed_of(0), lock,
                       dropper=True),
            proto.play(srv.tcp_port, proto.reservation(room, codes[1]), seed_of(1), lock))
    assert not back.errors and not other.errors, (back.errors, other.errors)
    assert proto.told_regular(other.result) and proto.told_regular(back.result)
    check_finished(await stored(srv, room), winner=proto.winner(other.result), left=None)


async def nobody_comes_back(srv: GauntletServer, proto: Proto, reserved: bool) -> None:
    """The only player hangs up: a plain room is abandoned at once, a prepared one after
    the empty-room time; the match is stored `aborted`, without a result."""
    seen: list[Room] = []
    reservation = None
    if reserved:
        room, codes = await prepared(srv, proto.game)
        reservation = proto.reservation(room, codes[0])

    def joined(room_id: str) -> None:
        seen.append(srv.rooms[room_id])
        if reserved:  # the room is empty again once its player left: closed after 0.5 s
            seen[0].empty_timeout = 0.5

    gone = await proto.play(srv.tcp_port, reservation, seed_of(0), cut=Cut("recv", 1),
                            on_joined=joined)
    assert gone.dropped_at is not None and len(seen) == 1
    found = await stored(srv, seen[0])
    assert (found.status, found.result, found.kinds) == ("aborted", None, [])


def sc_openings(room: Room, code: str) -> list[tuple[str, bytes]]:
    join = b'<protocol>\n  <joinPrepared reservationCode="' + code.encode() + b'"/>'
    return [("connected, no byte", b""), ("half the opening", b"<proto"),
            ("the opening", b"<protocol>"), ("half a joinPrepared", join[:len(join) // 2]),
            ("all but the last byte of a joinPrepared", join[:-1])]


def kettle_openings(room: Room, code: str) -> list[tuple[str, bytes]]:
    join = ClientConnection().send(JoinGame(room.id, code))
    return [("connected, no byte", b""), ("half a length", join[:2]),
            ("a length only", join[:4]), ("half a join_game", join[:len(join) // 2]),
            ("all but the last byte of a join_game", join[:-1])]


async def test_sc_before_the_game(tmp_path: Path) -> None:
    async with served(tmp_path) as srv:
        await run_all([
            ("never seated", never_seated(srv, SC, sc_openings)),
            ("joined, then hung up", back_before_the_start(srv, SC, Cut("recv", 1))),
            ("joined, then reset", back_before_the_start(srv, SC, Cut("recv", 1, rst=True))),
            ("join, nobody comes back", nobody_comes_back(srv, SC, reserved=False)),
            ("joinPrepared, nobody comes back", nobody_comes_back(srv, SC, reserved=True)),
        ])
        await fresh_match_and_nothing_left(srv, SC)


async def test_kettle_before_the_game(tmp_path: Path) -> None:
    async with served(tmp_path) as srv:
        await run_all([
            ("never seated", never_seated(srv, KETTLE, kettle_openings)),
            ("game_joined, then hung up", back_before_the_start(srv, KETTLE, Cut("recv", 1))),
            ("game_joined, then reset",
             back_before_the_start(srv, KETTLE, Cut("recv", 1, rst=True))),
            ("get_game_state sent", back_before_the_start(srv, KETTLE, Cut("sent", 1))),
            ("get_game_state half sent",
             back_before_the_start(srv, KETTLE, Cut("part", 1, lambda n: n // 2))),
            ("the snapshot received", back_before_the_start(srv, KETTLE, Cut("recv", 2))),
            ("queue_player, nobody comes back", nobody_comes_back(srv, KETTLE, reserved=False)),
            ("join_game, nobody comes back", nobody_comes_back(srv, KETTLE, reserved=True)),
        ])
        await fresh_match_and_nothing_left(srv, KETTLE)


# ----------------------------------------------------------------------------- in the game


async def test_sc_every_point_of_a_game(tmp_path: Path) -> None:
    async with served(tmp_path) as srv:
        count = await sweep(srv, SC, stride=3, head=12, tail=8,
                            parts=(("1 byte", 1), ("half", lambda n: n // 2),
                                   ("all but 1 byte", lambda n: n - 1)))
    assert count > 100


async def test_kettle_every_point_of_a_game(tmp_path: Path) -> None:
    async with served(tmp_path) as srv:
        count = await sweep(srv, KETTLE, stride=12, head=10, tail=5,
                            parts=(("half the length", 2), ("the length", 4),
                                   ("half", lambda n: n // 2),
                                   ("all but 1 byte", lambda n: n - 1)))
    assert count > 100
