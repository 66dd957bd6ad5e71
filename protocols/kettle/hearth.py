"""Kettle ``options`` / ``entity_choices`` <-> Hearth engine ``Action``\\ s, and deck checks.

One mapping for the server's Kettle session and the bot kit (``bots.hearth.options``
re-exports it). Both sides must build and read options exactly so:

**Building** (``options_for``, server side), from ``state.legal_actions(player)`` in
MAIN_ACTION, in the engine's order:

- option 0 is ``END_TURN`` (``{"type": 2}``, no entity);
- then one ``POWER`` option (``type`` 3) per distinct acting entity, in order of its first
  legal action: cards in hand (hand order), then the hero power, then the attackers (hero,
  then minions left to right). ``main_option.entityID`` is that entity and
  ``main_option.targets`` the distinct non-zero targets of its actions in first-appearance
  order; ``[]`` when its actions have target 0 (a card or hero power without a target;
  the engine never mixes target 0 and real targets for one entity).
- a Choose One card (its actions carry ``Action.cards == (k,)``) lists ``sub_options``, one per
  option in the card's order (index k): ``entityID`` the card itself and ``targets`` that
  option's, or ``entityID`` 0 for an option that cannot be played now (Power of the Wild's
  Panther on a full board). No option entities are created (real games create the option
  cards in SETASIDE); the option is named by its index.

**Answering** (``choice_for``, client side): ``choose_option {optionsID, option_index,
target?, sub_option_index?, position?}``:

- ``option_index``: the index into ``options`` (0 = end the turn);
- ``target``: the target's entity id, sent only when the option lists targets (then it is
  required and must be one of them); absent (or 0) = no target;
- ``position``: sent only for a minion played from hand: the ``ZONE_POSITION`` the minion
  takes on the board, **1 = leftmost**, ``len(board) + 1`` = right end (the engine's
  ``Action.position`` is the 0-based board index, so ``position = Action.position + 1``);
  absent on a minion play = the right end. Ignored for everything else;
- ``sub_option_index``: for a Choose One card, the option's index (required then; refused
  for any other option).

**Reading** (``action_for``, server side): the legal action with the option's entity,
that target (0 when absent) and that position, or None: an ``illegal`` nack.

The mulligan is an ``entity_choices`` (``mulligan_action`` reads ``choose_entities``).
A mid-turn choice (``Kind.CHOOSE``: Tracking, Sightless Watcher) is an ``entity_choices``
with ``choice_type`` GENERAL, ``count_min`` = ``count_max`` = 1, ``entities`` the offered
cards in the engine's order and ``source`` the card that offers them; ``choose_action``
reads the ``choose_entities`` that answers it (exactly one offered id).

>>> from games.hearth import END_TURN, Action, Kind, decks
>>> legal = [END_TURN, Action(Kind.PLAY, 9, 0, 0), Action(Kind.PLAY, 9, 0, 1),
...          Action(Kind.POWER, 5, 6), Action(Kind.POWER, 5, 8), Action(Kind.ATTACK, 12, 8)]
>>> options = options_for(legal)
>>> [o.to_dict() for o in options]  # doctest: +NORMALIZE_WHITESPACE
[{'type': 2}, {'type': 3, 'main_option': {'entityID': 9, 'targets': []}},
 {'type': 3, 'main_option': {'entityID': 5, 'targets': [6, 8]}},
 {'type': 3, 'main_option': {'entityID': 12, 'targets': [8]}}]
>>> choice_for(options, Action(Kind.PLAY, 9, 0, 1))   # board index 1 = ZONE_POSITION 2
(1, None, 2)
>>> choice_for(options, Action(Kind.POWER, 5, 8))
(2, 8, None)
>>> action_for(legal, options, 2, 8, None)
Action(kind=<Kind.POWER: 3>, entity=5, target=8, position=-1, cards=())
>>> action_for(legal, options, 1, None, 1)            # ZONE_POSITION 1: leftmost
Action(kind=<Kind.PLAY: 2>, entity=9, target=0, position=0, cards=())
>>> action_for(legal, options, 1, None, None)         # a minion without position: right end
Action(kind=<Kind.PLAY: 2>, entity=9, target=0, position=1, cards=())
>>> action_for(legal, options, 1, None, 0) is None    # 0 is not a ZONE_POSITION
True
>>> action_for(legal, options, 2, 7, None) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.hearth import END_TURN, Action, Kind, decks
from protocols.kettle.messages import OPTION_END_TURN, OPTION_POWER, Option, OptionEntity

__all__ = [
    "Choice",
    "action_for",
    "choice_for",
    "choose_action",
    "deck_problem",
    "mulligan_action",
    "options_for",
    "sub_option_for",
]

Choice = tuple[int, int | None, int | None]
"""``(option_index, target, position)`` of a ``choose_option``; None = field absent."""


def options_for(actions: Sequence[Action]) -> tuple[Option, ...]:
    """The ``options`` list for the legal actions of the player to move (END_TURN first)."""
    targets: dict[int, list[int]] = {}
    chosen: dict[int, dict[int, list[int]]] = {}  # Choose One: entity -> option -> targets
    for a in actions:
        if a.kind == Kind.END_TURN:
            continue
        if a.kind in (Kind.MULLIGAN, Kind.CHOOSE):
            raise ValueError("mulligan and CHOOSE actions are entity_choices, not options")
        known = targets.setdefault(a.entity, [])
        if a.target and a.target not in known:
            known.append(a.target)
        if a.cards:
            of_option = chosen.setdefault(a.entity, {}).setdefault(a.cards[0], [])
            if a.target and a.target not in of_option:
                of_option.append(a.target)
    out = [Option(OPTION_END_TURN)]
    for entity, ts in targets.items():
        subs: tuple[OptionEntity, ...] = ()
        if entity in chosen:
            by_k = chosen[entity]
            subs = tuple(OptionEntity(entity, tuple(by_k[k])) if k in by_k else OptionEntity(0)
                         for k in range(max(by_k) + 1))
        out.append(Option(OPTION_POWER, OptionEntity(entity, tuple(ts)), subs))
    return tuple(out)


def sub_option_for(action: Action) -> int | None:
    """The ``sub_option_index`` that answers with ``action`` (a Choose One play), else None.

    >>> sub_option_for(Action(Kind.PLAY, 9, 5, -1, (1,))), sub_option_for(END_TURN)
    (1, None)
    """
    return action.cards[0] if action.kind == Kind.PLAY and action.cards else None


def choice_for(options: Sequence[Option], action: Action) -> Choice:
    """The ``(option_index, target, position)`` that answers ``options`` with ``action``
    (``position`` is the ZONE_POSITION, 1-based). Raises ValueError when no option has the
    action's entity."""
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
            position = action.position + 1 if minion else None
            return index, target, position
    raise ValueError(f"no option for entity {action.entity}")


