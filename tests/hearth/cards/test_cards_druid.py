"""Druid Basic cards and Shapeshift."""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ARMOR, ATK, RESOURCES, TAUNT


def test_hero_06bp_shapeshift_cs2_017o() -> None:
    g = S.prepared(hero1="HERO_06")
    hero = g.hero[1]
    S.power(g)
    assert g.attack_value(hero) == 1 and g.ents[hero][ARMOR] == 1 and g.mana(1) == 8
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 29
    S.end_turn(g)
    assert g.ents[hero][ATK] == 0 and g.ents[hero][ARMOR] == 1


def test_cs2_005_claw_cs2_005o() -> None:
    g = S.prepared(hero1="HERO_06")
    hero = g.hero[1]
    S.play(g, S.give(g, 1, "CS2_005"))
    assert g.attack_value(hero) == 2 and g.ents[hero][ARMOR] == 2
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, hero, yeti)
    # The Yeti's 4 damage: 2 absorbed by the armor, 2 to the hero.
    assert stats(g, yeti) == (4, 3) and g.health(hero) == 28 and g.ents[hero][ARMOR] == 0
    S.end_turn(g)
    assert g.ents[hero][ATK] == 0


def test_cs2_007_healing_touch() -> None:
    g = S.prepared()
    S.hit(g, g.hero[1], 10)
    yeti = S.summon(g, 2, "CS2_182")
    touch = S.give(g, 1, "CS2_007")
    assert play_targets(g, touch) == {g.hero[1], g.hero[2], yeti}
    S.play(g, touch, g.hero[1])
    assert g.health(g.hero[1]) == 28 and g.mana(1) == 7


def test_cs2_008_moonfire() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "CS2_008"), g.hero[2])
    assert g.health(g.hero[2]) == 29 and g.mana(1) == 10
    S.summon(g, 1, "CS2_142")  # Spell Damage +1
    S.play(g, S.give(g, 1, "CS2_008"), g.hero[2])
    assert g.health(g.hero[2]) == 27


def test_cs2_009_mark_of_the_wild_cs2_009e() -> None:
    g = S.prepared()
    wisp = S.summon(g, 2, "CS2_231")
    mark = S.give(g, 1, "CS2_009")
    assert play_targets(g, mark) == {wisp}  # minions only
    S.play(g, mark, wisp)
    assert stats(g, wisp) == (3, 3) and g.ents[wisp][TAUNT] == 1


def test_cs2_011_savage_roar_cs2_011o() -> None:
    g = S.prepared(hero1="HERO_06")
    a, b = S.summon(g, 1, "CS2_231"), S.summon(g, 1, "CS2_182")
    enemy = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_011"))
    assert stats(g, a)[0] == 3 and stats(g, b)[0] == 6 and g.attack_value(g.hero[1]) == 2
    assert stats(g, enemy)[0] == 1
    S.end_turn(g)
    assert stats(g, a)[0] == 1 and stats(g, b)[0] == 4 and g.attack_value(g.hero[1]) == 0


def test_cs2_012_swipe() -> None:
    g = S.prepared()
    yeti, wisp = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    mine = S.summon(g, 1, "CS2_182")
    swipe = S.give(g, 1, "CS2_012")
    assert play_targets(g, swipe) == {g.hero[2], yeti, wisp}  # enemies only
    S.play(g, swipe, yeti)
    assert stats(g, yeti) == (4, 1) and dead(g, wisp) and g.health(g.hero[2]) == 29
    assert stats(g, mine) == (4, 5) and g.health(g.hero[1]) == 30
    g2 = S.prepared()
    S.summon(g2, 1, "CS2_142")  # Spell Damage +1: 5 and 2
    ogre = S.summon(g2, 2, "CS2_200")
    S.play(g2, S.give(g2, 1, "CS2_012"), g2.hero[2])
    assert g2.health(g2.hero[2]) == 25 and stats(g2, ogre) == (6, 5)


def test_cs2_013_wild_growth_cs2_013t_excess_mana() -> None:
    g = S.prepared(mana=None)  # turn 1: 1 crystal
    S.set_mana(g, 1, 3)
    S.play(g, S.give(g, 1, "CS2_013"))
    pe = g.ents[2]
    assert pe[RESOURCES] == 4 and g.mana(1) == 0  # the new crystal is empty
    S.end_turn(g)
    S.end_turn(g)
    assert g.mana(1) == 5
    full = S.prepared()  # 10 crystals: Excess Mana instead
    S.play(full, S.give(full, 1, "CS2_013"))
    assert full.ents[2][RESOURCES] == 10 and card_ids(full, full.hand[1]) == ["CS2_013t"]
    excess = full.hand[1][0]
    top = full.deck[1][-1]
    S.play(full, excess)
    assert full.hand[1] == [top] and full.mana(1) == 7 - 0  # Excess Mana costs 0
    assert full.ents[excess].card.cost == 0


def test_cs2_232_ironbark_protector() -> None:
    g = S.prepared()
    iron = S.give(g, 1, "CS2_232")
    S.play(g, iron)
    assert stats(g, iron) == (8, 8) and g.ents[iron][TAUNT] == 1 and g.mana(1) == 2


def test_ex1_169_innervate() -> None:
    g = S.prepared(mana=None)
    S.set_mana(g, 1, 2)
    S.play(g, S.give(g, 1, "EX1_169"))
    assert g.mana(1) == 3
    S.end_turn(g)
    S.end_turn(g)
    assert g.mana(1) == 3  # temporary: next turn 3 crystals, no extra
    full = S.prepared()
    S.play(full, S.give(full, 1, "EX1_169"))
    assert full.mana(1) == 10  # never above 10


def test_ex1_173_starfire() -> None:
    g = S.prepared()
    ogre = S.summon(g, 2, "CS2_200")
    top = g.deck[1][-1]
    S.play(g, S.give(g, 1, "EX1_173"), ogre)
    assert stats(g, ogre) == (6, 2) and g.hand[1] == [top] and g.mana(1) == 4
