"""The Hearth options mapping (``protocols.kettle.hearth``): ``action_for`` with arbitrary
option indices, targets and positions, over legal-action lists built from fuzzer bytes.

Byte 0 odd = "engine-shaped" actions (one kind per entity; only minion plays carry a
position; no duplicates): then every legal action must survive ``choice_for`` ->
``action_for`` unchanged. Always: ``action_for`` returns None or a member of ``legal``
(never a mulligan), whatever the numbers; ``mulligan_action`` returns None or a mulligan
of offered cards.
"""

from __future__ import annotations

from fuzz._bytes import Reader
from games.hearth import END_TURN, Action, Kind
from protocols.kettle.hearth import (
    action_for,
    choice_for,
    mulligan_action,
    options_for,
    sub_option_for,
)

NUMBERS = (None, 0, 1, 2, 3, 4, 7, -1, -2, 10, 11, 2**31 - 1, 2**31, -(2**63), 10**30)
KINDS = (Kind.PLAY, Kind.POWER, Kind.ATTACK, Kind.END_TURN)


def _number(reader: Reader) -> int | None:
    byte = reader.byte()
    return NUMBERS[byte % len(NUMBERS)] if byte & 0x80 else byte % 12


def _legal(reader: Reader, shaped: bool) -> list[Action]:
    legal: list[Action] = []
    kind_of: dict[int, tuple[Kind, bool]] = {}
    for _ in range(reader.byte() % 12):
        if reader.byte() % 8 == 0:
            if END_TURN not in legal:
                legal.append(END_TURN)
            continue
        entity = reader.byte() % 9 + 1
        target = reader.pick((0, 0, 1, 2, 3, 5, 8))
        if shaped:
            fresh = (reader.pick(KINDS[:3]), reader.byte() & 1 == 1)
            kind, minion = kind_of.setdefault(entity, fresh)
            position = reader.byte() % 7 if kind == Kind.PLAY and minion else -1
            action = Action(kind, entity, target, position)
            if action not in legal:
                legal.append(action)
        else:
            kind = reader.pick(KINDS[:3])
            legal.append(Action(kind, entity, target, reader.pick((-1, -1, 0, 1, 2, 6))))
    return legal


SEEDS: tuple[bytes, ...] = (
    bytes([1, 6, 1, 3, 0, 1, 1, 2, 1, 4, 2, 1, 3, 0, 0, 1, 5, 2, 2, 0, 1, 1, 2, 3]),
    bytes([0, 8, 1, 3, 2, 1, 2, 5, 1, 6, 0, 1, 4, 1, 3, 0, 9, 2, 0, 0, 130, 135]),
    bytes([1, 11]) + bytes(range(1, 90)),
)


def one_input(data: bytes) -> None:
    reader = Reader(data)
    shaped = reader.byte() & 1 == 1
    legal = _legal(reader, shaped)
    options = options_for(legal)
    for _ in range(6):
        index = _number(reader)
        chosen = action_for(legal, options, -1 if index is None else index, _number(reader),
                            _number(reader))
        assert chosen is None or (chosen in legal and chosen.kind != Kind.MULLIGAN), chosen
    if shaped:
        for action in legal:
            assert action_for(legal, options, *choice_for(options, action),
                          sub_option_for(action)) == action, action
    offered = [reader.byte() % 10 for _ in range(reader.byte() % 5)]
    chosen_cards = [reader.byte() % 12 for _ in range(reader.byte() % 5)]
    mulligan = mulligan_action(1, offered, chosen_cards)
    if mulligan is not None:
        assert mulligan.kind == Kind.MULLIGAN and set(mulligan.cards) <= set(offered)
        assert list(mulligan.cards) == sorted(chosen_cards)
