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
from games.hearth.enums import ATK, COST, DURABILITY, HEALTH, SPELLPOWER, GameTag
from games.hearth.script import EV_TURN_START, ON_FRIENDLY_PLAYER, SCRIPTS, attack_is_health

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
    for option in s.choose:  # Choose One: the options' texts are the card's
        out.extend(effects(SCRIPTS[option].play))
    for t in s.triggers:
        out.extend(effects(t.effect))
    # What an enchantment the card attaches does is its text too (Blessing of Wisdom draws).
    for e in list(out):
        if isinstance(e, Buff) and e.enchant_id in SCRIPTS:
            for t in SCRIPTS[e.enchant_id].triggers:
                out.extend(effects(t.effect))
            # and the deathrattle it gives (Soul of the Forest's Treant)
            out.extend(effects(SCRIPTS[e.enchant_id].deathrattle))
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


def unquoted(text: str) -> str:
    """The text without what it quotes: Shadowform's 'Deal 2 damage' is the text of the
    hero power it gives (Mind Spike), checked as that card."""
    return re.sub(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])", "", text)


@pytest.mark.parametrize(
    "card",
    [
        c
        for c in cards_with(r"deal \$?\d+ damage")
        if re.search(r"deal \$?\d+", unquoted(c.text), re.I)
    ],
    ids=lambda c: c.id,
)
def test_damage_amounts(card: Card) -> None:
    # The text before "@" (Steady Shot's second text is for another mode), in two parts
    # for a Combo card: what it does, and (after "Combo:") what instead; every amount
    # named ("$4 damage to an enemy and $1 damage...", "deal $5 damage instead").
    main, _, combo = card.text.split("@")[0].partition("Combo:")
    # A combo that adds to the text (Headcrack: the same damage, then "return this") runs
    # the play's own effects again: only what it adds is the combo text's.
    own = [id(e) for e in effects(card.script.play)]
    extra = [e for e in effects(card.script.combo) if id(e) not in own]
    parts = [(main, declared(card)), (combo, extra)]
    checked = 0
    for text, declared_effects in parts:
        # ("Combo: Deal 2 instead" names the amount without the word damage.)
        ns = re.findall(r"(?:deal \$?|\$)(\d+) (?:damage|instead)", plain(text), re.I)
        found = [e for e in declared_effects if isinstance(e, (Damage, SplitDamage))]
        amounts = [e.count if isinstance(e, SplitDamage) else e.amount for e in found]
        assert sorted(amounts) == sorted(int(n) for n in ns)
        # "$N" marks spell text that Spell Damage boosts; hero powers and battlecries use N.
        for e in found:
            # (Shield Slam's "Deal 1 damage" is AFFECTED_BY_SPELL_POWER in the card data.)
            boosted = "$" in text or card.tags.get(GameTag.AFFECTED_BY_SPELL_POWER)
            assert e.spell == bool(boosted and card.type == 5)
        checked += len(ns)
    assert checked


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
    with_combo = declared(card) + list(effects(card.script.combo))
    (e,) = [e for e in with_combo if isinstance(e, Summon)]
    token = load_cards()[e.card_id]
    assert e.count == WORDS[count.lower()]
    assert (token.tags.get(ATK, 0), token.tags[HEALTH]) == (
        int(atk),
        int(health),
    )


def buff_of(enchant_id: str) -> tuple[int, int]:
    deltas = dict(load_cards()[enchant_id].script.buff)
    # A weapon's "+1/+1" is Attack and Durability (Captain Greenskin).
    return deltas.get(ATK, 0), deltas.get(HEALTH, 0) or deltas.get(DURABILITY, 0)


# Enchantments no text gives a number for, with the deltas declared (Gorehowl: each attack
# on a minion costs 1 Attack, "Decreased Attack.").
UNNUMBERED = {"EX1_411e2": (-1, 0)}


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
    return any(t in (ATK, HEALTH, DURABILITY) for t, _ in c.script.buff)


# Enchantments that grant a keyword only (their text names it, no number).
KEYWORD_ONLY = {"CS2_103e2": "Charge", "DS1_178e": "Charge"}
# Keywords a text names otherwise than their tag.
KEYWORD_NAMES = {SPELLPOWER: "spell damage"}
# Scaled enchantments whose size is a figure of the game, not of any text (Bloodsail
# Raider: its weapon's Attack): their (attack, health) per unit.
SCALED_BY_GAME = {"NEW1_018e": (1, 0)}
# Shadow Madness's EX1_334e: Charge and a trigger, its text says neither (test_cards_control_*).
CONTROL_KEYWORD_AND_TRIGGER = {"EX1_334e"}
# --- rogue --- a keyword and the trigger that takes it off: "Stealthed until your next turn."
UNTIL_YOUR_NEXT_TURN = {"EX1_128e": "Stealth", "NEW1_014e": "Stealth"}


