"""The Kettle message decoders (``decode_client`` / ``decode_server``) on arbitrary JSON
values, built from the fuzzer's bytes with the protocol's own field names.

Allowed: a message, or ``KettleError`` with a decoder reason. A decoded client message
must encode (``to_dict`` through the frame encoder) and decode back to itself.
"""

from __future__ import annotations

import json
from typing import Any

from fuzz._bytes import Reader
from protocols.kettle import messages as k
from protocols.kettle.connection import encode
from protocols.kettle.reasons import (
    BAD_ENVELOPE,
    MISSING_FIELD,
    OUT_OF_RANGE,
    UNKNOWN_TYPE,
    WRONG_TYPE,
    KettleError,
)

DECODER_REASONS = frozenset({BAD_ENVELOPE, MISSING_FIELD, OUT_OF_RANGE, UNKNOWN_TYPE, WRONG_TYPE})
NAMES = (
    "queue_player", "join_game", "get_game_state", "choose_entities", "choose_option",
    "concede", "game_joined", "history_block", "entity_choices", "options", "ack", "nack",
    "game_finished",
)
KEYS = (
    *NAMES, "type", "account_name", "heroID", "cards", "gameID", "password", "playerID",
    "choiceID", "choice_type", "count_min", "count_max", "entities", "source", "hide_chosen",
    "optionsID", "options", "main_option", "sub_options", "entityID", "targets",
    "option_index", "target", "sub_option_index", "position", "winners", "losers", "result",
    "acknowledged_object", "not_acknowledged_object", "reason", "message", "accountID",
    "spectating", "max_friendly_minions_per_player", "max_secrets_per_player",
)
STRINGS = (
    *(k.PREFIX + name for name in NAMES), "", "x", "\ud800", "\udfff\ud800", "é", "\x00",
    "kettle:types/", "kettle:types/history/tag_change", "EX1_001", "HERO_08", "won", "a" * 300,
)
NUMBERS = (
    0, 1, 2, 3, -1, 10, 11, 30, k.MAX_ID, k.MAX_ID + 1, 2**63, -(2**63), 10**40, 0.0, 1.0,
    1.5, -0.0, float("inf"), float("-inf"), float("nan"), True, False,
)


def value(reader: Reader, depth: int = 0) -> Any:
    """One JSON-like value (NaN and infinities included: ``1e999999`` parses to inf)."""
    kind = reader.byte() % (9 if depth < 6 else 4)
    if kind == 0:
        return None
    if kind == 1:
        return reader.pick(NUMBERS)
    if kind == 2:
        return reader.pick(STRINGS)
    if kind == 3:
        return reader.take(reader.byte() % 8).decode("utf-8", "surrogateescape")
    if kind in (4, 5, 6):
        return {reader.pick(KEYS): value(reader, depth + 1) for _ in range(reader.byte() % 5)}
    if kind == 7:
        return [value(reader, depth + 1) for _ in range(reader.byte() % 5)]
    name = reader.pick(NAMES)
    return {"type": k.PREFIX + name, name: value(reader, depth + 1)}


SEEDS: tuple[bytes, ...] = (
    bytes([8, 4, 4, 8, 1, 2, 5, 1, 0]),
    bytes([8, 2, 4, 8, 1, 3]),
    bytes([8, 0, 5, 3, 9, 1, 1, 9, 1, 2, 25, 1, 3]),
    bytes([4, 2, 0, 2, 0, 1, 4, 1, 3]),
    bytes(range(64)),
)


def _check(decode: Any, obj: Any, roundtrip: bool) -> None:
    try:
        message = decode(obj)
    except KettleError as error:
        assert error.code in DECODER_REASONS, error.code
        assert isinstance(error.detail, str) and error.detail
        return
    if roundtrip:
        frame = encode(message)
        again = decode(json.loads(frame[4:]))
        assert again == message, (message, again)


def one_input(data: bytes) -> None:
    obj = value(Reader(data))
    _check(k.decode_client, obj, roundtrip=True)
    _check(k.decode_server, obj, roundtrip=False)
