"""Hearth as numbers: an action index per decision and back, the legal-action mask, the
observation of one player.

Pure functions of what one player may see, shared by the learning environments
(`games.hearth.rl_env`, `games.hearth.rl_openspiel`) and by a bot on the server: every
function takes either an engine `State` (the real game, or the one the bot kit rebuilds
from the player's history, `State.from_view`: what `Bot.act(state, options)` receives) or
the dict of `State.observation(player)` (`games.hearth.view.observation`). Both are read
only through the player's view, so the same position gives the same numbers on both sides.

Actions (`ACTION_COUNT` = 4181 indices, observer-relative slots; docs/rl.md has the table):

- `END_TURN` = 0.
- PLAY: hand slot h (0..9) x Choose One option o (0 none, 1 = option 0, 2 = option 1) x
  target t (0 none, 1 + character slot) x position code n (0 none: spells and weapons;
  1 + board index 0..6: minions; a minion is never played onto a full board of 7, so board
  index 7 is never legal and has no index).
- POWER: target t (17).
- ATTACK: attacker (0 own hero, 1 + own board index) x defender (0 enemy hero, 1 + enemy
  board index): 64.
- MULLIGAN: one index per subset of the offered cards (bit k = the k-th offered card in
  hand order): 16.
- CHOOSE (`Kind.CHOOSE`, a mid-turn pick): the offered slot 0..2.

Character slots (observer-relative): 0 own hero, 1 enemy hero, 2..8 own minions by board
index, 9..15 enemy minions.

>>> from games import hearth
>>> g = hearth.new_game(seed=1)
>>> mask = action_mask(g, 1)
>>> int(mask.sum()), int(mask[MULLIGAN_FIRST])      # player 1 goes second: 4 cards, 16 subsets
(16, 1)
>>> move_of(MULLIGAN_FIRST, g, 1)
Action(kind=<Kind.MULLIGAN: 5>, entity=1, target=0, position=-1, cards=())
>>> action_of(move_of(MULLIGAN_FIRST + 5, g, 1), g, 1) == MULLIGAN_FIRST + 5
True
>>> obs = observe(g, 1)
>>> obs.shape, obs.dtype.name, int(obs[HAND][0])      # hand slot 0 is there
((244,), 'int32', 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from .actions import Action, Kind
from .enums import Step

# Kind.CHOOSE is 6 by the shared choice interface; by value so that this module works on
# an engine without it.
CHOOSE_KIND: Final = int(getattr(Kind, "CHOOSE", 6))

MAX_HAND: Final = 10
MAX_BOARD: Final = 7
MAX_MULLIGAN: Final = 4
MAX_CHOICE: Final = 3
MAX_SECRETS: Final = 5
OPTIONS: Final = 3  # no Choose One, option 0, option 1
CHARACTER_SLOTS: Final = 2 + 2 * MAX_BOARD  # 16
TARGETS: Final = 1 + CHARACTER_SLOTS  # 17: none + a character slot
POSITIONS: Final = 1 + MAX_BOARD  # none + board index 0..6
PER_HAND_SLOT: Final = OPTIONS * TARGETS * POSITIONS  # 408

END_TURN_ACTION: Final = 0
PLAY_FIRST: Final = 1
POWER_FIRST: Final = PLAY_FIRST + MAX_HAND * PER_HAND_SLOT  # 4081
ATTACK_FIRST: Final = POWER_FIRST + TARGETS  # 4098
MULLIGAN_FIRST: Final = ATTACK_FIRST + (1 + MAX_BOARD) ** 2  # 4162
CHOOSE_FIRST: Final = MULLIGAN_FIRST + (1 << MAX_MULLIGAN)  # 4178
ACTION_COUNT: Final = CHOOSE_FIRST + MAX_CHOICE  # 4181

AGENTS: Final = ("player_1", "player_2")


class IllegalActionIndex(ValueError):
    """An index that is not a legal action of that player now (or no index at all)."""


class ActionFields(NamedTuple):
    """What an index says, in words: `kind` (a `Kind` name) and its slots (-1 = none)."""

    kind: str
    hand_slot: int = -1
    option: int = -1
    target_slot: int = -1
    position: int = -1
    attacker_slot: int = -1
    defender_slot: int = -1
    subset: int = -1
    offered_slot: int = -1


def action_fields(index: int) -> ActionFields:
    """The meaning of an index, independent of any state.

    >>> action_fields(0).kind
    'END_TURN'
    >>> action_fields(PLAY_FIRST + PER_HAND_SLOT + 1)      # hand slot 1, minion at index 0
    ActionFields(kind='PLAY', hand_slot=1, option=-1, target_slot=-1, position=0, \
attacker_slot=-1, defender_slot=-1, subset=-1, offered_slot=-1)
    """
    a = check_action(index)
    if a == END_TURN_ACTION:
        return ActionFields("END_TURN")
    if a < POWER_FIRST:
        h, rest = divmod(a - PLAY_FIRST, PER_HAND_SLOT)
        o, rest = divmod(rest, TARGETS * POSITIONS)
        t, n = divmod(rest, POSITIONS)
        return ActionFields("PLAY", hand_slot=h, option=o - 1, target_slot=t - 1,
                            position=n - 1)
    if a < ATTACK_FIRST:
        return ActionFields("POWER", target_slot=a - POWER_FIRST - 1)
    if a < MULLIGAN_FIRST:
        att, dfd = divmod(a - ATTACK_FIRST, 1 + MAX_BOARD)
        # attacker 0 = own hero (slot 0), k = own minion k-1 (slot 1 + k); defender 0 =
        # enemy hero (slot 1), k = enemy minion k-1 (slot 8 + k)
        return ActionFields("ATTACK", attacker_slot=0 if att == 0 else 1 + att,
                            defender_slot=1 if dfd == 0 else 8 + dfd)
    if a < CHOOSE_FIRST:
        return ActionFields("MULLIGAN", subset=a - MULLIGAN_FIRST)
    return ActionFields("CHOOSE", offered_slot=a - CHOOSE_FIRST)


def check_action(action: object) -> int:
    """`action` as an int index 0..ACTION_COUNT-1 (numpy integers too; not bools or floats);
    IllegalActionIndex otherwise."""
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise IllegalActionIndex(
            f"{action!r} is not an action index (an int 0..{ACTION_COUNT - 1})")
    a = int(action)
    if not 0 <= a < ACTION_COUNT:
        raise IllegalActionIndex(f"action {a} is out of range 0..{ACTION_COUNT - 1}")
    return a


# -- what the player sees ------------------------------------------------------------------


class _Layout:
    """The entity ids behind the slots, from one player's observation dict."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        you, opp = view["you"], view["opponent"]
        self.view = view
        self.hand: list[int] = [c["entity"] for c in you["hand"]]
        self.chars: list[int] = [you["hero"]["entity"], opp["hero"]["entity"]]
        self.own_board: list[int] = [m["entity"] for m in you["board"]]
        self.opp_board: list[int] = [m["entity"] for m in opp["board"]]
        self.slot: dict[int, int] = {self.chars[0]: 0, self.chars[1]: 1}
        for k, e in enumerate(self.own_board):
            self.slot[e] = 2 + k
        for k, e in enumerate(self.opp_board):
            self.slot[e] = 2 + MAX_BOARD + k
        self.legal: list[Action] = list(view.get("legal_actions") or ())
        # The mulligan offers every subset: the largest one names the offered cards.
        full: set[int] = set()
        for a in self.legal:
            if a.kind == Kind.MULLIGAN and len(a.cards) > len(full):
                full = set(a.cards)
        self.mulligan: list[int] = [e for e in self.hand if e in full]
        choice = view.get("choice")
        self.offered: list[int] = (
            [c["entity"] for c in choice["entities"]]
            if choice and choice["player"] == view["player"] else [])


