"""A Hearthstone-like card game on an entity/tag engine (the SabberStone model).

>>> from games import hearth
>>> g = hearth.new_game(seed=42)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])     # mulligans keep all, then always end the turn
>>> g.result().reason
'hero died'
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import END_TURN, Action, IllegalAction, Kind
from .game import Result, State

GAME_TYPE = "hearth"
"""The game id under which the server registers this game (HTTP API, admin `prepare`)."""

MAGE_DECK: tuple[str, ...] = tuple(
    cid
    for cid in (
        "CS2_025",
        "CS2_027",
        "CS2_029",
        "CS2_022",
        "CS2_023",
        "CS2_024",
        "CS2_026",
        "CS2_032",
        "EX1_277",
        "CS2_120",
        "CS2_122",
        "CS2_179",
        "CS2_182",
        "CS2_189",
        "CS2_142",
    )
    for _ in range(2)
)
WARRIOR_DECK: tuple[str, ...] = tuple(
    cid
    for cid in (
        "CS2_105",
        "CS2_106",
        "CS2_108",
        "EX1_400",
        "EX1_606",
        "CS2_171",
        "CS2_172",
        "CS2_124",
        "CS2_200",
        "CS2_121",
        "EX1_399",
        "EX1_007",
        "CS2_188",
        "EX1_393",
        "CS2_196",
    )
    for _ in range(2)
)
DEFAULT_DECKS: tuple[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]] = (
    ("HERO_08", MAGE_DECK),
    ("HERO_01", WARRIOR_DECK),
)


def new_game(
    seed: int = 0,
    decks: Sequence[tuple[str, Sequence[str]]] | None = None,
    shuffle: bool = True,
    history: bool = False,
    turn_cap: int | None = None,
    first_player: int | None = None,
) -> State:
    """Start a game and run it up to the mulligan.

    ``decks``: two ``(hero card id, [card ids])`` (default: Basic Mage vs Warrior);
    ``shuffle=False`` keeps each deck in the given order (the first card listed is drawn
    first); ``history=True`` records Kettle history;
    ``turn_cap``: the game is a draw when this turn number is passed (for playouts);
    ``first_player``: 1 or 2 (default: chosen by the seeded RNG).
    """
    if decks is None:
        decks = DEFAULT_DECKS
    return State.create(seed, decks, shuffle, history, turn_cap, first_player)


def collectible_cards() -> tuple[str, ...]:
    """The ids of the collectible minions, spells and weapons the engine plays (what decks
    may hold), in card id order.

    >>> "CS2_029" in collectible_cards()
    True
    """
    from .carddb import load_cards

    return tuple(card.id for card in load_cards().values() if card.playable)


__all__ = [
    "DEFAULT_DECKS",
    "END_TURN",
    "GAME_TYPE",
    "Action",
    "IllegalAction",
    "Kind",
    "Result",
    "State",
    "collectible_cards",
    "new_game",
]