@pytest.mark.parametrize(
    "enchant",
    [
        c
        for c in load_cards().values()
        if c.type == 6
        and c.id in SCRIPTS
        and not stat_buff(c)
        and c.id not in KEYWORD_ONLY
        and not c.script.swaps_stats
        and c.id not in CONTROL_KEYWORD_AND_TRIGGER
        and c.id not in UNTIL_YOUR_NEXT_TURN  # --- rogue --- checked below
        # Void Terror's Consume: the game decides the stats (its scenario test checks them)
        and not c.script.stats_from_data
        # a deathrattle it gives: checked with the text of the card that gives it
        and not (c.script.deathrattle and not c.script.buff and not c.script.triggers)
        and COST not in dict(c.script.buff)  # --- costs: test_cost_enchantments
    ],
    ids=lambda c: c.id,
)
def test_keyword_and_trigger_enchantments(enchant: Card) -> None:
    script = enchant.script
    assert bool(script.buff) != bool(script.triggers)
    text = enchant.text or load_cards()[KEYWORD_GRANTED_BY.get(enchant.id, enchant.id)].text
    for tag, delta in script.buff:
        name = KEYWORD_NAMES.get(tag, GameTag(tag).name.lower())
        assert delta == 1 and name in plain(text).lower()


# --- hunter --- an enchantment without text whose keyword the granting card's text names
# (Gladiator's Longbow: "Your hero is Immune while attacking.").
KEYWORD_GRANTED_BY = {"DS1_188e": "DS1_188"}
KEYWORD_NAMES[int(GameTag.IMMUNE_WHILE_ATTACKING)] = "immune while attacking"
# Eaglehorn Bow's "+1 Durability" (Durability counts as a weapon's health here).
UNNUMBERED["EX1_536e"] = (0, 1)


# Tags a text names in other words (Commanding Shout: "can't be reduced below 1 Health").
KEYWORD_NAMES[int(GameTag.HEALTH_MINIMUM)] = "below 1 health"


# Enchantments whose own text names no number take it from the card that grants them.
GRANTED_BY = {
    "EX1_274e": "EX1_274",  # Ethereal Arcanist: the enchantment says "Increased stats."
    "CS2_226e": "CS2_226",
    "EX1_399e": "EX1_399",
    "EX1_001e": "EX1_001",
    "EX1_187e": "EX1_187",
    "EX1_044e": "EX1_044",
    "EX1_509e": "EX1_509",
    "EX1_531e": "EX1_531",
    "EX1_590e": "EX1_590",
    "EX1_604o": "EX1_604",
    "Mekka3e": "Mekka3",
    "NEW1_012o": "NEW1_012",
    "NEW1_037e": "NEW1_037",
    "NEW1_038o": "NEW1_038",
    "tt_004o": "tt_004",
    "EX1_004e": "EX1_004",
    "EX1_043e": "EX1_043",
    "EX1_055o": "EX1_055",
    "EX1_080o": "EX1_080",
    "CS2_059o": "CS2_059",
    "EX1_258e": "EX1_258",
    "EX1_409e": "EX1_409",
    "EX1_613e": "EX1_613",  # --- rogue --- Edwin VanCleef's "Increased stats." (+2/+2 each)
}
# Enchantments that grant a keyword only, and "change to N" (set-stat) enchantments.
SETS_STAT = {"CS2_084e": "CS2_084", "EX1_360e": "EX1_360"}


def test_keyword_enchantments_grant_their_keyword() -> None:
    for eid, keyword in KEYWORD_ONLY.items():
        enchant = load_cards()[eid]
        assert keyword in plain(enchant.text) and buff_of(eid) == (0, 0)
        assert dict(enchant.script.buff)[int(GameTag[keyword.upper()])] == 1


def test_set_stat_enchantments_match_their_card_text() -> None:
    for eid, by in SETS_STAT.items():
        m = re.search(r"Change a minion's (Attack|Health) to (\d+)", plain(load_cards()[by].text))
        assert m is not None and load_cards()[eid].script.scaled
        assert buff_of(eid) == ((1, 0) if m[1] == "Attack" else (0, 1))


@pytest.mark.parametrize(
    "enchant",
    [c for c in load_cards().values() if c.type == 6 and c.id in SCRIPTS and stat_buff(c)],
    ids=lambda c: c.id,
)
def test_enchantment_deltas(enchant: Card) -> None:
    if enchant.id in KEYWORD_ONLY or enchant.id in SETS_STAT or enchant.id in CONTROL_STATS:
        return  # checked by the tests below
    if enchant.id in SCALED_BY_GAME:
        assert enchant.script.scaled and buff_of(enchant.id) == SCALED_BY_GAME[enchant.id]
        return
    text = load_cards()[GRANTED_BY[enchant.id]].text if enchant.id in GRANTED_BY else enchant.text
    keywords = {t for t, _ in enchant.script.buff} - {ATK, HEALTH}
    # A keyword-only enchantment (Plaguebringer's Poisonous) names no number; one with
    # stats and a keyword (Mark of the Wild's +2/+2 and Taunt) names its stats.
    expected = UNNUMBERED.get(enchant.id) or stated(text)
    assert buff_of(enchant.id) == expected
    assert keywords or expected != (0, 0)