def _view_of(state: Any, player: int, options: Sequence[Action] | None = None
             ) -> Mapping[str, Any]:
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    if isinstance(state, Mapping):
        view = state
        if view.get("player") != player:
            raise ValueError(f"that observation is player {view.get('player')}'s, not {player}'s")
    elif callable(getattr(state, "observation", None)):
        view = state.observation(player)
    else:
        raise TypeError(f"need an engine State or its observation dict, not {type(state).__name__}"
                        " (the bot kit shows the entity tree only when State.from_view failed)")
    if options is not None:
        view = {**view, "legal_actions": list(options)}
    return view


def _target_code(layout: _Layout, target: int) -> int:
    if target == 0:
        return 0
    return 1 + layout.slot[target]


def _encode(a: Action, layout: _Layout) -> int:
    kind = int(a.kind)
    if kind == Kind.END_TURN:
        return END_TURN_ACTION
    if kind == Kind.PLAY:
        h = layout.hand.index(a.entity)
        o = 0 if not a.cards else 1 + a.cards[0]
        n = 0 if a.position < 0 else 1 + a.position
        if h >= MAX_HAND or o >= OPTIONS or n >= POSITIONS:
            raise ValueError(f"{a!r} has no index (hand slot {h}, option {o - 1}, "
                             f"position {n - 1})")
        return (PLAY_FIRST + h * PER_HAND_SLOT + o * TARGETS * POSITIONS
                + _target_code(layout, a.target) * POSITIONS + n)
    if kind == Kind.POWER:
        return POWER_FIRST + _target_code(layout, a.target)
    if kind == Kind.ATTACK:
        s = layout.slot[a.entity]
        att = 0 if s == 0 else s - 1
        d = layout.slot[a.target]
        dfd = 0 if d == 1 else d - 1 - MAX_BOARD
        if not (0 <= att <= MAX_BOARD and 0 <= dfd <= MAX_BOARD) or s == 1 or (d != 1 and d < 9):
            raise ValueError(f"{a!r} has no index: attacker slot {s}, defender slot {d}")
        return ATTACK_FIRST + att * (1 + MAX_BOARD) + dfd
    if kind == Kind.MULLIGAN:
        chosen = set(a.cards)
        bits = sum(1 << k for k, e in enumerate(layout.mulligan) if e in chosen)
        if len(layout.mulligan) > MAX_MULLIGAN or not chosen <= set(layout.mulligan):
            raise ValueError(f"{a!r} has no index (offered {layout.mulligan})")
        return MULLIGAN_FIRST + bits
    if kind == CHOOSE_KIND:
        k = layout.offered.index(a.cards[0])
        if k >= MAX_CHOICE:
            raise ValueError(f"{a!r} has no index: offered slot {k}")
        return CHOOSE_FIRST + k
    raise ValueError(f"{a!r}: unknown kind")


