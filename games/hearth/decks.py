"""Decks: a hero and 30 cards, as Blizzard deck codes or as card ids, and the class decks.

A :class:`Deck` is checked when it is made (:class:`DeckError` names the card and the
rule): 30 cards, at most two copies of a card and one of a legendary, only neutral cards and
cards of the hero's class, only cards the engine plays (:attr:`Card.playable
<games.hearth.carddb.Card.playable>`), the hero a collectible hero. Deck codes are the
game's own (``hearthstone.deckstrings``: a varint list of dbf ids in base64); a code
is read in the Standard or the Wild format.

The ten class decks (``data/decks.json``: one deck of Basic and Classic cards per class of
patch 17.6, the default for that class) are read by name with :func:`named`: ``"mage"``,
``"demon-hunter"``...; the earlier Basic-set decks stay as ``"basic-mage"``...
(:func:`basic_decks`).

>>> deck = Deck.from_ids("HERO_08", ["CS2_025"] * 2 + ["CS2_122"] * 2 + ["CS2_182"] * 26)
Traceback (most recent call last):
...
games.hearth.decks.DeckError: CS2_182 (Chillwind Yeti): 26 copies; a deck holds at most 2 ...
>>> from games.hearth import DEFAULT_DECKS
>>> hero, cards = DEFAULT_DECKS[0]
>>> deck = Deck.from_ids(hero, cards)
>>> Deck.from_code(deck.code) == deck.in_code_order()
True
>>> Deck.from_code("AAECAQcAAQEAAA==")
Traceback (most recent call last):
...
games.hearth.decks.DeckError: deck code: no card has dbf id 1: the engine's card data holds ...
"""

from __future__ import annotations

import binascii
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .carddb import Card, load_cards
from .enums import T_HERO, T_MINION, T_SPELL, T_WEAPON

__all__ = [
    "DECKS_FILE",
    "DECK_SIZE",
    "ClassDeck",
    "Deck",
    "DeckError",
    "basic_decks",
    "class_decks",
    "deck_problem",
    "for_hero",
    "named",
    "playable",
    "resolve",
]

DECK_SIZE = 30
DECKS_FILE = Path(__file__).parent / "data" / "decks.json"

_NEUTRAL = 12  # hearthstone.enums.CardClass.NEUTRAL
_LEGENDARY = 5  # hearthstone.enums.Rarity.LEGENDARY
_DECK_TYPES = (T_MINION, T_SPELL, T_WEAPON)
_FT_WILD, _FT_STANDARD = 1, 2  # hearthstone.enums.FormatType
_TYPE_NAMES = {3: "a hero", 6: "an enchantment", 10: "a hero power"}
_CLASS_NAMES = {
    1: "Death Knight", 2: "Druid", 3: "Hunter", 4: "Mage", 5: "Paladin", 6: "Priest",
    7: "Rogue", 8: "Shaman", 9: "Warlock", 10: "Warrior", 12: "Neutral", 14: "Demon Hunter",
}  # hearthstone.enums.CardClass


class DeckError(ValueError):
    """A deck the engine does not play; the message names the card and the rule."""


def playable(card: Card) -> bool:
    """Whether a deck may hold ``card`` as far as the engine goes: it is declared (the one
    rule that depends on the engine's progress; the others are the game's)."""
    return card.playable


def class_name(card_class: int) -> str:
    """The name of a ``CardClass`` value.

    >>> class_name(14)
    'Demon Hunter'
    """
    return _CLASS_NAMES.get(card_class, f"class {card_class}")


def _named(card: Card) -> str:
    return f"{card.id} ({card.name})"


def deck_problem(hero_id: str, cards: Sequence[str], *, size: int = DECK_SIZE) -> str | None:
    """Why ``(hero_id, cards)`` is not a legal deck, naming the card and the rule; None
    when it is.

    >>> deck_problem("HERO_08", ["EX1_298"] * 2 + ["CS2_182"] * 2 + ["CS2_120"] * 26)
    'EX1_298 (Ragnaros the Firelord): 2 copies; a deck holds at most 1 copy of a legendary'
    >>> deck_problem("CS2_182", ["CS2_182"] * 30)
    "heroID 'CS2_182' is not a hero card"
    """
    db = load_cards()
    hero = db.get(hero_id)
    if hero is None or hero.type != T_HERO or not hero.collectible:
        return f"heroID {hero_id!r} is not a hero card"
    if len(cards) != size:
        return f"a deck holds exactly {size} cards, not {len(cards)}"
    own = class_name(hero.card_class)
    for card_id, copies in Counter(cards).items():
        card = db.get(card_id)
        if card is None:
            return f"{card_id!r} is not a card of the engine's card data"
        if card.type not in _DECK_TYPES:
            return (f"{_named(card)} is {_TYPE_NAMES.get(card.type, 'not a card')}; a deck "
                    "holds minions, spells and weapons")
        if not card.collectible:
            return f"{_named(card)} is not collectible (a token: a deck holds collectible cards)"
        if card.card_class not in (_NEUTRAL, hero.card_class):
            return (f"{_named(card)} is a {class_name(card.card_class)} card; "
                    f"a {own} deck holds {own} and neutral cards")
        limit = 1 if card.rarity == _LEGENDARY else 2
        if copies > limit:
            kind = "a legendary" if limit == 1 else "a card"
            return (f"{_named(card)}: {copies} copies; a deck holds at most "
                    f"{limit} {'copy' if limit == 1 else 'copies'} of {kind}")
        if not playable(card):
            return f"{_named(card)} is not implemented by the engine yet"
    return None


