"""Decks (games/hearth/decks.py): deck codes, card id lists, the deck rules, the ten class
decks of data/decks.json (Basic and Classic cards) and the ten Basic decks kept beside them.

`test_class_decks_are_legal_once_their_cards_are_playable` proves the decks right apart
from "the engine plays it", by treating every collectible card as declared
(PRETEND_BASIC_PLAYABLE); `test_every_class_deck_is_playable` checks that one too."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hearthstone.deckstrings import write_deckstring
from hearthstone.enums import FormatType

from games import hearth
from games.hearth import decks
from games.hearth.carddb import Card, load_cards
from games.hearth.decks import Deck, DeckError

CLASS_HEROES = {
    "Mage": "HERO_08", "Warrior": "HERO_01", "Paladin": "HERO_04", "Priest": "HERO_09",
    "Hunter": "HERO_05", "Druid": "HERO_06", "Rogue": "HERO_03", "Shaman": "HERO_02",
    "Warlock": "HERO_07", "Demon Hunter": "HERO_10",
}
MAGE = hearth.DEFAULT_DECKS[0]
WARRIOR = hearth.DEFAULT_DECKS[1]


def _dbf(card_id: str) -> int:
    return load_cards()[card_id].dbf_id


def _code(cards: list[tuple[str, int]], heroes: list[str],
          fmt: FormatType = FormatType.FT_STANDARD) -> str:
    code: str = write_deckstring([(_dbf(c), n) for c, n in cards], [_dbf(h) for h in heroes],
                                 fmt)
    return code


def _problem(hero: str, cards: list[str] | tuple[str, ...]) -> str:
    with pytest.raises(DeckError) as caught:
        Deck.from_ids(hero, cards)
    return str(caught.value)


def _pretend_collectible_is_playable(card: Card) -> bool:
    return card.collectible and card.type in (4, 5, 7)


# --- the rules -------------------------------------------------------------------------


def test_the_default_decks_are_decks() -> None:
    for hero, cards in hearth.DEFAULT_DECKS:
        deck = Deck.from_ids(hero, cards)
        assert deck.hero == hero and deck.ids == cards
        assert deck.pair() == (hero, cards)
    assert Deck.from_ids(*MAGE).card_class == "Mage"


def test_thirty_cards() -> None:
    assert _problem(MAGE[0], MAGE[1][:-1]) == "a deck holds exactly 30 cards, not 29"
    assert _problem(MAGE[0], (*MAGE[1], "CS2_120")) == "a deck holds exactly 30 cards, not 31"


def test_two_copies_and_one_of_a_legendary() -> None:
    assert _problem(MAGE[0], (*MAGE[1][:-1], "CS2_025")) == (
        "CS2_025 (Arcane Explosion): 3 copies; a deck holds at most 2 copies of a card")
    assert _problem(MAGE[0], ("EX1_298", "EX1_298", *MAGE[1][2:])) == (
        "EX1_298 (Ragnaros the Firelord): 2 copies; a deck holds at most 1 copy of a "
        "legendary")


def test_own_class_and_neutral_cards_only() -> None:
    assert _problem(MAGE[0], (*MAGE[1][:-1], "CS2_106")) == (
        "CS2_106 (Fiery War Axe) is a Warrior card; a Mage deck holds Mage and neutral cards")
    assert _problem("HERO_10", (*WARRIOR[1][:-1], "CS2_106")).startswith(
        "CS2_105 (Heroic Strike) is a Warrior card; a Demon Hunter deck holds Demon Hunter")


def test_only_cards_the_engine_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decks, "playable", lambda card: card.id != "CS2_029")
    assert _problem(*MAGE) == "CS2_029 (Fireball) is not implemented by the engine yet"
    monkeypatch.undo()
    # A card of the data no declaration plays (Nozdormu, the one Classic card left out).
    undeclared = next(c for c in load_cards().values()
                      if _pretend_collectible_is_playable(c) and not c.playable
                      and c.card_class == 12)
    assert undeclared.id == "EX1_560"
    cards = (undeclared.id, *MAGE[1][1:])
    assert _problem(MAGE[0], cards) == (
        f"{undeclared.id} ({undeclared.name}) is not implemented by the engine yet")


def test_cards_a_deck_cannot_hold() -> None:
    assert _problem(MAGE[0], ("CS2_101t", *MAGE[1][1:])) == (
        "CS2_101t (Silver Hand Recruit) is not collectible (a token: a deck holds "
        "collectible cards)")
    assert _problem(MAGE[0], ("HERO_08bp", *MAGE[1][1:])) == (
        "HERO_08bp (Fireblast) is a hero power; a deck holds minions, spells and weapons")
    assert _problem(MAGE[0], ("HERO_01", *MAGE[1][1:])).startswith("HERO_01 (Garrosh")
    assert _problem(MAGE[0], ("NOPE_1", *MAGE[1][1:])) == (
        "'NOPE_1' is not a card of the engine's card data")
    assert _problem("CS2_029", MAGE[1]) == "heroID 'CS2_029' is not a hero card"
    assert _problem("HERO_08bp", MAGE[1]) == "heroID 'HERO_08bp' is not a hero card"


def test_the_kettle_check_is_the_same_check() -> None:
    from protocols.kettle.hearth import deck_problem

    assert deck_problem(*MAGE) is None
    assert deck_problem(MAGE[0], MAGE[1][:-1]) == decks.deck_problem(MAGE[0], MAGE[1][:-1])


# --- deck codes ------------------------------------------------------------------------


def test_a_deck_code_round_trips() -> None:
    deck = Deck.from_ids(*MAGE)
    again = Deck.from_code(deck.code)
    assert again == deck.in_code_order()
    assert Counter(again.ids) == Counter(deck.ids) and again.hero == deck.hero
    assert again.code == deck.code
    assert Deck.from_code(f"  {deck.code}\n") == again


def test_a_deck_code_with_one_copy_and_a_wild_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decks, "playable", _pretend_collectible_is_playable)  # Ragnaros
    others = sorted(set(MAGE[1]) - {"CS2_029"})[:14]
    cards = [("EX1_298", 1), ("CS2_029", 1)] + [(c, 2) for c in others]
    deck = Deck.from_code(_code(cards, ["HERO_08"], FormatType.FT_WILD))
    assert deck.ids.count("EX1_298") == 1 and len(deck.ids) == 30


def test_deck_codes_that_are_refused() -> None:
    twos = [(c, 2) for c in sorted(set(MAGE[1]))]
    with pytest.raises(DeckError, match="2 heroes; a deck has one"):
        Deck.from_code(_two_heroes(twos))
    with pytest.raises(DeckError, match="format Classic; the engine reads Standard and Wild"):
        Deck.from_code(_code(twos, ["HERO_08"], FormatType.FT_CLASSIC))
    with pytest.raises(DeckError, match="no card has dbf id 1: "):
        Deck.from_code(write_deckstring([(1, 2)], [_dbf("HERO_08")], FormatType.FT_STANDARD))
    with pytest.raises(DeckError, match=r"no card has dbf id 99999 \(the hero\)"):
        Deck.from_code(write_deckstring([(_dbf("CS2_029"), 2)], [99999],
                                        FormatType.FT_STANDARD))
    with pytest.raises(DeckError, match="does not read"):
        Deck.from_code("AAECAQcAAQ")  # cut short
    with pytest.raises(DeckError, match="does not read"):
        Deck.from_code("not a deck code!")
    with pytest.raises(DeckError, match="sideboards"):
        Deck.from_code(write_deckstring([(_dbf(c), n) for c, n in twos], [_dbf("HERO_08")],
                                        FormatType.FT_STANDARD, [(_dbf("CS2_029"), 1, 1)]))
    # A code that reads is still checked as a deck.
    with pytest.raises(DeckError, match="a deck holds exactly 30 cards, not 28"):
        Deck.from_code(_code(twos[:-1], ["HERO_08"]))


def _two_heroes(cards: list[tuple[str, int]]) -> str:
    # write_deckstring refuses two heroes: the header by hand (version 1, Standard, 2 heroes).
    import base64

    one = base64.b64decode(_code(cards, ["HERO_08"]))
    assert one[:4] == b"\x00\x01\x02\x01"
    hero = one[4:6]  # HERO_08's dbf id (637) is a two-byte varint
    return base64.b64encode(b"\x00\x01\x02\x02" + hero + b"\x07" + one[6:]).decode()


# --- text and specs --------------------------------------------------------------------


def test_a_deck_list_as_text() -> None:
    text = "# my mage\n" + "HERO_08\n" + "\n".join(MAGE[1]) + "\n"
    assert Deck.from_text(text) == Deck.from_ids(*MAGE)
    counts = Counter(MAGE[1])
    compact = "HERO_08, " + ", ".join(f"{n}x {c}" for c, n in counts.items())
    assert Counter(Deck.from_text(compact).ids) == counts
    exported = f"### Mage\n# Class: Mage\n#\n{Deck.from_ids(*MAGE).code}\n# comment\n"
    assert Deck.from_text(exported) == Deck.from_ids(*MAGE).in_code_order()
    with pytest.raises(DeckError, match="names one hero card"):
        Deck.from_text(" ".join(MAGE[1]))
    with pytest.raises(DeckError, match="names one hero card"):
        Deck.from_text("HERO_08 HERO_01 " + " ".join(MAGE[1]))


def test_resolve_takes_a_name_a_code_a_list_or_an_object(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setattr(decks, "playable", _pretend_collectible_is_playable)
    code = Deck.from_ids(*MAGE).code
    assert decks.resolve(code) == Deck.from_code(code)
    assert decks.resolve({"hero": MAGE[0], "cards": list(MAGE[1])}) == Deck.from_ids(*MAGE)
    assert decks.resolve("Mage") == decks.named("mage") != decks.resolve("basic-mage")
    assert decks.resolve(Deck.from_ids(*MAGE)) == Deck.from_ids(*MAGE)
    with pytest.raises(DeckError, match="no class deck 'wizard'"):
        decks.resolve("wizard")
    with pytest.raises(DeckError, match='"hero": card id, "cards"'):
        decks.resolve({"hero": MAGE[0]})
    with pytest.raises(DeckError, match="card ids"):
        decks.resolve({"hero": MAGE[0], "cards": [1] * 30})
    bad: Any = 7
    with pytest.raises(DeckError, match="a class deck's name, a deck code"):
        decks.resolve(bad)


# --- the class decks -------------------------------------------------------------------


@pytest.fixture(scope="module")
def basic_set() -> set[str]:
    """The collectible cards of the Basic set, from the pinned CardDefs (cards.json does not
    keep the set)."""
    from hearthstone import cardxml
    from hearthstone.enums import CardSet

    db, _ = cardxml.load()
    return {cid for cid, c in db.items() if c.card_set == CardSet.BASIC and c.collectible}


def test_ten_class_decks_one_per_class() -> None:
    found = decks.class_decks()
    assert [d.card_class for d in found.values()] == list(CLASS_HEROES)
    for deck in found.values():
        assert deck.hero == CLASS_HEROES[deck.card_class]
        assert deck.name == deck.card_class.lower().replace(" ", "-")
        assert decks.basic_decks()[f"basic-{deck.name}"].card_class == deck.card_class
        assert 20 <= len(deck.description) <= 200


@pytest.fixture(scope="module")
def classic_set() -> set[str]:
    """The collectible cards of the Classic set and of the Hall of Fame cards that came from
    Basic and Classic (cards.json holds exactly those besides Basic)."""
    return {i for i, c in load_cards().items() if c.collectible} - {
        i for i in load_cards() if i.startswith("HERO_")}


def _entries(key: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(decks.DECKS_FILE.read_text(encoding="utf-8"))[key]
    return entries


def _check_entry(entry: dict[str, Any]) -> list[str]:
    """The entry's code and list agree, and it is a class deck with an early game; its ids."""
    from hearthstone.deckstrings import parse_deckstring

    by_dbf = {c.dbf_id: c for c in load_cards().values()}
    cards, heroes, fmt, sideboards = parse_deckstring(entry["code"])
    assert fmt == FormatType.FT_STANDARD and not sideboards
    assert [by_dbf[h].id for h in heroes] == [entry["hero"]]
    ids = sorted(by_dbf[dbf].id for dbf, n in cards for _ in range(n))
    assert ids == sorted(entry["cards"]) and len(ids) == 30, entry["name"]
    hero_class = load_cards()[entry["hero"]].card_class
    classes = Counter(load_cards()[i].card_class for i in ids)
    assert set(classes) <= {12, hero_class}
    assert classes[hero_class] >= 14, f"{entry['name']}: a class deck of class cards"
    costs = [load_cards()[i].cost for i in ids]
    assert sum(c <= 3 for c in costs) >= 12, f"{entry['name']}: an early game"
    assert 2.5 <= sum(costs) / 30 <= 4.5, entry["name"]
    return ids


