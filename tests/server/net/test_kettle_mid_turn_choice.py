"""A mid-turn choice over Kettle: Tracking's pick is an `entity_choices` GENERAL that the
client answers with `choose_entities` (exactly one offered entity; two are refused with
`nack illegal` and the choice stays open). Two raw Kettle clients against a real server
over TCP, each playing Tracking as soon as it can; the bundled bots through the kit, too."""

from __future__ import annotations

import asyncio
from typing import Any

from bots.hearth import BotSession, RandomBot
from games.hearth import State
from games.hearth.tree import ViewTree
from protocols.base import NEED_DATA, ConnectionClosed
from protocols.kettle import (
    CHOICE_GENERAL,
    CHOICE_MULLIGAN,
    ChooseEntities,
    ChooseOption,
    ClientConnection,
    Concede,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    Nack,
    Options,
    QueuePlayer,
)
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.hearth.test_mid_turn_choice_random_games import DEMON_HUNTER, HUNTER

WAIT = 60.0
TRACKING = "DS1_184"


class Tracker:
    """One raw client: keeps its opening hand, plays Tracking whenever an option has it,
    else ends the turn; answers the first GENERAL choice wrongly (two entities), then
    rightly; concedes at its next options once its choice was taken."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.tree = ViewTree()
        self.choices: list[EntityChoices] = []
        self.refused: list[Nack] = []
        self.picked: list[int] = []
        self.player = 0


async def run_client(port: int, me: Tracker) -> GameFinished:
    conn = ClientConnection()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    def send(message: Any) -> None:
        writer.write(conn.send(message))

    try:
        send(QueuePlayer(me.name, HUNTER[0], tuple(HUNTER[1])))
        while True:
            event = conn.next_event()
            if event is NEED_DATA:
                conn.receive_data(await reader.read(65536))
                continue
            assert not isinstance(event, ConnectionClosed), "closed before game_finished"
            match event:
                case GameJoined(player_id=player):
                    me.player = player
                    send(GetGameState())
                case HistoryBlock(entries=entries):
                    if entries and entries[0]["type"].endswith("/create_game"):
                        me.tree = ViewTree()
                    me.tree.feed(entries)
                case EntityChoices(choice_type=kind) if kind == CHOICE_MULLIGAN:
                    send(ChooseEntities(event.choice_id, ()))
                case EntityChoices(choice_type=kind) if kind == CHOICE_GENERAL:
                    me.choices.append(event)
                    if len(me.choices) == 1 and len(event.entities) > 1:
                        send(ChooseEntities(event.choice_id, event.entities[:2]))
                    else:
                        me.picked.append(event.entities[-1])
                        send(ChooseEntities(event.choice_id, (event.entities[-1],)))
                case Nack() if me.choices and not me.picked:
                    me.refused.append(event)
                    me.picked.append(me.choices[-1].entities[-1])
                    send(ChooseEntities(me.choices[-1].choice_id, (me.picked[-1],)))
                case Options(options_id=ident, options=options):
                    if me.picked:
                        send(Concede())
                        continue
                    index = next((n for n, o in enumerate(options) if o.main_option is not None
                                  and me.tree.entities.get(o.main_option.entity_id, ("",))[0]
                                  == TRACKING), 0)
                    send(ChooseOption(ident, index))
                case GameFinished():
                    return event
    finally:
        writer.close()


async def test_a_client_answers_a_general_entity_choices() -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=11)
    async with GauntletServer(config) as srv:
        one, two = Tracker("one"), Tracker("two")
        async with asyncio.timeout(WAIT):
            await asyncio.gather(run_client(srv.tcp_port, one), run_client(srv.tcp_port, two))
    chooser = one if one.choices else two
    other = two if chooser is one else one
    assert chooser.choices, "nobody played Tracking"
    first = chooser.choices[0]
    assert first.player_id == chooser.player and (first.count_min, first.count_max) == (1, 1)
    assert len(first.entities) == 3 and chooser.choices == [first]
    assert chooser.tree.entities[first.source][0] == TRACKING  # the source is the card
    # Two entities were refused; the same choice (no new entity_choices) was then answered.
    assert [n.reason for n in chooser.refused] == ["illegal"]
    # The chooser's stream names its offered cards; the opponent's never does.
    assert all(chooser.tree.entities[i][0] for i in first.entities)
    assert all(other.tree.entities[i][0] == "" for i in first.entities)
    picked = chooser.picked[0]
    assert chooser.tree.entities[picked][1][49] == 3  # 49 = ZONE: in hand (3)


class Recording(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: list[tuple[tuple[int, ...], int, int]] = []

    def choose(self, state: State, choices: Any, count_min: int, count_max: int) -> list[int]:
        self.asked.append((tuple(choices), count_min, count_max))
        return super().choose(state, choices, count_min, count_max)


async def kit_game(port: int, bot: Recording, deck: tuple[str, list[str]]) -> BotSession:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    session = BotSession(bot, deck=deck)
    writer.write(session.start())
    while data := await reader.read(65536):
        reply = session.receive_data(data)
        if reply:
            writer.write(reply)
            await writer.drain()
    writer.close()
    return session


async def test_the_kit_answers_tracking_and_sightless_watcher() -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=3)
    asked = 0
    async with GauntletServer(config) as srv:
        for seed in range(3):
            hunter, demon = Recording(seed), Recording(seed + 100)
            async with asyncio.timeout(WAIT):
                s1, s2 = await asyncio.gather(kit_game(srv.tcp_port, hunter, HUNTER),
                                              kit_game(srv.tcp_port, demon, DEMON_HUNTER))
            assert s1.finished and s2.finished and not s1.nacks and not s2.nacks
            for bot in (hunter, demon):
                assert all((lo, hi) == (1, 1) and 1 <= len(c) <= 3 for c, lo, hi in bot.asked)
                asked += len(bot.asked)
    assert asked > 0


def test_the_room_asks_a_choose_decision_and_the_session_words_it_general() -> None:
    from games.hearth import Action, Kind
    from games.hearth import scenario as S
    from server.games.hearth.kettle import _ask
    from server.games.hearth.room import CHOOSE, HearthGame

    game = HearthGame(seed=1)
    game.state = S.prepared(hero1="HERO_05", deck1=["CS2_231"] * 7, history=True)
    tracking = S.give(game.state, 1, TRACKING)
    S.play(game.state, tracking)
    pending = game.pending()
    assert list(pending) == [0]
    ask = pending[0].payload
    offered = game.state.pending_choice[1]  # type: ignore[index]
    assert (ask.kind, ask.cards, ask.source) == (CHOOSE, offered, tracking)
    assert ask.actions == tuple(Action(Kind.CHOOSE, 1, cards=(i,)) for i in offered)
    wire = _ask(7, 0, ask)
    message = wire.message
    assert isinstance(message, EntityChoices) and wire.general and wire.mulligan
    assert (message.choice_type, message.player_id, message.source) == (CHOICE_GENERAL, 1,
                                                                         tracking)
    assert (message.count_min, message.count_max, message.entities) == (1, 1, offered)
    game.apply(0, ask.actions[0])
    assert game.state.pending_choice is None and game.pending()[0].payload.kind == "options"
