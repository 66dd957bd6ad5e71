"""Sample Kettle messages (every type, optional fields both ways) and a feeding helper."""

from __future__ import annotations

from protocols.base import NEED_DATA, ProtocolError
from protocols.kettle import (
    CHOICE_GENERAL,
    CHOICE_MULLIGAN,
    OPTION_END_TURN,
    OPTION_POWER,
    Ack,
    ChooseEntities,
    ChooseOption,
    ClientConnection,
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
    OptionEntity,
    Options,
    QueuePlayer,
    Refused,
    ServerConnection,
    ServerMessage,
)

DECK = tuple(f"CS2_{i:03d}" for i in range(30))

TAG_CHANGE = {
    "type": "kettle:types/history/tag_change",
    "tag_change": {"entityID": 1, "tag": 20, "value": 3},
}
POWER_BLOCK = {
    "type": "kettle:types/history/power_block",
    "power_block": {
        "power_type": 7,
        "entityID": 12,
        "cardID": "CS2_029",
        "effect_index": -1,
        "entity_target": 5,
        "history": [
            TAG_CHANGE,
            {
                "type": "kettle:types/history/full_entity",
                "full_entity": {
                    "entityID": 70,
                    "name": "Zauberspruch «Ä»",
                    "tags": [{"name": 49, "value": 1}],
                },
            },
        ],
    },
}

CLIENT_MESSAGES: list[ClientMessage] = [
    QueuePlayer(),
    QueuePlayer(account_name="Bött 🤖"),
    QueuePlayer(account_name="bot", hero_id="HERO_08", cards=DECK),
    JoinGame("g-7f3a", "pässword"),
    GetGameState(),
    ChooseEntities(1),
    ChooseEntities(2, (4, 5, 2**31 - 1)),
    ChooseOption(3, 0),
    ChooseOption(3, 2, target=5, sub_option_index=1, position=10),
    ChooseOption(9, 1, target=0, position=0),
    Concede(),
]

SERVER_MESSAGES: list[ServerMessage] = [
    GameJoined("g-7f3a", 1),
    GameJoined(
        "g",
        0,
        spectating=True,
        board=3,
        max_secrets_per_player=0,
        max_friendly_minions_per_player=0,
    ),
    HistoryBlock([]),
    HistoryBlock([TAG_CHANGE, POWER_BLOCK]),
    EntityChoices(1, CHOICE_MULLIGAN, 1, 2, 0, 3, (4, 5, 6)),
    EntityChoices(7, CHOICE_GENERAL, 2, 40, 1, 1, (41, 42, 43), hide_chosen=True),
    Options(1, ()),
    Options(
        2,
        (
            Option(OPTION_END_TURN),
            Option(OPTION_POWER, OptionEntity(12)),
            Option(OPTION_POWER, OptionEntity(13, (1, 5, 9))),
            Option(OPTION_POWER, OptionEntity(14), (OptionEntity(80), OptionEntity(81, (5,)))),
        ),
    ),
    Ack(),
    Ack("kettle:types/concede"),
    Nack("", "bad_json", "body is not JSON"),
    Nack("kettle:types/join_game", "no_such_game"),
    GameFinished("g-7f3a", (1,), (2,), "won"),
    GameFinished("g", (), (), "tied"),
]


def drain(
    connection: ServerConnection | ClientConnection, chunks: list[bytes], eof: bool = True
) -> list[object]:
    """Feed ``chunks`` (then end of file), collecting events until a closing refusal.

    Checks the codec's promises on the way: only ``ProtocolError`` after a closing
    refusal, the buffer never above its limit, and a failed connection stays failed.
    """
    events: list[object] = []
    limit = connection.limits.max_buffered_bytes
    for chunk in [*chunks, b""] if eof else chunks:
        connection.receive_data(chunk)
        assert len(connection._buffer) <= limit
        while True:
            event = connection.next_event()
            if event is NEED_DATA:
                break
            events.append(event)
            if isinstance(event, Refused) and event.close:
                assert connection.errored
                try:
                    connection.next_event()
                except ProtocolError:
                    pass
                else:
                    raise AssertionError("a failed connection must refuse further use")
                return events
    return events


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given points (no empty pieces: ``b""`` would mean end of file)."""
    points = sorted({cut % (len(data) + 1) for cut in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    return [piece for piece in pieces if piece]