def test_basic_decks_are_basic_cards_and_their_lists_agree(basic_set: set[str]) -> None:
    for entry in _entries("basic"):
        ids = _check_entry(entry)
        assert all(ids.count(i) == 2 for i in ids), entry["name"]
        assert set(ids) <= basic_set, (entry["name"], sorted(set(ids) - basic_set))


def test_class_decks_are_basic_and_classic_cards_and_their_lists_agree(
        basic_set: set[str], classic_set: set[str]) -> None:
    for entry in _entries("decks"):
        ids = _check_entry(entry)
        assert set(ids) <= basic_set | classic_set, entry["name"]
        # made from both sets: Classic cards are what the class decks add
        assert len(set(ids) - basic_set) >= 8, (entry["name"], "too few Classic cards")


def test_class_decks_are_legal_once_their_cards_are_playable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # PRETEND_BASIC_PLAYABLE: every collectible card counts as declared, so the deck rules
    # other than "the engine plays it" are checked apart from the engine's progress.
    monkeypatch.setattr(decks, "playable", _pretend_collectible_is_playable)
    for name, entry in decks.class_decks().items():
        deck = decks.named(name)
        assert deck.hero == entry.hero and len(deck.ids) == 30
        assert deck.code == entry.code
        basic = decks.named(f"basic-{name}")
        assert basic.hero == deck.hero and basic != deck
        assert decks.named(entry.card_class.upper()) == deck
        assert decks.for_hero(entry.hero) == deck
    assert decks.for_hero("HERO_08a") is None


def test_every_class_deck_is_playable() -> None:
    # Every class deck and Basic deck is a legal deck of cards the engine plays, and plays
    # a game.
    problems = {}
    for name in (*decks.class_decks(), *decks.basic_decks()):
        try:
            deck = decks.named(name)
        except DeckError as error:
            problems[name] = str(error)
            continue
        g = hearth.new_game(seed=3, decks=[deck.pair(), decks.named("mage").pair()])
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        assert g.result().reason
    assert problems == {}
