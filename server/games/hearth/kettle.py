"""One Kettle client (a Hearth bot): the Kettle codec and translation on the shared `Session`.

The session translates and never decides game questions (docs/kettle-protocol.md is the
protocol as a bot sees it):

- lobby: `queue_player` joins any open Hearth match (`Lobby.join`, with the client's deck
  or the default one), `join_game` takes a reserved seat (`Lobby.join_prepared`: gameID
  is the room id, password the reservation code); both are answered by `game_joined`;
- `get_game_state` is answered with one `history_block` holding everything the player may
  see so far (the game's `view(seat)`); from then on the room's news for this seat go out
  as `history_block`s, each decision as `entity_choices` (the mulligan, MULLIGAN; a
  mid-turn choice such as Tracking's, GENERAL) or `options`;
  until then news are not sent (the snapshot will hold them) and a decision waits;
- the seat counts as present for the room's start only from its first `get_game_state`
  (or `login_timeout` seconds after `game_joined` without one): so every seat's first
  snapshot is the game before its start, and where the history is cut into blocks never
  depends on how fast the two bots started. A stored match played again (`server.ask`)
  sends a seat the same bytes as the original;
- `choose_entities` / `choose_option` are checked against the open decision (id, owner),
  mapped onto an engine action (`protocols.kettle.hearth`) and submitted; anything refused
  gets a `nack` and the decision stays open (the room's `OnRefusal.NACK`, clock running);
- `concede` ends the match at once; the end is the final `history_block`, then
  `game_finished`, then the server closes the connection.

Frames the codec refuses get their `nack`; the closing ones (too large, not JSON) end the
connection, which loses a running match (LEFT, PROTOCOL_ERROR). End of file inside a
frame (`truncated`) is a hang-up: LEFT, LOST_CONNECTION, as for SC.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from games.hearth import DEFAULT_DECKS, GAME_TYPE, Action, decks
from protocols.base import NEED_DATA, ConnectionClosed, Limits, LocalProtocolError, ProtocolError
from protocols.kettle import (
    CHOICE_GENERAL,
    CHOICE_MULLIGAN,
    ChooseEntities,
    ChooseOption,
    ClientMessage,
    Concede,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    JoinGame,
    Nack,
    Option,
    Options,
    QueuePlayer,
    Refused,
    ServerConnection,
    ServerMessage,
)
from protocols.kettle.hearth import action_for, choose_action, mulligan_action, options_for
from protocols.kettle.messages import PREFIX
from protocols.kettle.reasons import (
    ILLEGAL,
    INVALID_DECK,
    NO_SUCH_GAME,
    RATE_LIMITED,
    SHUTDOWN,
    STALE_ID,
    STORE_FAILED,
    TOO_MANY_ROOMS,
    TRUNCATED,
    UNEXPECTED_MESSAGE,
)
from server.games.hearth.room import CHOOSE, MULLIGAN
from server.net.session import Outgoing, Session
from server.rooms import (
    DecisionRequested,
    Entry,
    GameOver,
    LeftCause,
    Lobby,
    LobbyError,
    LobbyErrorKind,
    MatchResult,
    MoveRejected,
    Room,
    RoomClosed,
    Seating,
    StateChanged,
)

log = logging.getLogger(__name__)

OFF_LOOP_BYTES = 16 << 10
"""Frames at least this large are parsed in a worker thread (depth check and json.loads,
milliseconds for the largest 64 KiB frame); a bot's messages are far smaller."""
YIELD_EVERY = 32
"""Events of one read handled before the session lets the loop run others (a batch of
thousands of objects in one frame, or thousands of tiny frames in one read)."""


@dataclass(slots=True)
class _Ask:
    """The decision open for this client: its id on the wire and what answers it."""

    ident: int
    mulligan: bool  # an entity_choices (the mulligan, or a mid-turn choice: `general`)
    actions: tuple[Action, ...]
    cards: tuple[int, ...]
    options: tuple[Option, ...]
    message: EntityChoices | Options
    answered: bool = False  # submitted, the room has not decided yet
    general: bool = False  # a GENERAL entity_choices (Kind.CHOOSE), not the mulligan