@dataclass(frozen=True, slots=True)
class Deck:
    """A legal deck: the hero's card id and the 30 card ids (in the order given: a game
    started with ``shuffle=False`` draws them in that order). Made by :meth:`from_ids`,
    :meth:`from_code` or :meth:`from_text`, which check it."""

    hero: str
    ids: tuple[str, ...]

    def __post_init__(self) -> None:
        problem = deck_problem(self.hero, self.ids)
        if problem is not None:
            raise DeckError(problem)

    @classmethod
    def from_ids(cls, hero: str, ids: Iterable[str]) -> Deck:
        """The deck of ``hero`` with these card ids; :class:`DeckError` if it is not legal."""
        if not isinstance(hero, str):
            raise DeckError("the hero is a card id (a string)")
        ids = tuple(ids)
        if not all(isinstance(i, str) for i in ids):
            raise DeckError("cards are card ids (strings)")
        return cls(hero, ids)

    @classmethod
    def from_code(cls, code: str) -> Deck:
        """The deck of a Blizzard deck code (as the game's deck builder copies it); the
        cards in the code's order (by copies, then dbf id)."""
        from hearthstone.deckstrings import parse_deckstring

        code = code.strip()
        try:
            cards, heroes, fmt, sideboards = parse_deckstring(code)
        except (ValueError, EOFError, TypeError, binascii.Error) as error:
            raise DeckError(f"deck code {_short(code)!r} does not read: {error}") from None
        if int(fmt) not in (_FT_STANDARD, _FT_WILD):
            raise DeckError(f"deck code: format {fmt.name.removeprefix('FT_').title()}; the "
                            "engine reads Standard and Wild deck codes")
        if sideboards:
            raise DeckError("deck code: it has sideboards; the engine's decks have none")
        if len(heroes) != 1:
            raise DeckError(f"deck code: {len(heroes)} heroes; a deck has one")
        by_dbf = _by_dbf()
        hero = by_dbf.get(heroes[0])
        if hero is None:
            raise DeckError(f"deck code: no card has dbf id {heroes[0]} (the hero): the "
                            "engine's card data holds Basic, Classic and Hall of Fame cards")
        ids: list[str] = []
        for dbf, count in cards:
            card = by_dbf.get(dbf)
            if card is None:
                raise DeckError(f"deck code: no card has dbf id {dbf}: the engine's card "
                                "data holds Basic, Classic and Hall of Fame cards")
            ids.extend([card.id] * count)
        return cls(hero.id, tuple(ids))

    @classmethod
    def from_text(cls, text: str) -> Deck:
        """A deck written as text: a deck code (the game's export: ``#`` lines are
        comments), or card ids separated by spaces, commas or new lines, one of them the
        hero's (``HERO_08 CS2_025 CS2_025 ...``); ``2x CS2_025`` counts twice."""
        lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
        words = [w for line in lines for w in re.split(r"[\s,;]+", line) if w]
        if len(words) == 1:
            return cls.from_code(words[0])
        db = load_cards()
        heroes = [w for w in words if w in db and db[w].type == T_HERO]
        if len(heroes) != 1:
            raise DeckError(f"a deck list names one hero card (HERO_01 to HERO_10), not "
                            f"{len(heroes)}")
        ids: list[str] = []
        copies = 1
        for word in words:
            match = re.fullmatch(r"(\d{1,2})x", word)
            if match:
                copies = int(match.group(1))
                continue
            if word != heroes[0]:
                ids.extend([word] * copies)
            copies = 1
        return cls.from_ids(heroes[0], ids)

    @property
    def code(self) -> str:
        """The deck code (Standard format) the game's deck builder reads."""
        from hearthstone.deckstrings import write_deckstring
        from hearthstone.enums import FormatType

        db = load_cards()
        counts = Counter(db[i].dbf_id for i in self.ids)
        code: str = write_deckstring(sorted(counts.items()), [db[self.hero].dbf_id],
                                     FormatType.FT_STANDARD)
        return code

    @property
    def card_class(self) -> str:
        """The hero's class, by name: ``'Mage'``."""
        return class_name(load_cards()[self.hero].card_class)

    def in_code_order(self) -> Deck:
        """The same deck, its cards in a deck code's order (by copies, then dbf id)."""
        db = load_cards()
        counts = Counter(self.ids)
        order = sorted(counts, key=lambda i: (counts[i] > 1, db[i].dbf_id))
        return Deck(self.hero, tuple(i for i in order for _ in range(counts[i])))

    def pair(self) -> tuple[str, tuple[str, ...]]:
        """``(hero, ids)``: what :func:`games.hearth.new_game` takes per player."""
        return self.hero, self.ids


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


