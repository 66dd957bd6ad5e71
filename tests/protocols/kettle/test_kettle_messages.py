"""Every message round-trips; exact bytes for a few; each refusal names the right reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hearthstone.enums import ChoiceType, OptionType
from kettle_samples import CLIENT_MESSAGES, DECK, POWER_BLOCK, SERVER_MESSAGES, TAG_CHANGE

from games import hearth
from protocols.kettle import (
    CHOICE_GENERAL,
    CHOICE_MULLIGAN,
    OPTION_END_TURN,
    OPTION_PASS,
    OPTION_POWER,
    ChooseOption,
    ClientConnection,
    Concede,
    GameJoined,
    HistoryBlock,
    JoinGame,
    KettleError,
    Nack,
    QueuePlayer,
    Refused,
    ServerConnection,
    decode_client,
    decode_server,
    encode,
)
from protocols.kettle import reasons as R


def test_enum_numbers_match_hearthstone() -> None:
    assert (OPTION_PASS, OPTION_END_TURN, OPTION_POWER) == (
        OptionType.PASS,
        OptionType.END_TURN,
        OptionType.POWER,
    )
    assert (CHOICE_MULLIGAN, CHOICE_GENERAL) == (ChoiceType.MULLIGAN, ChoiceType.GENERAL)


@pytest.mark.parametrize("message", CLIENT_MESSAGES, ids=repr)
def test_client_message_round_trip(message: Any) -> None:
    assert decode_client(message.to_dict()) == message
    server = ServerConnection()
    server.receive_data(ClientConnection().send(message))
    assert server.next_event() == message


@pytest.mark.parametrize("message", SERVER_MESSAGES, ids=repr)
def test_server_message_round_trip(message: Any) -> None:
    assert decode_server(message.to_dict()) == message
    client = ClientConnection()
    client.receive_data(ServerConnection().send(message))
    assert client.next_event() == message


def test_to_dict_is_what_json_gives_back() -> None:
    for message in [*CLIENT_MESSAGES, *SERVER_MESSAGES]:
        as_dict = message.to_dict()
        assert json.loads(encode(message)[4:]) == as_dict


def test_batches_round_trip_in_order() -> None:
    server, client = ServerConnection(), ClientConnection()
    server.receive_data(client.send_batch(CLIENT_MESSAGES))
    assert server.events() == CLIENT_MESSAGES
    client.receive_data(server.send_batch(SERVER_MESSAGES))
    assert client.events() == SERVER_MESSAGES


# -- golden bytes ---------------------------------------------------------------------------


def test_golden_bytes() -> None:
    assert ClientConnection().send(ChooseOption(3, 1, target=5)) == (
        b"\x00\x00\x00\x61"
        b'{"type":"kettle:types/choose_option",'
        b'"choose_option":{"optionsID":3,"option_index":1,"target":5}}'
    )
    assert ClientConnection().send(JoinGame("g1", "pässwörd")) == (
        b"\x00\x00\x00\x55"
        b'{"type":"kettle:types/join_game","join_game":{"gameID":"g1",'
        b'"password":"p\xc3\xa4ssw\xc3\xb6rd"}}'
    )
    assert ServerConnection().send(HistoryBlock([TAG_CHANGE])) == (
        b"\x00\x00\x00\x91"
        b'{"type":"kettle:types/history_block","history_block":[{"type":'
        b'"kettle:types/history/tag_change","tag_change":{"entityID":1,"tag":20,"value":3}}]}'
    )
    assert ServerConnection().send_batch([Nack("", "bad_json", "x"), GameJoined("g", 2)]) == (
        b"\x00\x00\x01\x10"
        b'[{"type":"kettle:types/nack","nack":{"not_acknowledged_object":"",'
        b'"reason":"bad_json","message":"x"}},'
        b'{"type":"kettle:types/game_joined","game_joined":{"gameID":"g","playerID":2,'
        b'"spectating":false,"board":0,"max_secrets_per_player":5,'
        b'"max_friendly_minions_per_player":7}}]'
    )
    for frame in [ClientConnection().send(Concede())]:
        assert int.from_bytes(frame[:4], "big") == len(frame) - 4


def test_engine_history_passes_through_untouched() -> None:
    game = hearth.new_game(seed=3, history=True)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    server, client = ServerConnection(), ClientConnection()
    for viewer in (None, 1, 2):
        entries = game.history(viewer)
        frame = server.send(HistoryBlock(entries))
        client.receive_data(frame)
        (event,) = client.events()
        assert isinstance(event, HistoryBlock)
        assert event.entries == json.loads(json.dumps(entries))


def test_history_block_is_not_copied() -> None:
    entries = [TAG_CHANGE, POWER_BLOCK]
    assert HistoryBlock(entries).to_dict()["history_block"] is entries


# -- refusals of message content --------------------------------------------------------------


def env(name: str, body: object) -> dict[str, object]:
    return {"type": f"kettle:types/{name}", name: body}


CLIENT_REFUSALS: list[tuple[object, str]] = [
    ({"join_game": {}}, R.BAD_ENVELOPE),
    ({"type": 7}, R.BAD_ENVELOPE),
    ({"type": "kettle:types/dance"}, R.UNKNOWN_TYPE),
    ({"type": "queue_player"}, R.UNKNOWN_TYPE),
    (env("ack", {}), R.UNKNOWN_TYPE),
    (env("history_block", []), R.UNKNOWN_TYPE),
    (env("join_game", {"gameID": "g"}), R.MISSING_FIELD),
    (env("join_game", {"gameID": "g", "password": None}), R.MISSING_FIELD),
    ({"type": "kettle:types/join_game"}, R.MISSING_FIELD),
    (env("join_game", {"gameID": 5, "password": "p"}), R.WRONG_TYPE),
    (env("join_game", {"gameID": "\ud800", "password": "p"}), R.WRONG_TYPE),
    (env("join_game", []), R.WRONG_TYPE),
    (env("get_game_state", None), R.WRONG_TYPE),
    (env("concede", "now"), R.WRONG_TYPE),
    (env("queue_player", {"cards": list(DECK[:29])}), R.OUT_OF_RANGE),
    (env("queue_player", {"cards": [*DECK, "X"]}), R.OUT_OF_RANGE),
    (env("queue_player", {"cards": [*DECK[:29], 1]}), R.WRONG_TYPE),
    (env("queue_player", {"cards": "CS2_001"}), R.WRONG_TYPE),
    (env("queue_player", {"heroID": 7}), R.WRONG_TYPE),
    (env("queue_player", {"account_name": ["x"]}), R.WRONG_TYPE),
    (env("choose_entities", {"entities": []}), R.MISSING_FIELD),
    (env("choose_entities", {"choiceID": 1}), R.MISSING_FIELD),
    (env("choose_entities", {"choiceID": 1, "entities": [1, True]}), R.WRONG_TYPE),
    (env("choose_entities", {"choiceID": 1, "entities": [1.0]}), R.WRONG_TYPE),
    (env("choose_entities", {"choiceID": -1, "entities": []}), R.OUT_OF_RANGE),
    (env("choose_entities", {"choiceID": 2**31, "entities": []}), R.OUT_OF_RANGE),
    (env("choose_option", {"optionsID": 1}), R.MISSING_FIELD),
    (env("choose_option", {"optionsID": "1", "option_index": 0}), R.WRONG_TYPE),
    (env("choose_option", {"optionsID": 1, "option_index": 0, "position": 11}), R.OUT_OF_RANGE),
    (env("choose_option", {"optionsID": 1, "option_index": 0, "target": -1}), R.OUT_OF_RANGE),
    (
        env("choose_option", {"optionsID": 1, "option_index": 0, "sub_option_index": False}),
        R.WRONG_TYPE,
    ),
]


@pytest.mark.parametrize(("obj", "code"), CLIENT_REFUSALS)
def test_client_refusals(obj: object, code: str) -> None:
    assert isinstance(obj, dict)
    object_type = obj["type"] if isinstance(obj.get("type"), str) else ""
    with pytest.raises(KettleError) as info:
        decode_client(obj)
    assert (info.value.code, info.value.object_type) == (code, object_type)
    assert not info.value.closes
    # Through a connection: a nack, the connection stays usable.
    server = ServerConnection()
    server.receive_data(json_frame([obj, Concede().to_dict()]))
    refused, after = server.events()
    assert refused == Refused(Nack(object_type, code, info.value.detail), close=False)
    assert after == Concede()
    assert not server.errored


SERVER_REFUSALS: list[tuple[object, str]] = [
    (env("history_block", {}), R.WRONG_TYPE),
    ({"type": "kettle:types/history_block"}, R.MISSING_FIELD),
    (env("history_block", [1]), R.WRONG_TYPE),
    (env("history_block", [{"type": "kettle:types/ack"}]), R.WRONG_TYPE),
    (env("game_joined", {"gameID": "g", "playerID": 1, "spectating": 0, "board": 0,
                         "max_secrets_per_player": 5, "max_friendly_minions_per_player": 7}),
     R.WRONG_TYPE),
    (env("entity_choices", {"choiceID": 1, "choice_type": 1, "playerID": 1, "source": 2,
                            "count_min": 2, "count_max": 1, "entities": [],
                            "hide_chosen": False}),
     R.OUT_OF_RANGE),
    (env("options", {"optionsID": 1}), R.MISSING_FIELD),
    (env("options", {"optionsID": 1, "options": [{"type": 2}, 3]}), R.WRONG_TYPE),
    (env("options", {"optionsID": 1, "options": [{"main_option": {"entityID": 4}}]}),
     R.MISSING_FIELD),
    (env("options", {"optionsID": 1, "options": [{"type": 3, "main_option": {}}]}),
     R.MISSING_FIELD),
    (env("options", {"optionsID": 1, "options": [{"type": 3, "sub_options": {}}]}),
     R.WRONG_TYPE),
    (env("nack", {"message": "m"}), R.MISSING_FIELD),
    (env("game_finished", {"gameID": "g", "winners": [1], "losers": "2", "result": "won"}),
     R.WRONG_TYPE),
    (env("concede", {}), R.UNKNOWN_TYPE),
]  # fmt: skip


@pytest.mark.parametrize(("obj", "code"), SERVER_REFUSALS)
def test_server_refusals(obj: object, code: str) -> None:
    with pytest.raises(KettleError) as info:
        decode_server(obj)
    assert info.value.code == code


def test_refusal_messages_name_the_field() -> None:
    obj = env("options", {"optionsID": 1, "options": [{"type": 2}, {"type": 3,
              "main_option": {"entityID": 4, "targets": [1, "x"]}}]})  # fmt: skip
    with pytest.raises(KettleError, match=r"options\.options\[1\]\.main_option\.targets\[1\]"):
        decode_server(obj)


def test_unknown_fields_are_ignored_and_null_means_absent() -> None:
    body = {"heroID": None, "accountID": 3, "scenario": 2, "cards": None, "account_name": "x"}
    assert decode_client(env("queue_player", body)) == QueuePlayer(account_name="x")
    assert decode_client({"type": "kettle:types/concede", "extra": 1}) == Concede()


def test_long_unknown_types_are_not_echoed_in_full() -> None:
    with pytest.raises(KettleError) as info:
        decode_client({"type": "kettle:types/" + "x" * 10_000})
    assert len(info.value.object_type) < 200
    assert len(info.value.detail) < 300


def json_frame(value: object) -> bytes:
    body = json.dumps(value).encode()
    return len(body).to_bytes(4, "big") + body
