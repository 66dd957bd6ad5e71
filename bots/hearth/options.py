"""Kettle ``options`` <-> engine ``Action``\\ s for the bot kit.

The mapping itself (``options_for``, ``choice_for``, ``action_for``) lives in
``protocols.kettle.hearth``, shared with the server's Kettle session, and is re-exported
here. Note ``choose_option.position`` is the ZONE_POSITION a played minion takes
(1 = leftmost), the engine's 0-based ``Action.position`` plus one.

A client without the engine (``actions_from_tree``) rebuilds the same ``Action`` list
from its entity tree: the option's entity in our HAND is ``PLAY`` (a minion: one action per
target per board index ``0..len(our board)``), our hero power is ``POWER``, anything else
is ``ATTACK``.

>>> from games.hearth import END_TURN, Action, Kind
>>> options = options_for([END_TURN, Action(Kind.PLAY, 9, 0, 0), Action(Kind.PLAY, 9, 0, 1)])
>>> choice_for(options, Action(Kind.PLAY, 9, 0, 0))
(1, None, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from hearthstone.enums import CardType, GameTag, Zone

from bots.hearth.tree import EntityTree
from games.hearth import END_TURN, Action, Kind
from protocols.kettle.hearth import Choice, action_for, choice_for, options_for, sub_option_for
from protocols.kettle.messages import OPTION_END_TURN, Option

__all__ = ["Choice", "action_for", "actions_from_tree", "choice_for", "options_for",
           "sub_option_for"]

_CARDTYPE = int(GameTag.CARDTYPE)
_ZONE = int(GameTag.ZONE)
_CONTROLLER = int(GameTag.CONTROLLER)
_HAND = int(Zone.HAND)
_MINION = int(CardType.MINION)
_HERO_POWER = int(CardType.HERO_POWER)


def actions_from_tree(options: Sequence[Option], tree: EntityTree, player: int) -> list[Action]:
    """The engine actions ``options`` stand for, rebuilt from the player's entity tree."""
    out: list[Action] = []
    slots: range | None = None
    for option in options:
        main = option.main_option
        if option.type == OPTION_END_TURN:
            out.append(END_TURN)
            continue
        if main is None or main.entity_id not in tree:
            continue
        entity = tree[main.entity_id]
        targets = main.targets or (0,)
        if option.sub_options and entity[_ZONE] == _HAND:  # Choose One: option k by index
            for k, sub in enumerate(option.sub_options):
                if not sub.entity_id:
                    continue  # that option cannot be played now
                ts = sub.targets or (0,)
                if entity[_CARDTYPE] == _MINION:
                    if slots is None:
                        slots = range(len(tree.board(player)) + 1)
                    out.extend(Action(Kind.PLAY, entity.id, t, n, (k,)) for t in ts for n in slots)
                else:
                    out.extend(Action(Kind.PLAY, entity.id, t, -1, (k,)) for t in ts)
            continue
        if entity[_ZONE] == _HAND:
            if entity[_CARDTYPE] == _MINION:
                if slots is None:
                    slots = range(len(tree.board(player)) + 1)
                out.extend(Action(Kind.PLAY, entity.id, t, n) for t in targets for n in slots)
            else:
                out.extend(Action(Kind.PLAY, entity.id, t) for t in targets)
        elif entity[_CARDTYPE] == _HERO_POWER:
            out.extend(Action(Kind.POWER, entity.id, t) for t in targets)
        else:
            out.extend(Action(Kind.ATTACK, entity.id, t) for t in main.targets)
    return out
