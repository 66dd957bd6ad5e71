"""Warrior spells and Fiery War Axe."""

from __future__ import annotations

from hearth_cardtest import dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ARMOR, ATK, DIVINE_SHIELD, DURABILITY, Z_GRAVEYARD, ZONE


def test_cs2_108_execute() -> None:
    g = S.prepared(hero1="HERO_01")
    ogre = S.summon(g, 2, "CS2_200")
    hurt = S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_182")
    execute = S.give(g, 1, "CS2_108")
    assert play_targets(g, execute) == set()  # no damaged enemy minion: unplayable
    g.damage(g.hero[2], hurt, 1)
    g.damage(g.hero[2], mine, 1)
    g._legal = None
    assert play_targets(g, execute) == {hurt}
    S.play(g, execute, hurt)
    assert dead(g, hurt) and g.mana(1) == 8 and not dead(g, ogre)


def test_cs2_105_heroic_strike() -> None:
    g = S.prepared(hero1="HERO_01")
    hero = g.hero[1]
    S.play(g, S.give(g, 1, "CS2_105"))
    assert g.ents[hero][ATK] == 4 and g.attack_value(hero) == 4
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 26
    S.end_turn(g)
    assert g.ents[hero][ATK] == 0


def test_ex1_400_whirlwind() -> None:
    g = S.prepared(hero1="HERO_01")
    mine, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_400"))
    assert stats(g, mine) == (4, 4) and dead(g, theirs)
    assert g.health(g.hero[1]) == g.health(g.hero[2]) == 30  # minions only
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "EX1_400"))
    assert stats(g, mine) == (4, 2)  # 1 + 1 spell damage


def test_ex1_606_shield_block() -> None:
    g = S.prepared(hero1="HERO_01")
    top = g.deck[1][-1]
    S.play(g, S.give(g, 1, "EX1_606"))
    assert g.ents[g.hero[1]][ARMOR] == 5 and g.hand[1] == [top] and g.mana(1) == 7


def test_cs2_106_fiery_war_axe() -> None:
    g = S.prepared(hero1="HERO_01")
    axe = S.give(g, 1, "CS2_106")
    S.play(g, axe)
    hero = g.hero[1]
    assert g.mana(1) == 7 and g.weapon[1] == axe  # cost 3 in patch 17.6
    assert g.ents[axe][ATK] == 3 and g.ents[axe][DURABILITY] == 2
    S.attack(g, hero, g.hero[2])
    S.end_turn(g)
    S.end_turn(g)
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 24
    assert g.weapon[1] == 0 and g.ents[axe][ZONE] == Z_GRAVEYARD


def test_cs2_108_execute_ignores_divine_shield() -> None:
    g = S.prepared()
    senjin = S.summon(g, 2, "CS2_179")
    g.damage(g.hero[1], senjin, 1)
    g._set(g.ents[senjin], DIVINE_SHIELD, 1)  # a damaged minion that (still) has a shield
    S.play(g, S.give(g, 1, "CS2_108"), senjin)
    assert dead(g, senjin)


# ------------------------------------------------------------------------------ (card-c)


def test_cs2_114_cleave() -> None:
    g = S.prepared(hero1="HERO_01")
    cleave = S.give(g, 1, "CS2_114")
    assert play_targets(g, cleave) == set()  # no enemy minion: not castable
    a = S.summon(g, 2, "CS2_182")
    assert play_targets(g, cleave) == {0}  # one is enough (patch 14.6, SabberStone)
    S.play(g, cleave)
    assert stats(g, a) == (4, 3) and g.health(g.hero[2]) == 30
    b, c = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_182")
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "CS2_114"))
    hurt = [g.health(i) for i in (a, b, c)]
    assert sorted(hurt).count(5) == 1  # two distinct minions, 2 + 1 spell damage each
    assert sum(5 - h for h in hurt) == 2 + 6


def test_ex1_084_warsong_commander() -> None:
    g = S.prepared(hero1="HERO_01")
    raider, boar = S.summon(g, 1, "CS2_168"), S.summon(g, 1, "CS2_171")
    wc = S.give(g, 1, "EX1_084")
    S.play(g, wc)
    assert stats(g, wc) == (2, 3) and stats(g, raider) == (2, 1) and stats(g, boar) == (2, 1)
    wolf = S.give(g, 1, "CS2_124")
    S.play(g, wolf)
    assert stats(g, wolf) == (4, 1)
    S.play(g, S.give(g, 1, "EX1_332"), boar)  # silenced: no Charge, no bonus
    assert stats(g, boar) == (1, 1)
    S.play(g, S.give(g, 1, "CS2_039"), raider)  # Windfury is not Charge: no bonus
    assert stats(g, raider) == (2, 1)


def test_ex1_084e_charge() -> None:
    g = S.prepared()
    boar = S.summon(g, 1, "CS2_171")
    wc = S.summon(g, 1, "EX1_084")
    assert stats(g, boar) == (2, 1)
    S.play(g, S.give(g, 1, "CS2_029"), wc)
    assert stats(g, boar) == (1, 1)


def test_cs2_112_arcanite_reaper() -> None:
    g = S.prepared(hero1="HERO_01")
    reaper = S.give(g, 1, "CS2_112")
    S.play(g, reaper)
    assert g.weapon[1] == reaper and g.mana(1) == 5
    assert g.ents[reaper][ATK] == 5 and g.ents[reaper][DURABILITY] == 2
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 25


def test_new1_011_kor_kron_elite() -> None:
    g = S.prepared(hero1="HERO_01")
    kk = S.give(g, 1, "NEW1_011")
    S.play(g, kk)
    assert stats(g, kk) == (4, 3) and g.mana(1) == 6
    S.attack(g, kk, g.hero[2])
    assert g.health(g.hero[2]) == 26