def action_of(action: Action, state: Any, player: int) -> int:
    """The index of `action` (an engine `Action` of `player`) in this position.

    `state`: an engine State (real or rebuilt by the bot kit) or `player`'s observation
    dict. ValueError when the action names entities that are not where a slot can name
    them (not in `player`'s hand, not on a board).
    """
    layout = _Layout(_view_of(state, player))
    try:
        return _encode(action, layout)
    except (KeyError, IndexError) as error:
        raise ValueError(f"{action!r} does not fit this position for player {player}: "
                         f"{error}") from None


def _legal_table(view: Mapping[str, Any]) -> dict[int, Action]:
    layout = _Layout(view)
    table: dict[int, Action] = {}
    for a in layout.legal:
        try:
            i = _encode(a, layout)
        except (KeyError, IndexError) as error:
            raise ValueError(f"{a!r} names an entity no slot holds ({error}): it has no "
                             "index") from None
        if i in table:
            raise AssertionError(f"{a!r} and {table[i]!r} share index {i}")
        table[i] = a
    return table


def legal_actions(state: Any, player: int, options: Sequence[Action] | None = None
                  ) -> dict[int, Action]:
    """index -> Action for every legal action of `player` now (empty when `player` does
    not decide now), increasing. `options`: the legal actions when they are known (the
    bot kit's `options`); default the state's own."""
    table = _legal_table(_view_of(state, player, options))
    return dict(sorted(table.items()))


