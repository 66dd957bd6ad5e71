"""Neutral battlecry minions, one scenario each (fireplace style: set up, play, assert)."""

from __future__ import annotations

from hearth_cardtest import atk, can_attack, card_ids, dead, in_play, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import (
    ATTACHED,
    DAMAGE,
    EXHAUSTED,
    SCRIPT_DATA_NUM_1,
    TAUNT,
    Z_GRAVEYARD,
    Z_HAND,
    ZONE,
)


def test_cs2_189_elven_archer() -> None:
    g = S.prepared()
    ally = S.summon(g, 1, "CS2_231")
    wisp = S.summon(g, 2, "CS2_231")
    archer = S.give(g, 1, "CS2_189")
    # Any character may be chosen; a target always exists (the heroes), so none is optional.
    assert play_targets(g, archer) == {g.hero[1], g.hero[2], ally, wisp}
    S.play(g, archer, wisp)
    assert dead(g, wisp) and stats(g, archer) == (1, 1) and g.mana(1) == 9
    archer2 = S.give(g, 1, "CS2_189")
    S.play(g, archer2, g.hero[2])
    assert g.health(g.hero[2]) == 29


def test_ex1_019_shattered_sun_cleric() -> None:
    g = S.prepared()
    enemy = S.summon(g, 2, "CS2_182")
    cleric = S.give(g, 1, "EX1_019")
    assert play_targets(g, cleric) == {0}  # no friendly minion: played without a target
    S.play(g, cleric)
    assert stats(g, cleric) == (3, 2)
    yeti = S.summon(g, 1, "CS2_182")
    cleric2 = S.give(g, 1, "EX1_019")
    assert play_targets(g, cleric2) == {cleric, yeti}  # friendly minions only
    assert enemy not in play_targets(g, cleric2)
    S.play(g, cleric2, yeti)
    assert stats(g, yeti) == (5, 6)
    (ench,) = [i for i in g.enchants if g.ents[i][ATTACHED] == yeti]
    assert g.ents[ench].card.id == "EX1_019e"


def test_ex1_506_murloc_tidehunter() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    b = S.summon(g, 1, "CS2_231")
    tide = S.give(g, 1, "EX1_506")
    S.play(g, tide, position=1)
    assert card_ids(g, g.board[1]) == ["CS2_231", "EX1_506", "EX1_506a", "CS2_231"]
    assert g.board[1][0] == a and g.board[1][3] == b
    scout = g.board[1][2]
    assert stats(g, scout) == (1, 1) and not can_attack(g, scout)


def test_cs2_196_razorfen_hunter() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_231")
    hunter = S.give(g, 1, "CS2_196")
    S.play(g, hunter, position=0)
    assert card_ids(g, g.board[1]) == ["CS2_196", "CS2_boar", "CS2_231"]
    assert stats(g, hunter) == (2, 3) and stats(g, g.board[1][1]) == (1, 1)


def test_cs2_226_frostwolf_warlord() -> None:
    g = S.prepared()
    alone = S.give(g, 1, "CS2_226")
    S.play(g, alone)
    assert stats(g, alone) == (4, 4)
    g2 = S.prepared()
    for _ in range(2):
        S.summon(g2, 1, "CS2_231")
    S.summon(g2, 2, "CS2_231")  # enemy minions do not count
    warlord = S.give(g2, 1, "CS2_226")
    S.play(g2, warlord)
    assert stats(g2, warlord) == (6, 6)
    (ench,) = [i for i in g2.enchants if g2.ents[i][ATTACHED] == warlord]
    assert g2.ents[ench].card.id == "CS2_226e" and g2.ents[ench][SCRIPT_DATA_NUM_1] == 2


def test_ex1_015_novice_engineer() -> None:
    g = S.prepared()
    top = g.deck[1][-1]
    engineer = S.give(g, 1, "EX1_015")
    S.play(g, engineer)
    assert g.hand[1] == [top] and g.ents[top][ZONE] == Z_HAND
    assert stats(g, engineer) == (1, 1) and g.mana(1) == 8


def test_ex1_066_acidic_swamp_ooze() -> None:
    g = S.prepared(hero1="HERO_01", hero2="HERO_01")
    S.end_turn(g)
    axe = S.give(g, 2, "CS2_106")
    S.play(g, axe)
    S.end_turn(g)
    own_axe = S.give(g, 1, "CS2_106")
    S.play(g, own_axe)
    ooze = S.give(g, 1, "EX1_066")
    S.play(g, ooze)
    assert g.weapon[2] == 0 and g.ents[axe][ZONE] == Z_GRAVEYARD
    assert g.weapon[1] == own_axe  # only the opponent's weapon
    assert stats(g, ooze) == (3, 2)
    ooze2 = S.give(g, 1, "EX1_066")
    S.play(g, ooze2)  # no enemy weapon: nothing happens
    assert in_play(g, ooze2) and g.weapon[1] == own_axe


def test_cs2_188_abusive_sergeant() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    enemy = S.summon(g, 2, "CS2_231")
    sergeant = S.give(g, 1, "CS2_188")
    assert play_targets(g, sergeant) == {yeti, enemy}  # any minion, no heroes
    S.play(g, sergeant, yeti)
    assert atk(g, yeti) == 6
    S.attack(g, yeti, g.hero[2])
    assert g.health(g.hero[2]) == 24
    S.end_turn(g)
    assert atk(g, yeti) == 4  # +2 this turn only
    sergeant2 = S.give(g, 2, "CS2_188")
    S.play(g, sergeant2, yeti)  # the opponent's minion may be chosen too
    assert atk(g, yeti) == 6
    S.end_turn(g)
    assert atk(g, yeti) == 4


def test_ds1_055_darkscale_healer() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    enemy = S.summon(g, 2, "CS2_182")
    for t in (g.hero[1], yeti, enemy, g.hero[2]):
        g.damage(g.hero[2], t, 3)
    healer = S.give(g, 1, "DS1_055")
    S.play(g, healer)
    assert g.health(g.hero[1]) == 29 and g.health(yeti) == 4
    assert g.health(enemy) == 2 and g.health(g.hero[2]) == 27  # enemies are not healed
    assert stats(g, healer) == (4, 5)


def test_cs2_203_ironbeak_owl() -> None:
    g = S.prepared()
    senjin = S.summon(g, 2, "CS2_179")
    owl = S.give(g, 1, "CS2_203")
    assert play_targets(g, owl) == {senjin}  # minions only
    S.play(g, owl, senjin)
    assert g.ents[senjin][TAUNT] == 0
    assert stats(g, owl) == (2, 1)
    boar = S.summon(g, 1, "CS2_171")
    assert g.hero[2] in {a.target for a in g.legal_actions() if a.entity == boar}


def test_ex1_564_faceless_manipulator() -> None:
    g = S.prepared()
    alone = S.give(g, 1, "EX1_564")
    assert play_targets(g, alone) == {0}  # no minion: a plain 3/3
    S.play(g, alone)
    assert g.ents[alone].card.id == "EX1_564" and stats(g, alone) == (3, 3)
    ogre = S.summon(g, 2, "CS2_200")
    g.damage(g.hero[1], ogre, 2)
    faceless = S.give(g, 1, "EX1_564")
    S.play(g, faceless, ogre)  # an enemy minion may be copied
    assert g.ents[faceless].card.id == "CS2_200" and g.board[1][-1] == faceless
    assert stats(g, faceless) == (6, 5) and g.ents[faceless][DAMAGE] == 2
    assert g.ents[faceless][EXHAUSTED] == 1 and not can_attack(g, faceless)
