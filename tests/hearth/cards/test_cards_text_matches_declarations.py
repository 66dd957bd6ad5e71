"""The numbers in each declaration agree with the pinned card text (patch 17.6 CardDefs).

The text is an independent source: a Fireball declared with 5 damage, a Shield Block
drawing two or a Blessing of Kings giving +4/+3 fails here even if no scenario covers it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.hearth.carddb import Card, load_cards
from games.hearth.dsl import (
    Buff,
    Damage,
    Draw,
    Effect,
    GainArmor,
    Heal,
    If,
    Seq,
    SplitDamage,
    Summon,
)
from games.hearth.enums import ATK, HEALTH, GameTag
from games.hearth.script import SCRIPTS

WORDS = {"a": 1, "an": 1, "one": 1, "two": 2}


def effects(e: Effect | None) -> Iterator[Effect]:
    if e is None:
        return
    if isinstance(e, Seq):
        for x in e.effects:
            yield from effects(x)
    elif isinstance(e, If):
        yield from effects(e.then)
        yield from effects(e.otherwise)
    else:
        yield e


def declared(card: Card) -> list[Effect]:
    s = card.script
    out = [*effects(s.play), *effects(s.deathrattle)]
    for t in s.triggers:
        out.extend(effects(t.effect))
    return out


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>|\[x\]", "", text).replace("_", " ").replace("\n", " ")


def cards_with(pattern: str) -> list[Card]:
    # Declared cards only: cards.json also holds the cards not implemented yet.
    return [
        c
        for c in load_cards().values()
        if c.id in SCRIPTS and re.search(pattern, plain(c.text), re.I)
    ]


@pytest.mark.parametrize("card", cards_with(r"deal \$?\d+ damage"), ids=lambda c: c.id)
def test_damage_amounts(card: Card) -> None:
    (n,) = re.findall(r"deal \$?(\d+) damage", plain(card.text), re.I)
    found = [e for e in declared(card) if isinstance(e, (Damage, SplitDamage))]
    assert len(found) == 1
    e = found[0]
    amount = e.count if isinstance(e, SplitDamage) else e.amount
    assert amount == int(n)
    # "$N" marks spell text that Spell Damage boosts; hero powers and battlecries use N.
    assert e.spell == ("$" in card.text and card.type == 5)


@pytest.mark.parametrize("card", cards_with(r"draw (a|\d+) cards?"), ids=lambda c: c.id)
def test_draw_counts(card: Card) -> None:
    (n,) = re.findall(r"draw (a|\d+) cards?", plain(card.text), re.I)
    found = [e for e in declared(card) if isinstance(e, Draw)]
    assert [e.count for e in found] == [WORDS.get(n, 0) or int(n)]


@pytest.mark.parametrize("card", cards_with(r"gain \d+ armor"), ids=lambda c: c.id)
def test_armor_amounts(card: Card) -> None:
    (n,) = re.findall(r"gain (\d+) armor", plain(card.text), re.I)
    assert [e.amount for e in declared(card) if isinstance(e, GainArmor)] == [int(n)]


@pytest.mark.parametrize("card", cards_with(r"restore #\d+ health"), ids=lambda c: c.id)
def test_heal_amounts(card: Card) -> None:
    (n,) = re.findall(r"restore #(\d+) health", plain(card.text), re.I)
    assert [e.amount for e in declared(card) if isinstance(e, Heal)] == [int(n)]


@pytest.mark.parametrize("card", cards_with(r"summon (a|an|two) \d+/\d+"), ids=lambda c: c.id)
def test_summons(card: Card) -> None:
    ((count, atk, health),) = re.findall(r"summon (a|an|two) (\d+)/(\d+)", plain(card.text), re.I)
    (e,) = [e for e in declared(card) if isinstance(e, Summon)]
    token = load_cards()[e.card_id]
    assert e.count == WORDS[count.lower()]
    assert (token.tags.get(ATK, 0), token.tags[HEALTH]) == (
        int(atk),
        int(health),
    )


def buff_of(enchant_id: str) -> tuple[int, int]:
    deltas = dict(load_cards()[enchant_id].script.buff)
    return deltas.get(ATK, 0), deltas.get(HEALTH, 0)


def stated(text: str) -> tuple[int, int]:
    """(attack, health) bonus named by a text: '+1/+1', '+3 Attack', '+2 Health'."""
    t = plain(text)
    both = re.search(r"\+(\d+)/\+(\d+)", t)
    if both:
        return int(both[1]), int(both[2])
    atk = re.search(r"\+(\d+) Attack", t)
    health = re.search(r"\+(\d+) Health", t)
    return (int(atk[1]) if atk else 0), (int(health[1]) if health else 0)


def stat_buff(c: Card) -> bool:
    """Enchantments with Attack/Health deltas; keyword ones (Taunt) and trigger carriers
    (Corruption) are checked by the next tests."""
    return any(t in (ATK, HEALTH) for t, _ in c.script.buff)


@pytest.mark.parametrize(
    "enchant",
    [c for c in load_cards().values() if c.type == 6 and c.id in SCRIPTS and not stat_buff(c)],
    ids=lambda c: c.id,
)
def test_keyword_and_trigger_enchantments(enchant: Card) -> None:
    script = enchant.script
    assert bool(script.buff) != bool(script.triggers)
    for tag, delta in script.buff:
        assert delta == 1 and GameTag(tag).name.lower() in plain(enchant.text).lower()


# Enchantments whose own text names no number take it from the card that grants them.
GRANTED_BY = {"CS2_226e": "CS2_226", "EX1_399e": "EX1_399"}


@pytest.mark.parametrize(
    "enchant",
    [c for c in load_cards().values() if c.type == 6 and c.id in SCRIPTS and stat_buff(c)],
    ids=lambda c: c.id,
)
def test_enchantment_deltas(enchant: Card) -> None:
    text = load_cards()[GRANTED_BY[enchant.id]].text if enchant.id in GRANTED_BY else enchant.text
    assert buff_of(enchant.id) == stated(text) != (0, 0)


def test_buffing_cards_use_the_enchantment_their_text_describes() -> None:
    for card in load_cards().values():
        for e in declared(card):
            if isinstance(e, Buff):
                assert buff_of(e.enchant_id) == stated(card.text), card.id
        for aura in card.script.auras:
            assert buff_of(aura.enchant_id) == stated(card.text), card.id