@cache
def _by_dbf() -> dict[int, Card]:
    return {card.dbf_id: card for card in load_cards().values()}


@dataclass(frozen=True, slots=True)
class ClassDeck:
    """One of the class decks of ``data/decks.json``, not yet checked (see :meth:`deck`)."""

    name: str
    card_class: str
    hero: str
    code: str
    description: str
    aliases: tuple[str, ...]

    def deck(self) -> Deck:
        """The checked deck (:class:`DeckError` while the engine lacks one of its cards)."""
        try:
            deck = Deck.from_code(self.code)
        except DeckError as error:
            raise DeckError(f"class deck {self.name!r}: {error}") from None
        return deck


def _key(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def _read(key: str) -> dict[str, ClassDeck]:
    doc: dict[str, Any] = json.loads(DECKS_FILE.read_text(encoding="utf-8"))
    found: dict[str, ClassDeck] = {}
    for raw in doc[key]:
        name = raw["name"]
        found[name] = ClassDeck(name, raw["class"], raw["hero"], raw["code"],
                                raw["description"], tuple(raw.get("aliases", ())))
    return found


@cache
def class_decks() -> Mapping[str, ClassDeck]:
    """The class decks by name, in the file's order: one per class of patch 17.6, of Basic
    and Classic cards, the default deck of that class's hero."""
    return _read("decks")


@cache
def basic_decks() -> Mapping[str, ClassDeck]:
    """The Basic-set decks (two copies of 15 Basic cards) by name: ``basic-mage``..."""
    return _read("basic")


def _find(name: str) -> ClassDeck | None:
    key = _key(name)
    for deck in (*class_decks().values(), *basic_decks().values()):
        if key == deck.name or key in deck.aliases or key == _key(deck.card_class):
            return deck
    return None


def named(name: str) -> Deck:
    """The class deck called ``name`` (``"mage"``, ``"basic-mage"``, ``"Demon Hunter"``).

    >>> named("warlock-deck")
    Traceback (most recent call last):
    ...
    games.hearth.decks.DeckError: no class deck 'warlock-deck'; the class decks: mage, warrior, ...
    """
    found = _find(name)
    if found is None:
        known = ", ".join(class_decks())
        raise DeckError(f"no class deck {name!r}; the class decks: {known} (or basic-<name>)")
    return found.deck()


def for_hero(hero: str) -> Deck | None:
    """The class deck of this hero card id (None: no class deck has it)."""
    for deck in class_decks().values():
        if deck.hero == hero:
            return deck.deck()
    return None


def resolve(spec: str | Mapping[str, Any] | Deck) -> Deck:
    """A deck as a user gives it: a class deck's name, a deck code, a deck list's text
    (:meth:`Deck.from_text`), or ``{"hero": ..., "cards": [...]}``.

    >>> resolve({"hero": "HERO_08", "cards": ["CS2_029"] * 30})
    Traceback (most recent call last):
    ...
    games.hearth.decks.DeckError: CS2_029 (Fireball): 30 copies; a deck holds at most 2 copies ...
    """
    if isinstance(spec, Deck):
        return spec
    if isinstance(spec, Mapping):
        if set(spec) != {"hero", "cards"} or not isinstance(spec["cards"], (list, tuple)):
            raise DeckError('a deck as an object is {"hero": card id, "cards": [30 card ids]}')
        return Deck.from_ids(spec["hero"], spec["cards"])
    if not isinstance(spec, str):
        raise DeckError("a deck is a class deck's name, a deck code, or hero and cards")
    if _find(spec) is not None or re.fullmatch(r"\s*[a-z][a-z-]*\s*", spec):
        return named(spec)  # deck codes have capitals and digits: a lower-case word is a name
    return Deck.from_text(spec)
