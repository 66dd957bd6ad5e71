"""A Kettle server made by hand for the kit's tests: a real engine game, no socket.

``HandServer`` plays the server's part for both seats the way the server's Kettle session
is meant to (``bots.hearth.options`` for the options): ``game_joined``, the full history
on ``get_game_state``, ``entity_choices`` for the mulligan, then after every action each
seat's new history and the current player's ``options``, and ``game_finished``.

``deliver(seat, data)`` hands a seat's bytes to the server side; ``pump()`` runs the whole
exchange with two ``BotSession``s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from hearthstone.enums import GameTag, Zone

from bots.hearth import BotSession
from bots.hearth.options import action_for, options_for
from games import hearth
from games.hearth import Action, Kind, State
from protocols.kettle import (
    CHOICE_MULLIGAN,
    NEED_DATA,
    ChooseEntities,
    ChooseOption,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    JoinGame,
    Option,
    Options,
    QueuePlayer,
    ServerConnection,
    ServerMessage,
)

ZONE = int(GameTag.ZONE)
CONTROLLER = int(GameTag.CONTROLLER)
PUBLIC_OF_HIDDEN = {ZONE, int(GameTag.ZONE_POSITION), CONTROLLER, int(GameTag.ENTITY_ID)}
HIDDEN_ZONES = (int(Zone.HAND), int(Zone.DECK))


def engine_view(state: State, player: int) -> dict[int, tuple[str, dict[int, int]]]:
    """What the engine shows ``player``: hidden cards as ("", public tags); no zero tags."""
    out = {}
    for i, (card_id, tags) in state.entities().items():
        if i > 3 and tags.get(ZONE) in HIDDEN_ZONES and tags.get(CONTROLLER) != player:
            out[i] = ("", {t: v for t, v in tags.items() if t in PUBLIC_OF_HIDDEN and v})
        else:
            out[i] = (card_id, {t: v for t, v in tags.items() if v})
    return out


class HandServer:
    def __init__(self, seed: int, **game_options: Any) -> None:
        self.game = hearth.new_game(seed=seed, history=True, **game_options)
        self.conns = {1: ServerConnection(), 2: ServerConnection()}
        self.sent = {1: 0, 2: 0}  # history entries already sent to each seat
        self.joined: set[int] = set()
        self.choice_ids = {1: 0, 2: 0}
        self.pending_choice: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.options_id = 0
        self.pending_options: tuple[int, Sequence[Option], list[Action]] | None = None
        self.applied: list[Action] = []
        self.chosen: list[tuple[ChooseOption, Action]] = []  # each answer and what it named
        self.answers: dict[int, list[object]] = {1: [], 2: []}
        self.outbox: dict[int, bytes] = {1: b"", 2: b""}  # bytes for each seat, not yet sent
        self.sessions: dict[int, BotSession] = {}  # for tests that look into the bots' side

    # -- server side -------------------------------------------------------------------

    def send(self, seat: int, *messages: ServerMessage) -> bytes:
        return b"".join(self.conns[seat].send(m) for m in messages)

    def history(self, seat: int) -> HistoryBlock | None:
        entries = self.game.history(viewer=seat, since=self.sent[seat])
        self.sent[seat] += len(entries)
        return HistoryBlock(entries) if entries else None

    def deliver(self, seat: int, data: bytes) -> None:
        conn = self.conns[seat]
        conn.receive_data(data)
        while (event := conn.next_event()) is not NEED_DATA:
            self.answers[seat].append(event)
            self._handle(seat, event)

    def _handle(self, seat: int, event: object) -> None:
        g = self.game
        match event:
            case QueuePlayer() | JoinGame():
                self.outbox[seat] += self.send(seat, GameJoined("g1", seat))
            case GetGameState():
                self.sent[seat] = 0
                block = self.history(seat)
                assert block is not None
                self.outbox[seat] += self.send(seat, block)
                self.joined.add(seat)
                if self.joined == {1, 2}:
                    self._decisions()
            case ChooseEntities(choice_id=choice_id, entities=entities):
                expected_id, offered = self.pending_choice.pop(seat)
                assert choice_id == expected_id and set(entities) <= set(offered)
                self._apply(Action(Kind.MULLIGAN, seat, cards=tuple(sorted(entities))), seat)
            case ChooseOption():
                assert self.pending_options is not None and seat == g.current
                options_id, options, legal = self.pending_options
                assert event.options_id == options_id
                action = action_for(legal, options, event.option_index, event.target,
                                    event.position, event.sub_option_index)
                assert action is not None, f"illegal choose_option {event}"
                self.pending_options = None
                self.chosen.append((event, action))
                self._apply(action, seat)
            case _:
                raise AssertionError(f"unexpected message from seat {seat}: {event!r}")

    def _apply(self, action: Action, seat: int) -> None:
        self.game.apply(action, seat)
        self.applied.append(action)
        self._decisions()

    def _decisions(self) -> None:
        g = self.game
        for seat in (1, 2):
            block = self.history(seat)
            if block is not None:
                self.outbox[seat] += self.send(seat, block)
        if g.is_over:
            result = g.result()
            assert result is not None
            winners = (result.winner,) if result.winner else ()
            losers = (3 - result.winner,) if result.winner else (1, 2)
            for seat in (1, 2):
                self.outbox[seat] += self.send(seat, GameFinished("g1", winners, losers,
                                                                 result.reason))
            return
        legal = g.legal_actions()
        if legal[0].kind == Kind.MULLIGAN:
            for seat in g.pending():
                if seat in self.pending_choice:
                    continue
                offered = tuple(sorted({c for a in legal if a.entity == seat for c in a.cards}))
                self.choice_ids[seat] += 1
                self.pending_choice[seat] = (self.choice_ids[seat], offered)
                self.outbox[seat] += self.send(seat, EntityChoices(
                    self.choice_ids[seat], CHOICE_MULLIGAN, seat, 1 + seat, 0, len(offered),
                    offered))
            return
        self.options_id += 1
        options = options_for(legal)
        self.pending_options = (self.options_id, options, legal)
        self.outbox[g.current] += self.send(g.current, Options(self.options_id, options))

    # -- the exchange ------------------------------------------------------------------

    def pump(self, sessions: dict[int, BotSession], *, chunk: int | None = None,
             max_rounds: int = 100_000) -> None:
        """Run both sessions against this server until both are finished.

        ``chunk``: hand the server's bytes to the sessions this many at a time.
        """
        for seat in (1, 2):
            self.deliver(seat, sessions[seat].start())
        for _ in range(max_rounds):
            if all(s.finished for s in sessions.values()):
                return
            moved = False
            for seat in (1, 2):
                data, self.outbox[seat] = self.outbox[seat], b""
                if not data:
                    continue
                moved = True
                step = chunk or len(data)
                for k in range(0, len(data), step):
                    reply = sessions[seat].receive_data(data[k:k + step])
                    if reply:
                        self.deliver(seat, reply)
            assert moved, "deadlock: nobody has anything to say"
        raise AssertionError("the game did not end")


async def serve_over_tcp(server: HandServer) -> tuple[asyncio.Server, int]:
    """``server`` on a loopback port: the first connection is seat 1, the second seat 2;
    both are closed after ``game_finished``."""
    writers: dict[int, asyncio.StreamWriter] = {}

    def flush() -> None:
        for seat, writer in writers.items():
            if server.outbox[seat]:
                writer.write(server.outbox[seat])
                server.outbox[seat] = b""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seat = len(writers) + 1
        writers[seat] = writer
        try:
            while data := await reader.read(65536):
                server.deliver(seat, data)
                flush()
                if server.game.is_over:
                    break
        finally:
            writer.close()

    listener = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    return listener, port
