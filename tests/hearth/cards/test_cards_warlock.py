"""Warlock Basic cards and Life Tap."""

from __future__ import annotations

from hearth_cardtest import dead, in_play, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ATTACHED, TAUNT, Z_GRAVEYARD, ZONE


def test_hero_07bp_life_tap() -> None:
    g = S.prepared(hero1="HERO_07")
    top = g.deck[1][-1]
    S.summon(g, 1, "CS2_142")  # spell damage does not apply to the hero power
    S.power(g)
    assert g.hand[1] == [top] and g.health(g.hero[1]) == 28 and g.mana(1) == 8


def test_cs2_065_voidwalker() -> None:
    g = S.prepared()
    vw = S.give(g, 1, "CS2_065")
    S.play(g, vw)
    assert stats(g, vw) == (1, 3) and g.ents[vw][TAUNT] == 1 and g.mana(1) == 9


def test_cs2_057_shadow_bolt() -> None:
    g = S.prepared()
    ogre = S.summon(g, 2, "CS2_200")
    sb = S.give(g, 1, "CS2_057")
    assert play_targets(g, sb) == {ogre}
    S.summon(g, 1, "CS2_142")
    S.play(g, sb, ogre)
    assert stats(g, ogre) == (6, 2)


def test_cs2_061_drain_life() -> None:
    g = S.prepared()
    S.hit(g, g.hero[1], 5)
    yeti = S.summon(g, 2, "CS2_182")
    dl = S.give(g, 1, "CS2_061")
    assert play_targets(g, dl) == {g.hero[1], g.hero[2], yeti}
    S.play(g, dl, g.hero[2])
    assert g.health(g.hero[2]) == 28 and g.health(g.hero[1]) == 27
    S.play(g, S.give(g, 1, "CS2_061"), yeti)
    assert g.health(yeti) == 3 and g.health(g.hero[1]) == 29


def test_cs2_062_hellfire() -> None:
    g = S.prepared()
    mine, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_231")
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "CS2_062"))
    assert g.health(g.hero[1]) == g.health(g.hero[2]) == 26  # 3 + 1 spell damage
    assert stats(g, mine) == (4, 1) and dead(g, theirs)


def test_cs2_064_dread_infernal() -> None:
    g = S.prepared()
    mine, theirs = S.summon(g, 1, "CS2_231"), S.summon(g, 2, "CS2_182")
    di = S.give(g, 1, "CS2_064")
    S.play(g, di)
    assert stats(g, di) == (6, 6) and dead(g, mine) and stats(g, theirs) == (4, 4)
    assert g.health(g.hero[1]) == g.health(g.hero[2]) == 29


def test_cs2_063_corruption() -> None:
    g = S.prepared()
    mine, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_182")
    c = S.give(g, 1, "CS2_063")
    assert play_targets(g, c) == {theirs} and mine
    S.play(g, c, theirs)
    S.end_turn(g)
    assert in_play(g, theirs)
    S.end_turn(g)
    assert dead(g, theirs)


def test_cs2_063e_corruption() -> None:
    g = S.prepared()
    theirs = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_063"), theirs)
    (ench,) = [i for i in g.enchants if g.ents[i][ATTACHED] == theirs]
    assert g.ents[ench].card.id == "CS2_063e" and g.controller_of(ench) == 1
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[ench][ZONE] == Z_GRAVEYARD


def test_ex1_302_mortal_coil() -> None:
    g = S.prepared()
    wisp, yeti = S.summon(g, 2, "CS2_231"), S.summon(g, 2, "CS2_182")
    mc = S.give(g, 1, "EX1_302")
    assert play_targets(g, mc) == {wisp, yeti}
    S.play(g, mc, yeti)
    assert g.health(yeti) == 4 and g.hand[1] == []  # survived: no card
    top = g.deck[1][-1]
    S.play(g, S.give(g, 1, "EX1_302"), wisp)
    assert dead(g, wisp) and g.hand[1] == [top]
    squire = S.summon(g, 2, "EX1_008")  # Divine Shield: no damage, no kill, no card
    S.play(g, S.give(g, 1, "EX1_302"), squire)
    assert in_play(g, squire) and g.hand[1] == [top]


def test_ex1_306_felstalker() -> None:
    g = S.prepared()
    a, b = S.give(g, 1, "CS2_231"), S.give(g, 1, "CS2_182")
    fs = S.give(g, 1, "EX1_306")
    S.play(g, fs)
    assert stats(g, fs) == (4, 3) and len(g.hand[1]) == 1
    assert {g.ents[a][ZONE], g.ents[b][ZONE]} >= {Z_GRAVEYARD}


def test_ex1_308_soulfire() -> None:
    g = S.prepared()
    keep = S.give(g, 1, "CS2_231")
    sf = S.give(g, 1, "EX1_308")
    S.summon(g, 1, "CS2_142")
    S.play(g, sf, g.hero[2])
    assert g.health(g.hero[2]) == 25 and g.mana(1) == 9
    assert g.hand[1] == [] and g.ents[keep][ZONE] == Z_GRAVEYARD
    S.play(g, S.give(g, 1, "EX1_308"), g.hero[2])  # empty hand: still castable
    assert g.health(g.hero[2]) == 20


def test_new1_003_sacrificial_pact() -> None:
    g = S.prepared()
    S.hit(g, g.hero[1], 10)
    vw, yeti = S.summon(g, 1, "CS2_065"), S.summon(g, 1, "CS2_182")
    enemy_vw = S.summon(g, 2, "CS2_065")
    sp = S.give(g, 1, "NEW1_003")
    assert play_targets(g, sp) == {vw} and yeti and enemy_vw  # a friendly Demon only
    S.play(g, sp, vw)
    assert dead(g, vw) and g.health(g.hero[1]) == 25
    assert play_targets(g, S.give(g, 1, "NEW1_003")) == set()  # no Demon: not castable
