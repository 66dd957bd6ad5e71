"""Rogue Basic cards and Dagger Mastery."""

from __future__ import annotations

from hearth_cardtest import dead, play_targets, stats

from games.hearth import scenario as S


def test_hero_03bp_dagger_mastery_cs2_082_wicked_knife() -> None:
    g = S.prepared(hero1="HERO_03")
    S.power(g)
    knife = g.weapon[1]
    assert g.ents[knife].card.id == "CS2_082" and g.attack_value(g.hero[1]) == 1
    assert g.mana(1) == 8


def test_cs2_080_assassins_blade() -> None:
    g = S.prepared(hero1="HERO_03")
    S.play(g, S.give(g, 1, "CS2_080"))
    assert g.ents[g.weapon[1]].card.id == "CS2_080" and g.attack_value(g.hero[1]) == 3


def test_cs2_075_sinister_strike() -> None:
    g = S.prepared(hero1="HERO_03")
    S.summon(g, 1, "CS2_142")  # Kobold Geomancer: spell damage +1
    ss = S.give(g, 1, "CS2_075")
    assert play_targets(g, ss) == {0}  # no target chosen
    S.play(g, ss)
    assert g.health(g.hero[2]) == 26 and g.health(g.hero[1]) == 30


def test_cs2_076_assassinate() -> None:
    g = S.prepared(hero1="HERO_03")
    mine = S.summon(g, 1, "CS2_231")
    yeti = S.summon(g, 2, "CS2_182")
    a = S.give(g, 1, "CS2_076")
    assert play_targets(g, a) == {yeti}
    S.play(g, a, yeti)
    assert dead(g, yeti) and not dead(g, mine)


def test_cs2_077_sprint() -> None:
    g = S.prepared(hero1="HERO_03")
    S.play(g, S.give(g, 1, "CS2_077"))
    assert len(g.hand[1]) == 4 and g.mana(1) == 3


def test_ex1_129_fan_of_knives() -> None:
    g = S.prepared(hero1="HERO_03")
    w1, yeti = S.summon(g, 2, "CS2_231"), S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_129"))
    assert dead(g, w1) and stats(g, yeti) == (4, 4) and not dead(g, mine)
    assert g.health(g.hero[2]) == 30 and len(g.hand[1]) == 1


def test_ex1_278_shiv() -> None:
    g = S.prepared(hero1="HERO_03")
    shiv = S.give(g, 1, "EX1_278")
    assert g.hero[2] in play_targets(g, shiv)
    S.play(g, shiv, g.hero[2])
    assert g.health(g.hero[2]) == 29 and len(g.hand[1]) == 1


def test_cs2_072_backstab() -> None:
    g = S.prepared(hero1="HERO_03")
    yeti, hurt = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_182")
    g.damage(g.hero[1], hurt, 1)
    bs = S.give(g, 1, "CS2_072")
    assert play_targets(g, bs) == {yeti}  # undamaged minions only, no hero
    S.play(g, bs, yeti)
    assert stats(g, yeti) == (4, 3) and g.mana(1) == 10


def test_cs2_074_deadly_poison_cs2_074e() -> None:
    g = S.prepared(hero1="HERO_03")
    dp = S.give(g, 1, "CS2_074")
    assert play_targets(g, dp) == set()  # no weapon: not playable
    S.power(g)
    S.play(g, dp)
    assert g.attack_value(g.hero[1]) == 3


def test_ex1_191_plaguebringer_ex1_191e() -> None:
    g = S.prepared(hero1="HERO_03")
    wisp = S.summon(g, 1, "CS2_231")
    giant = S.summon(g, 2, "CS2_186")  # War Golem 7/7
    pb = S.give(g, 1, "EX1_191")
    assert play_targets(g, pb) == {wisp}  # a friendly minion only
    S.play(g, pb, wisp)
    S.attack(g, wisp, giant)
    assert dead(g, giant) and dead(g, wisp)