class KettleSession(Session[ServerMessage]):
    """Speaks for one Kettle client: one seat in one Hearth room."""

    protocol = "kettle"

    def __init__(
        self,
        reader: Any,
        writer: Any,
        lobby: Lobby,
        *,
        observer_queue: int = 512,
        write_timeout: float = 30.0,
        message_rate: tuple[float, int] = (1000.0, 2000),
        limits: Limits | None = None,
        login_timeout: float | None = None,
    ) -> None:
        super().__init__(reader, writer, lobby, observer_queue=observer_queue,
                         write_timeout=write_timeout, message_rate=message_rate,
                         login_timeout=login_timeout)
        self.conn = ServerConnection(limits)
        self.room: Room | None = None
        self.seat: int | None = None
        self._has_state = False  # get_game_state answered: news and decisions flow
        self._unready: Seating | None = None  # joined, not yet counted present (no state)
        self._ready_timer: asyncio.TimerHandle | None = None
        self._news_seen = 0  # history entries of this seat's news so far
        self._sent = 0  # history entries the client has (snapshot and news)
        self._ask: _Ask | None = None
        self._submitted = ""  # the type of the answer the room is deciding on

    # ------------------------------------------------------------------ reading
    async def _feed(self, data: bytes, arrived: float) -> bool:
        try:
            self.conn.receive_data(data)
            handled = 0
            while not self._closed:
                handled += 1
                if handled % YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # one read never holds the loop for long
                    if self._closed:
                        break
                if self.conn.next_frame_bytes() >= OFF_LOOP_BYTES:
                    # Parsing a large frame costs milliseconds: not on the loop thread.
                    # Nothing else touches the codec's input side while we wait.
                    event = await asyncio.to_thread(self.conn.next_event)
                else:
                    event = self.conn.next_event()
                if event is NEED_DATA:
                    return bool(data)
                if isinstance(event, ConnectionClosed):
                    self.left_cause = LeftCause.LOST_CONNECTION
                    return False
                if isinstance(event, Refused) and event.close:
                    await self._write(event.nack)
                    log.info("%s: %s; closing", self.peer, event.nack.message)
                    # End of file inside a frame is a hang-up mid-message, as the SC
                    # session counts it (ConnectionClosed(truncated=True)), not garbage.
                    self.left_cause = (LeftCause.LOST_CONNECTION
                                       if event.nack.reason == TRUNCATED
                                       else LeftCause.PROTOCOL_ERROR)
                    return False
                # Refused objects count against the rate like messages: a batch of
                # thousands of unknown objects is a flood too.
                if self._over_rate(arrived):
                    await self._write(Nack("", RATE_LIMITED,
                                           f"more than {self._rate.per_second:g} messages/s"))
                    self.left_cause = LeftCause.PROTOCOL_ERROR
                    return False
                if isinstance(event, Refused):
                    # Corked: the nacks of one batch go out in a few writes, not one each.
                    self._cork_bytes([self._encode(event.nack, None)])
                    continue
                await self._dispatch(event, arrived)
        except LocalProtocolError as exc:  # a nack we could not encode (our bug)
            log.warning("%s: cannot encode a nack (%s); closing", self.peer, exc)
            self.left_cause = LeftCause.PROTOCOL_ERROR
            return False
        except ProtocolError as exc:
            log.info("%s: protocol error, closing: %s", self.peer, exc.reason)
            self.left_cause = LeftCause.PROTOCOL_ERROR
            return False
        return not self._closed

    async def _dispatch(self, message: ClientMessage, arrived: float) -> None:
        kind = PREFIX + message.NAME
        try:
            match message:
                case QueuePlayer():
                    await self._queue(message, kind)
                case JoinGame(game_id=game_id, password=password):
                    await self._join(game_id, password, kind)
                case GetGameState():
                    await self._game_state(kind)
                case ChooseEntities() | ChooseOption():
                    await self._choose(message, kind, arrived)
                case Concede():
                    self._in_room(kind).concede(self)
                case _:
                    await self._nack(kind, UNEXPECTED_MESSAGE, f"{message.NAME} is sent by servers")
        except _Refusal as refusal:
            await self._nack(kind, refusal.reason, refusal.text)
        except LobbyError as exc:
            if exc.kind is LobbyErrorKind.STORE_FAILED:
                reason = STORE_FAILED
            elif exc.kind is LobbyErrorKind.QUOTA:
                reason = TOO_MANY_ROOMS
            else:
                reason = NO_SUCH_GAME if isinstance(message, JoinGame) else UNEXPECTED_MESSAGE
            await self._nack(kind, reason, _lobby_text(exc))

    async def _nack(self, kind: str, reason: str, text: str) -> None:
        await self._write(Nack(kind, reason, text))

    def _in_room(self, kind: str) -> Room:
        if self.room is None:
            raise _Refusal(UNEXPECTED_MESSAGE, f"{kind} before queue_player or join_game")
        return self.room

    # ------------------------------------------------------------------ lobby
    async def _queue(self, message: QueuePlayer, kind: str) -> None:
        if self.room is not None:
            raise _Refusal(UNEXPECTED_MESSAGE, "already in a game")
        deck: tuple[str, tuple[str, ...]] | None = None
        if message.cards is not None or message.hero_id is not None:
            deck = _deck(message.hero_id, message.cards)
        if await self._no_slot(trusted=False):
            return
        seating = self.lobby.join(self, GAME_TYPE, self.protocol, opener=self.address)
        if deck is not None:
            use_deck = getattr(seating.room.game, "use_deck", None)
            if use_deck is not None:
                use_deck(seating.seat, *deck)
        await self._seated(seating)

    async def _join(self, game_id: str, password: str, kind: str) -> None:
        if self.room is not None:
            raise _Refusal(UNEXPECTED_MESSAGE, "already in a game")
        room = self.lobby.rooms.get(game_id)
        if room is None or not any(
                s.reservation is not None
                and hmac.compare_digest(s.reservation.encode(), password.encode())
                for s in room.slots):
            raise _Refusal(NO_SUCH_GAME, "no game with that gameID and password")
        if await self._no_slot(trusted=True):
            return
        await self._seated(self.lobby.join_prepared(self, password, self.protocol))

    async def _seated(self, seating: Seating) -> None:
        self._settle()
        room = seating.room
        self.room, self.seat = room, seating.seat
        self.player_rooms[room.id] = room
        await self._write(GameJoined(room.id, seating.seat + 1))
        self._unready = seating
        if self._login_timeout is not None:
            # A client that never asks for the state still gets its match (and loses it
            # on the clock, as a bot that does not answer).
            self._ready_timer = asyncio.get_running_loop().call_later(
                self._login_timeout, self._ready)

    async def _shutdown(self) -> None:
        if self._ready_timer is not None:
            self._ready_timer.cancel()
        await super()._shutdown()

    def _ready(self) -> None:
        """The seat is present: the room may start once every seat is."""
        seating, self._unready = self._unready, None
        if self._ready_timer is not None:
            self._ready_timer.cancel()
            self._ready_timer = None
        if seating is not None and not self._closed:
            self.lobby.seated(seating)

    async def _game_state(self, kind: str) -> None:
        room = self._in_room(kind)
        history = room.game.view(self.seat).history
        await self._write(HistoryBlock(list(history)))
        self._sent = max(self._sent, len(history))
        if not self._has_state:
            self._has_state = True
            if self._ask is not None and not self._ask.answered:
                await self._write(self._ask.message)
        self._ready()

    # ------------------------------------------------------------------ answers
    async def _choose(self, message: ChooseEntities | ChooseOption, kind: str,
                      arrived: float) -> None:
        room = self._in_room(kind)
        ask = self._ask
        mulligan = isinstance(message, ChooseEntities)
        what = "entity_choices" if mulligan else "options"
        if ask is None or ask.mulligan != mulligan or not self._has_state:
            raise _Refusal(UNEXPECTED_MESSAGE, f"no {what} are open for you")
        ident = message.choice_id if isinstance(message, ChooseEntities) else message.options_id
        if ident != ask.ident:
            field = "choiceID" if mulligan else "optionsID"
            raise _Refusal(STALE_ID, f"{field} {ident} is not the open one ({ask.ident})")
        if ask.answered:
            raise _Refusal(UNEXPECTED_MESSAGE, f"{what} {ident} was answered already")
        assert self.seat is not None
        if isinstance(message, ChooseEntities) and ask.general:
            action = choose_action(self.seat + 1, ask.cards, message.entities)
            if action is None:
                raise _Refusal(ILLEGAL, f"entities {list(message.entities)}: choose exactly one "
                                        f"of the offered {list(ask.cards)}")
        elif isinstance(message, ChooseEntities):
            action = mulligan_action(self.seat + 1, ask.cards, message.entities)
            if action is None:
                raise _Refusal(ILLEGAL, f"entities {list(message.entities)} are not among the "
                                        f"offered {list(ask.cards)} (each at most once)")
        else:
            action = action_for(ask.actions, ask.options, message.option_index,
                                message.target, message.position, message.sub_option_index)
            if action is None:
                raise _Refusal(ILLEGAL, _illegal_option(ask.options, message))
        ask.answered = True
        self._submitted = kind
        room.submit(self, action, arrived)

    # ------------------------------------------------------------------ translation
    def _room_messages(self, room: Room, entry: Entry, seat: int | None
                       ) -> Iterable[Outgoing[ServerMessage]]:
        if seat is None:
            return  # Kettle has no observers (yet): spectators watch over the web
        event = entry.event
        if isinstance(event, StateChanged):
            entries = event.views.of(seat)
            start = self._news_seen
            self._news_seen += len(entries)
            if self._has_state and self._news_seen > self._sent:
                fresh = entries[max(0, self._sent - start):]
                self._sent = self._news_seen
                yield HistoryBlock(list(fresh)), None
        elif isinstance(event, DecisionRequested):
            self._ask = _ask(entry.seq + 1, seat, event.decision.payload)
            if self._has_state:
                yield self._ask.message, None
        elif isinstance(event, MoveRejected):
            if self._ask is not None:
                self._ask.answered = False
            reason = ILLEGAL if event.rule else UNEXPECTED_MESSAGE
            text = event.mistake_text or f"not asked ({event.process})"
            yield Nack(self._submitted, reason, text), None
        elif isinstance(event, GameOver):
            self._ask = None
            yield _finished(room, event.result), None

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        written = await super().send_room_event(room, seat, entry)
        if isinstance(entry.event, RoomClosed):
            # game_finished was the last word: the server closes (our reader then ends).
            self.room = None
            self._closed = True
            asyncio.get_running_loop().call_soon(self._close_transport)
        return written

    def _close_transport(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()

    def _encode(self, message: ServerMessage, key: Hashable | None) -> bytes:
        return self.conn.send(message)

    def _refusal_bytes(self, reason: str, detail: str) -> bytes:
        """A nack with the reason (Kettle has no goodbye: the close follows)."""
        return self.conn.send(Nack("", reason, detail))

    def _goodbye_bytes(self, server_initiated: bool) -> bytes:
        """Kettle has no goodbye; a server shutting down says so with a nack."""
        if server_initiated and self.room is not None and not self.conn.send_closed:
            return self.conn.send(Nack("", SHUTDOWN, "the server is shutting down"))
        return b""


class _Refusal(Exception):
    def __init__(self, reason: str, text: str) -> None:
        super().__init__(text)
        self.reason = reason
        self.text = text


def _deck(hero: str | None, cards: tuple[str, ...] | None) -> tuple[str, tuple[str, ...]]:
    """The deck a `queue_player` asks for, or `_Refusal(invalid_deck)`: a heroID without
    cards plays that hero's default deck, else its class deck (`games.hearth.decks`); with
    cards, the game's deck rules (`Deck.from_ids`) decide."""
    if cards is None:
        for default_hero, default_cards in DEFAULT_DECKS:
            if default_hero == hero:
                return default_hero, default_cards
        try:
            found = None if hero is None else decks.for_hero(hero)
        except decks.DeckError as error:
            raise _Refusal(INVALID_DECK, f"heroID {hero!r} without cards: {error}") from None
        if found is None:
            known = ", ".join(d.hero for d in decks.class_decks().values())
            raise _Refusal(INVALID_DECK, f"heroID {hero!r} without cards: only {known} have "
                                         "a default deck")
        return found.pair()
    if hero is None:
        raise _Refusal(INVALID_DECK, "cards need a heroID")
    try:
        return decks.Deck.from_ids(hero, cards).pair()
    except decks.DeckError as error:
        raise _Refusal(INVALID_DECK, str(error)) from None


def _ask(ident: int, seat: int, payload: Any) -> _Ask:
    """The wire form of a Hearth decision (`server.games.hearth.room.HearthAsk`)."""
    actions: tuple[Action, ...] = payload.actions
    if payload.kind == MULLIGAN:
        cards: tuple[int, ...] = payload.cards
        choices = EntityChoices(ident, CHOICE_MULLIGAN, seat + 1, seat + 2, 0, len(cards), cards)
        return _Ask(ident, True, actions, cards, (), choices)
    if payload.kind == CHOOSE:
        offered: tuple[int, ...] = payload.cards
        pick = EntityChoices(ident, CHOICE_GENERAL, seat + 1, payload.source, 1, 1, offered)
        return _Ask(ident, True, actions, offered, (), pick, general=True)
    options = options_for(actions)
    return _Ask(ident, False, actions, (), options, Options(ident, options))


def _illegal_option(options: tuple[Option, ...], message: ChooseOption) -> str:
    index = message.option_index
    if not 0 <= index < len(options):
        return f"option_index {index} is not among the {len(options)} options"
    main = options[index].main_option
    if main is None and message.target:
        return f"option {index} (END_TURN) takes no target, not {message.target}"
    if main is not None and main.targets and message.target not in main.targets:
        return (f"option {index} needs a target among {list(main.targets)}, "
                f"not {message.target}")
    if main is not None and not main.targets and message.target:
        return f"option {index} takes no target"
    if message.position is not None:
        return f"position {message.position} is not a free ZONE_POSITION for option {index}"
    return f"option {index} cannot be played so"


def _finished(room: Room, result: MatchResult) -> GameFinished:
    winner = result.winner
    players = (1, 2)
    if winner is None:
        winners: tuple[int, ...] = ()
        losers: tuple[int, ...] = players
    else:
        winners, losers = (winner + 1,), (2 - winner,)
    return GameFinished(room.id, winners, losers, _result_text(result))


def _result_text(result: MatchResult) -> str:
    """The game's reason ("hero died", "draw"...) or why the match broke."""
    violation = result.violation
    if violation is None:
        return result.reason
    text = violation.cause.value.lower()
    if violation.left_cause is not None:
        text += f": {violation.left_cause.value.lower()}"
    if violation.seat is not None:
        text += f" (player {violation.seat + 1})"
    return text


def _lobby_text(exc: LobbyError) -> str:
    match exc.kind:
        case LobbyErrorKind.RESERVATION_NOT_FOUND:
            return "no game with that gameID and password (or the seat is taken)"
        case LobbyErrorKind.ROOM_NOT_FOUND:
            return "the game is over"
        case _:
            return exc.detail or exc.kind.value.lower()
