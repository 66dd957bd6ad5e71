"""Kettle ``options`` <-> engine ``Action``s: one mapping for the server and the bot kit.

The rule (both sides must build and read options exactly so):

**Building** (``options_for``, server side), from ``state.legal_actions(player)`` in
MAIN_ACTION, in the engine's order:

- option 0 is ``END_TURN`` (``{"type": 2}``, no entity);
- then one ``POWER`` option (``type`` 3) per distinct acting entity, in order of its first
  legal action: cards in hand (hand order), then the hero power, then the attackers (hero,
  then minions left to right). ``main_option.entityID`` is that entity and
  ``main_option.targets`` the distinct non-zero targets of its actions in first-appearance
  order; ``[]`` when its actions have target 0 (a card or hero power without a target;
  the engine never mixes target 0 and real targets for one entity). No ``sub_options``.

**Answering** (``choice_for``, client side): ``choose_option {optionsID, option_index,
target?, position?}``:

- ``option_index``: the index into ``options`` (0 = end the turn);
- ``target``: the target's entity id, sent only when the option lists targets (then it is
  required and must be one of them); absent (or 0) = no target;
- ``position``: sent only for a minion played from hand: the **0-based board index**
  where it goes (``Action.position``: 0 = leftmost, ``len(board)`` = right end);
  absent on a minion play = the right end. Ignored for everything else.

**Reading** (``action_for``, server side): the legal action with the option's entity,
that target (0 when absent) and that position (-1 unless the entity's actions are minion
plays), or None: an ``illegal`` nack.

A client without the engine (``actions_from_tree``) rebuilds the same ``Action`` list
from its entity tree: the option's entity in our HAND is ``PLAY`` (a minion: one action per
target per position ``0..len(our board)``), our hero power is ``POWER``, anything else is
``ATTACK``.

>>> from games.hearth import END_TURN, Action, Kind
>>> legal = [END_TURN, Action(Kind.PLAY, 9, 0, 0), Action(Kind.PLAY, 9, 0, 1),
...          Action(Kind.POWER, 5, 6), Action(Kind.POWER, 5, 8), Action(Kind.ATTACK, 12, 8)]
>>> options = options_for(legal)
>>> [o.to_dict() for o in options]  # doctest: +NORMALIZE_WHITESPACE
[{'type': 2}, {'type': 3, 'main_option': {'entityID': 9, 'targets': []}},
 {'type': 3, 'main_option': {'entityID': 5, 'targets': [6, 8]}},
 {'type': 3, 'main_option': {'entityID': 12, 'targets': [8]}}]
>>> choice_for(options, Action(Kind.PLAY, 9, 0, 1))
(1, None, 1)
>>> choice_for(options, Action(Kind.POWER, 5, 8))
(2, 8, None)
>>> action_for(legal, options, 2, 8, None)
Action(kind=<Kind.POWER: 3>, entity=5, target=8, position=-1, cards=())
>>> action_for(legal, options, 1, None, None)     # a minion without position: right end
Action(kind=<Kind.PLAY: 2>, entity=9, target=0, position=1, cards=())
>>> action_for(legal, options, 2, 7, None) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from hearthstone.enums import CardType, GameTag, Zone

from bots.hearth.tree import EntityTree
from games.hearth import END_TURN, Action, Kind
from protocols.kettle.messages import OPTION_END_TURN, OPTION_POWER, Option, OptionEntity

__all__ = ["action_for", "actions_from_tree", "choice_for", "options_for"]

_CARDTYPE = int(GameTag.CARDTYPE)
_ZONE = int(GameTag.ZONE)
_CONTROLLER = int(GameTag.CONTROLLER)
_HAND = int(Zone.HAND)
_MINION = int(CardType.MINION)
_HERO_POWER = int(CardType.HERO_POWER)

Choice = tuple[int, int | None, int | None]
"""``(option_index, target, position)`` of a ``choose_option``; None = field absent."""


def options_for(actions: Sequence[Action]) -> tuple[Option, ...]:
    """The ``options`` list for the legal actions of the player to move (END_TURN first)."""
    targets: dict[int, list[int]] = {}
    for a in actions:
        if a.kind == Kind.END_TURN:
            continue
        if a.kind == Kind.MULLIGAN:
            raise ValueError("mulligan actions are entity_choices, not options")
        known = targets.setdefault(a.entity, [])
        if a.target and a.target not in known:
            known.append(a.target)
    out = [Option(OPTION_END_TURN)]
    out.extend(Option(OPTION_POWER, OptionEntity(entity, tuple(ts)))
               for entity, ts in targets.items())
    return tuple(out)


def choice_for(options: Sequence[Option], action: Action) -> Choice:
    """The ``(option_index, target, position)`` that answers ``options`` with ``action``.

    Raises ValueError when no option has the action's entity.
    """
    if action.kind == Kind.END_TURN:
        for index, option in enumerate(options):
            if option.type == OPTION_END_TURN:
                return index, None, None
        raise ValueError("no END_TURN option")
    for index, option in enumerate(options):
        main = option.main_option
        if main is not None and main.entity_id == action.entity:
            target = action.target if action.target else None
            minion = action.kind == Kind.PLAY and action.position >= 0
            position = action.position if minion else None
            return index, target, position
    raise ValueError(f"no option for entity {action.entity}")


def action_for(
    legal: Sequence[Action],
    options: Sequence[Option],
    index: int,
    target: int | None,
    position: int | None,
) -> Action | None:
    """The legal action a ``choose_option`` names, or None when it names none."""
    if not 0 <= index < len(options):
        return None
    option = options[index]
    if option.type == OPTION_END_TURN:
        return END_TURN if END_TURN in legal else None
    main = option.main_option
    if main is None:
        return None
    wanted = target or 0
    candidates = [a for a in legal if a.entity == main.entity_id and a.target == wanted
                  and a.kind != Kind.MULLIGAN]
    if not candidates:
        return None
    if candidates[0].position < 0:
        return candidates[0]
    if position is None:
        return max(candidates, key=lambda a: a.position)
    return next((a for a in candidates if a.position == position), None)


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
