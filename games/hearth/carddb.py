"""Immutable card data, read once from ``data/cards.json`` (no XML at start-up).

A :class:`Card` joins the pinned data (stats and tags as GameTag ints) with the behaviour
declared next to its id in :mod:`games.hearth.cards`. Cards are shared by every game and
never written to: entities keep their own changes in their own tag dict.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .enums import CARDTYPE, T_GAME, T_MINION, T_SPELL, T_WEAPON
from .script import EMPTY_SCRIPT, SCRIPTS, CardScript

DATA_FILE = Path(__file__).parent / "data" / "cards.json"
COIN = "GAME_005"  # The Coin, which the second player gets


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card definition. ``tags`` is read-only by convention (it is shared)."""

    id: str
    dbf_id: int
    name: str
    type: int
    card_class: int
    cost: int
    atk: int
    health: int
    durability: int
    race: int
    rarity: int
    collectible: bool
    hero_power: str
    tags: dict[int, int]
    script: CardScript
    text: str = ""
    referenced_tags: dict[int, int] = field(default_factory=dict)
    # A collectible minion, spell or weapon whose behaviour is declared: what a deck may hold.
    playable: bool = False

    def __repr__(self) -> str:
        return f"<Card {self.id} {self.name!r}>"


_CARDS: dict[str, Card] = {}
_DECK_TYPES = (T_MINION, T_SPELL, T_WEAPON)


def _pseudo(card_type: int, name: str) -> Card:
    return Card(
        id="",
        dbf_id=0,
        name=name,
        type=card_type,
        card_class=0,
        cost=0,
        atk=0,
        health=0,
        durability=0,
        race=0,
        rarity=0,
        collectible=False,
        hero_power="",
        tags={CARDTYPE: card_type},
        script=EMPTY_SCRIPT,
    )


def load_cards() -> dict[str, Card]:
    """Return every implemented card by id (built on first call, then cached)."""
    if _CARDS:
        return _CARDS
    # Deferred like fireplace's get_script_definition: the declarations are imported (and
    # fill SCRIPTS) the first time cards are needed, not when the engine is imported.
    from . import cards as _declarations  # noqa: F401

    doc = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    for raw in doc["cards"]:
        _CARDS[raw["id"]] = Card(
            id=raw["id"],
            dbf_id=raw["dbf_id"],
            name=raw["name"],
            type=raw["type"],
            card_class=raw["class"],
            cost=raw["cost"],
            atk=raw["atk"],
            health=raw["health"],
            durability=raw["durability"],
            race=raw["race"],
            rarity=raw["rarity"],
            collectible=raw["collectible"],
            hero_power=raw["hero_power"],
            tags={int(k): v for k, v in raw["tags"].items()},
            script=SCRIPTS.get(raw["id"], EMPTY_SCRIPT),
            text=raw["text"],
            referenced_tags={int(k): v for k, v in raw["referenced_tags"].items()},
            playable=raw["collectible"] and raw["type"] in _DECK_TYPES and raw["id"] in SCRIPTS,
        )
    unknown = set(SCRIPTS) - set(_CARDS)
    if unknown:
        raise RuntimeError(f"scripts declared for cards missing from cards.json: {sorted(unknown)}")
    return _CARDS


_PSEUDO: dict[int, Card] = {}


def pseudo_card(card_type: int) -> Card:
    """The card-less entities (the game, the players) share a tiny pseudo card."""
    card = _PSEUDO.get(card_type)
    if card is None:
        card = _PSEUDO[card_type] = _pseudo(
            card_type, "GameEntity" if card_type == T_GAME else "Player"
        )
    return card


__all__ = ["COIN", "DATA_FILE", "Card", "load_cards", "pseudo_card"]