def action_mask(state: Any, player: int, options: Sequence[Action] | None = None
                ) -> npt.NDArray[np.int8]:
    """int8 0/1 of length ACTION_COUNT: exactly the legal actions of `player` now (all 0
    when it is not `player`'s decision, or the game is over).

    `state`: an engine State or `player`'s observation dict; `options`: the legal actions
    when the caller has them (a bot's `act(state, options)`), default the state's own.
    """
    mask = np.zeros(ACTION_COUNT, np.int8)
    table = _legal_table(_view_of(state, player, options))
    if table:
        mask[list(table)] = 1
    return mask


def move_of(index: int, state: Any, player: int, options: Sequence[Action] | None = None
            ) -> Action:
    """The engine `Action` of a legal `index` for `player` (what a bot returns from `act`).

    IllegalActionIndex (a ValueError) with the index's meaning when it is not legal now.
    """
    a = check_action(index)
    view = _view_of(state, player, options)
    table = _legal_table(view)
    found = table.get(a)
    if found is None:
        why = ("the game is over" if view.get("over")
               else "it is not this player's decision now" if not table
               else f"{len(table)} actions are legal")
        raise IllegalActionIndex(f"action {a} ({action_fields(a)}) is not legal for player "
                                 f"{player}: {why}")
    return found


# -- observations ---------------------------------------------------------------------------

GLOBAL_FIELDS: Final = ("turn", "to_move", "mulligan", "choosing", "over")
HERO_FIELDS: Final = (
    "class", "health", "max_health", "armor", "atk", "frozen", "exhausted", "attacks",
    "hero_power", "hero_power_used", "weapon", "weapon_atk", "weapon_durability", "mana",
    "max_mana", "fatigue", "deck_count", "hand_count", "secrets", "board_count",
)
MINION_FIELDS: Final = (
    "present", "card", "atk", "health", "max_health", "taunt", "divine_shield", "frozen",
    "exhausted", "attacks", "silenced",
)
HAND_FIELDS: Final = ("present", "card", "cost")
CHOICE_FIELDS: Final = ("card", "cost")


def _span(start: int, count: int) -> slice:
    return slice(start, start + count)


GLOBAL: Final = _span(0, len(GLOBAL_FIELDS))
OWN_HERO: Final = _span(GLOBAL.stop, len(HERO_FIELDS))
ENEMY_HERO: Final = _span(OWN_HERO.stop, len(HERO_FIELDS))
OWN_SECRETS: Final = _span(ENEMY_HERO.stop, MAX_SECRETS)
OWN_BOARD: Final = _span(OWN_SECRETS.stop, MAX_BOARD * len(MINION_FIELDS))
ENEMY_BOARD: Final = _span(OWN_BOARD.stop, MAX_BOARD * len(MINION_FIELDS))
HAND: Final = _span(ENEMY_BOARD.stop, MAX_HAND * len(HAND_FIELDS))
CHOICE: Final = _span(HAND.stop, MAX_CHOICE * len(CHOICE_FIELDS))
MULLIGAN: Final = _span(CHOICE.stop, MAX_MULLIGAN)
OBSERVATION_SIZE: Final = MULLIGAN.stop  # 244

CARD_HIGH: Final = 1 << 20  # a dbf id
STAT_LOW: Final = -1000
STAT_HIGH: Final = 1000


@cache
def _dbf(card_id: str) -> int:
    from .carddb import load_cards

    card = load_cards().get(card_id)
    return 0 if card is None else card.dbf_id


@cache
def _card_class(card_id: str) -> int:
    from .carddb import load_cards

    card = load_cards().get(card_id)
    return 0 if card is None else card.card_class


def observation_bounds() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """(low, high) of every entry: dbf ids 0..2^20, everything else -1000..1000 (health
    goes below 0 when a hero dies)."""
    low = np.full(OBSERVATION_SIZE, STAT_LOW, np.int32)
    high = np.full(OBSERVATION_SIZE, STAT_HIGH, np.int32)
    card = np.zeros(OBSERVATION_SIZE, bool)
    for block in (OWN_HERO, ENEMY_HERO):
        for name in ("hero_power", "weapon"):
            card[block.start + HERO_FIELDS.index(name)] = True
    card[OWN_SECRETS] = True
    for block in (OWN_BOARD, ENEMY_BOARD):
        card[block][MINION_FIELDS.index("card")::len(MINION_FIELDS)] = True
    card[HAND][HAND_FIELDS.index("card")::len(HAND_FIELDS)] = True
    card[CHOICE][CHOICE_FIELDS.index("card")::len(CHOICE_FIELDS)] = True
    low[card] = 0
    high[card] = CARD_HIGH
    return low, high