def action_for(
    legal: Sequence[Action],
    options: Sequence[Option],
    index: int,
    target: int | None,
    position: int | None,
    sub_option: int | None = None,
) -> Action | None:
    """The legal action a ``choose_option`` names, or None when it names none.

    ``position`` is the ZONE_POSITION (1 = leftmost; None = the right end); it only
    matters for minions played from hand.
    """
    if not 0 <= index < len(options):
        return None
    option = options[index]
    if option.type == OPTION_END_TURN:
        # END_TURN has no targets: one named is not among them (0 is Kettle's "none").
        return END_TURN if END_TURN in legal and not target else None
    main = option.main_option
    if main is None:
        return None
    wanted = target or 0
    entity = main.entity_id
    cards = () if sub_option is None else (sub_option,)
    best: Action | None = None
    for a in legal:
        if a.entity != entity or a.target != wanted or a.kind in (Kind.MULLIGAN, Kind.CHOOSE):
            continue
        if (a.kind == Kind.PLAY and a.cards != cards) or (a.kind != Kind.PLAY and cards):
            continue
        if a.position < 0:
            return a
        if position is None:
            if best is None or a.position > best.position:
                best = a
        elif a.position == position - 1:
            return a
    return best


def mulligan_action(player: int, offered: Iterable[int], chosen: Sequence[int]) -> Action | None:
    """The MULLIGAN action replacing ``chosen`` (entity ids among ``offered``), or None
    when a chosen id was not offered or is named twice.

    >>> mulligan_action(1, (4, 5, 6), [6, 4])
    Action(kind=<Kind.MULLIGAN: 5>, entity=1, target=0, position=-1, cards=(4, 6))
    >>> mulligan_action(1, (4, 5, 6), [7]) is None
    True
    """
    allowed = set(offered)
    if len(set(chosen)) != len(chosen) or not allowed.issuperset(chosen):
        return None
    return Action(Kind.MULLIGAN, player, cards=tuple(sorted(chosen)))


def choose_action(player: int, offered: Iterable[int], chosen: Sequence[int]) -> Action | None:
    """The CHOOSE action picking the one entity of ``chosen``, or None unless ``chosen``
    names exactly one of ``offered``.

    >>> choose_action(1, (21, 22, 23), [22])
    Action(kind=<Kind.CHOOSE: 6>, entity=1, target=0, position=-1, cards=(22,))
    >>> choose_action(1, (21, 22, 23), [21, 22]) is None, choose_action(1, (21,), [9]) is None
    (True, True)
    """
    if len(chosen) != 1 or chosen[0] not in set(offered):
        return None
    return Action(Kind.CHOOSE, player, cards=(chosen[0],))


def deck_problem(hero_id: str, cards: Sequence[str], *, size: int = 30) -> str | None:
    """Why ``(hero_id, cards)`` is not a legal deck, naming the card and the rule; None
    when it is (the rules are the game's: :func:`games.hearth.decks.deck_problem`):
    ``size`` collectible minions, spells or weapons the engine plays, of the hero's class or
    neutral, at most 2 copies of a card and 1 of a legendary.

    >>> from games.hearth import DEFAULT_DECKS
    >>> hero, cards = DEFAULT_DECKS[0]
    >>> deck_problem(hero, cards) is None
    True
    >>> deck_problem(hero, cards[:-1] + ("CS2_106",))
    'CS2_106 (Fiery War Axe) is a Warrior card; a Mage deck holds Mage and neutral cards'
    >>> deck_problem(hero, cards[:-1] + ("CS2_025",))
    'CS2_025 (Arcane Explosion): 3 copies; a deck holds at most 2 copies of a card'
    """
    return decks.deck_problem(hero_id, cards, size=size)