def test_buffing_cards_use_the_enchantment_their_text_describes() -> None:
    for card in load_cards().values():
        if card.script.choose:
            continue  # Choose One: each option is checked against its own text
        for e in declared(card):
            if isinstance(e, Buff) and e.enchant_id not in SCALED_BY_GAME | CONTROL_STATS.keys():
                expected = UNNUMBERED.get(e.enchant_id, stated(card.text))
                assert buff_of(e.enchant_id) == expected, card.id
        for aura in card.script.auras:
            if aura.sel is attack_is_health:  # Lightspawn: "Attack is always equal to its Health"
                assert "Attack is always equal to its Health" in plain(card.text)
                continue
            # An aura with its own deltas (Old Murk-Eye) has no enchantment to look up.
            deltas = (
                dict(aura.buff) if aura.buff else dict(load_cards()[aura.enchant_id].script.buff)
            )
            assert (deltas.get(ATK, 0), deltas.get(HEALTH, 0)) == stated(card.text), card.id


def test_stat_swaps_are_what_their_text_says() -> None:
    swaps = [c for c in load_cards().values() if c.script.swaps_stats]
    assert swaps
    for c in swaps:
        assert re.search(r"Attack and Health have been swapped", plain(c.text)), c.id


# --- control ---
# Enchantments whose size is read when the card is played (scaled, delta 1 on the stat the
# text names): "Double a minion's Health" adds its Health, "Change ... Attack to be equal
# to its Health", set-stat texts worded "Change an enemy minion's Attack to 1", "Change the
# Health of ALL minions to 1", "reduce its Health to 1", and Natalie's "gain its Health".
CONTROL_STATS = {
    "CS2_236e": ("CS2_236", "Health", r"Double a minion's Health"),
    "EX1_355e": ("EX1_355", "Attack", r"Double a minion's Attack"),
    "CS1_129e": ("CS1_129", "Attack", r"Attack to be equal to its Health"),
    "EX1_198e": ("EX1_198", "Health", r"gain its Health"),
    "EX1_382e": ("EX1_382", "Attack", r"Attack to 1"),
    "EX1_619e": ("EX1_619", "Health", r"Health of ALL minions to 1"),
    "EX1_379e": ("EX1_379", "Health", r"Health to 1"),
    "EX1_196e": ("EX1_196", "-Attack", r"-2 Attack until your next turn"),
}


def test_control_stat_enchantments_match_their_card_text() -> None:
    for eid, (by, stat, words) in CONTROL_STATS.items():
        assert re.search(words, plain(load_cards()[by].text)), by
        assert load_cards()[eid].script.scaled
        want = {"Attack": (1, 0), "Health": (0, 1), "-Attack": (-1, 0)}[stat]
        assert buff_of(eid) == want


# --- costs


def cost_buff(c: Card) -> bool:
    return any(t == COST for t, _ in c.script.buff)


def text_cost_delta(text: str) -> int:
    """'(3) less' -> -3, '(1) more' -> +1."""
    ((n, way),) = re.findall(r"\((\d+)\) (less|more)", plain(text))
    return -int(n) if way == "less" else int(n)


# --- rogue --- cost enchantments whose own text says something else: the cost is the
# granting card's text (Freezing Trap's "Trapped": "It costs (2) more.").
COST_GRANTED_BY = {"EX1_611e": "EX1_611"}


@pytest.mark.parametrize(
    "enchant", [c for c in load_cards().values() if c.id in SCRIPTS and cost_buff(c)],
    ids=lambda c: c.id,
)
def test_cost_enchantments(enchant: Card) -> None:
    text = load_cards()[COST_GRANTED_BY.get(enchant.id, enchant.id)].text
    assert dict(enchant.script.buff) == {COST: text_cost_delta(text)}


@pytest.mark.parametrize(
    "card",
    [c for c in load_cards().values()
     if c.id in SCRIPTS and any(a.cost is not None for a in c.script.auras)],
    ids=lambda c: c.id,
)
def test_cost_auras(card: Card) -> None:
    (aura,) = card.script.auras
    m = aura.cost
    assert m is not None
    if m.set_to >= 0:
        assert re.search(rf"costs? \({m.set_to}\)", plain(card.text), re.I)
    else:
        assert m.delta == text_cost_delta(card.text)
        assert (m.floor > 0) == ("not less than" in card.text)


# --- rogue ---


def test_until_your_next_turn_enchantments_give_the_keyword_and_go_at_your_turn() -> None:
    for eid, keyword in UNTIL_YOUR_NEXT_TURN.items():
        enchant = load_cards()[eid]
        assert re.search(rf"{keyword}ed until your next turn", plain(enchant.text)), eid
        assert dict(enchant.script.buff) == {int(GameTag[keyword.upper()]): 1}
        (trig,) = enchant.script.triggers
        assert (trig.event, trig.scope) == (EV_TURN_START, ON_FRIENDLY_PLAYER)