def _hero(out: list[int], side: Mapping[str, Any]) -> None:
    hero, power, weapon = side["hero"], side["hero_power"], side["weapon"]
    out += [
        _card_class(hero["card"]), hero["health"], hero["max_health"], hero["armor"],
        hero["atk"], int(hero["frozen"]), int(hero["exhausted"]), hero["attacks"],
        _dbf(power["card"]), int(power["used"]),
        0 if weapon is None else _dbf(weapon["card"]),
        0 if weapon is None else weapon["atk"],
        0 if weapon is None else weapon["durability"],
        side["mana"], side["max_mana"], side["fatigue"], side["deck_count"],
        side["hand_count"], len(side["secrets"]), len(side["board"]),
    ]


def _board(out: list[int], board: Sequence[Mapping[str, Any]]) -> None:
    for k in range(MAX_BOARD):
        if k < len(board):
            m = board[k]
            out += [1, _dbf(m["card"]), m["atk"], m["health"], m["max_health"],
                    int(m["taunt"]), int(m["divine_shield"]), int(m["frozen"]),
                    int(m["exhausted"]), m["attacks"], int(m["silenced"])]
        else:
            out += [0] * len(MINION_FIELDS)


def _cards(out: list[int], cards: Iterable[Mapping[str, Any]], count: int, present: bool
           ) -> None:
    cards = list(cards)[:count]
    for c in cards:
        out += ([1] if present else []) + [_dbf(c["card"]), c["cost"]]
    out += [0] * ((count - len(cards)) * (3 if present else 2))


def observe(state: Any, player: int) -> npt.NDArray[np.int32]:
    """What `player` sees, as OBSERVATION_SIZE int32 (docs/rl.md has the layout).

    `state`: an engine State (the real game, or the bot kit's rebuilt one) or `player`'s
    observation dict. Built from `player`'s view only (`State.observation(player)`): the
    opponent's hand and deck are counts, its secrets a count; cards are dbf ids (0 = none).
    """
    view = _view_of(state, player)
    layout = _Layout(view)
    you, opp = view["you"], view["opponent"]
    over = bool(view["over"])
    mulligan = view["step"] == int(Step.BEGIN_MULLIGAN)
    out: list[int] = [
        view["turn"], int(bool(layout.legal)), int(mulligan and not over),
        int(bool(layout.offered)), int(over),
    ]
    _hero(out, you)
    _hero(out, opp)
    secrets = [_dbf(s["card"]) for s in you["secrets"]][:MAX_SECRETS]
    out += secrets + [0] * (MAX_SECRETS - len(secrets))
    _board(out, you["board"])
    _board(out, opp["board"])
    _cards(out, you["hand"], MAX_HAND, True)
    choice = view.get("choice")
    _cards(out, choice["entities"] if layout.offered and choice else (), MAX_CHOICE, False)
    slots = [1 + layout.hand.index(e) for e in layout.mulligan][:MAX_MULLIGAN]
    out += slots + [0] * (MAX_MULLIGAN - len(slots))
    arr = np.asarray(out, np.int32)
    np.clip(arr, STAT_LOW, CARD_HIGH, out=arr)
    low, high = _BOUNDS
    return np.clip(arr, low, high)


_BOUNDS: Final = observation_bounds()

__all__ = [
    "ACTION_COUNT",
    "AGENTS",
    "ATTACK_FIRST",
    "CHOOSE_FIRST",
    "CHOOSE_KIND",
    "END_TURN_ACTION",
    "MULLIGAN_FIRST",
    "OBSERVATION_SIZE",
    "PER_HAND_SLOT",
    "PLAY_FIRST",
    "POWER_FIRST",
    "ActionFields",
    "IllegalActionIndex",
    "action_fields",
    "action_mask",
    "action_of",
    "check_action",
    "legal_actions",
    "move_of",
    "observation_bounds",
    "observe",
]
