"""Player actions: small hashable tuples, listed flat by ``State.legal_actions()``."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Kind(IntEnum):
    END_TURN = 1
    PLAY = 2  # entity = card in hand, target (0 = none), position (minions: board index)
    POWER = 3  # entity = hero power, target (0 = none)
    ATTACK = 4  # entity = attacker, target = defender
    MULLIGAN = 5  # entity = PlayerID (1|2), cards = entity ids to replace (sorted)
    CHOOSE = 6  # entity = PlayerID (1|2), cards = (the offered entity id picked,)


class Action(NamedTuple):
    """One decision. ``Action(Kind.END_TURN)`` ends the turn.

    >>> Action(Kind.ATTACK, 12, 5)
    Action(kind=<Kind.ATTACK: 4>, entity=12, target=5, position=-1, cards=())
    """

    kind: Kind
    entity: int = 0
    target: int = 0
    position: int = -1
    cards: tuple[int, ...] = ()


END_TURN = Action(Kind.END_TURN)


class IllegalAction(ValueError):
    """The action is not legal in this state (the state is unchanged)."""
