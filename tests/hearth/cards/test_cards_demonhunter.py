"""Demon Hunter Basic cards, Demon Claws and tokens; Charge (Warrior) and Humility (Paladin)."""

from __future__ import annotations

from hearth_cardtest import attack_targets, can_attack, card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ATK, CANNOT_ATTACK_HEROES, CHARGE, RUSH

YETI, WISP = "CS2_182", "CS2_231"


def test_hero_10bp_demon_claws_hero_10bpe() -> None:
    g = S.prepared(hero1="HERO_10")
    hero = g.hero[1]
    S.power(g)
    assert g.attack_value(hero) == 1 and g.mana(1) == 9
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 29
    S.end_turn(g)
    assert g.ents[hero][ATK] == 0


def test_bt_035_chaos_strike_bt_035e() -> None:
    g = S.prepared(hero1="HERO_10")
    top = g.deck[1][-1]
    S.play(g, S.give(g, 1, "BT_035"))
    assert g.attack_value(g.hero[1]) == 2 and g.hand[1] == [top]
    S.end_turn(g)
    assert g.attack_value(g.hero[1]) == 0


def test_bt_036_coordinated_strike_bt_036t() -> None:
    g = S.prepared(hero1="HERO_10")
    S.play(g, S.give(g, 1, "BT_036"))
    assert card_ids(g, g.board[1]) == ["BT_036t"] * 3
    t = g.board[1][0]
    assert stats(g, t) == (1, 1) and g.ents[t][RUSH] == 1
    assert not can_attack(g, t)  # Rush, no enemy minion: nothing to attack
    enemy = S.summon(g, 2, WISP)
    assert can_attack(g, t) and attack_targets(g, t) == {enemy}
    for _ in range(3):
        S.summon(g, 1, WISP)
    S.play(g, S.give(g, 1, "BT_036"))  # six minions: only one more fits
    assert len(g.board[1]) == 7
    assert play_targets(g, S.give(g, 1, "BT_036")) == set()  # full board


def test_bt_142_shadowhoof_slayer_bt_142e() -> None:
    g = S.prepared(hero1="HERO_10")
    slayer = S.give(g, 1, "BT_142")
    S.play(g, slayer)
    assert stats(g, slayer) == (2, 1) and g.attack_value(g.hero[1]) == 1
    S.end_turn(g)
    assert g.attack_value(g.hero[1]) == 0


def test_bt_235_chaos_nova() -> None:
    g = S.prepared(hero1="HERO_10")
    mine, yeti, ogre = S.summon(g, 1, YETI), S.summon(g, 2, YETI), S.summon(g, 2, "CS2_200")
    S.play(g, S.give(g, 1, "BT_235"))
    assert stats(g, mine) == (4, 1) and stats(g, yeti) == (4, 1) and stats(g, ogre) == (6, 3)
    assert g.health(g.hero[1]) == g.health(g.hero[2]) == 30


def test_bt_352_satyr_overseer_bt_352t() -> None:
    g = S.prepared(hero1="HERO_10")
    satyr = S.summon(g, 1, "BT_352")
    S.attack(g, satyr, g.hero[2])
    assert card_ids(g, g.board[1]) == ["BT_352"]  # its own attack does not count
    S.power(g)
    S.attack(g, g.hero[1], g.hero[2])
    assert card_ids(g, g.board[1]) == ["BT_352", "BT_352t"]
    assert stats(g, g.board[1][1]) == (2, 2)


def test_bt_512_inner_demon_bt_512e() -> None:
    g = S.prepared(hero1="HERO_10")
    S.play(g, S.give(g, 1, "BT_512"))
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 22
    S.end_turn(g)
    assert g.attack_value(g.hero[1]) == 0


def test_bt_740_soul_cleave() -> None:
    g = S.prepared(hero1="HERO_10")
    S.hit(g, g.hero[1], 10)
    cleave = S.give(g, 1, "BT_740")
    assert play_targets(g, cleave) == set()  # no enemy minion
    a, b, c = S.summon(g, 2, YETI), S.summon(g, 2, YETI), S.summon(g, 2, YETI)
    S.play(g, cleave)
    assert sorted(g.health(m) for m in (a, b, c)) == [3, 3, 5]
    assert g.health(g.hero[1]) == 24  # Lifesteal: 2 + 2
    g2 = S.prepared(hero1="HERO_10")
    S.hit(g2, g2.hero[1], 10)
    wisp = S.summon(g2, 2, WISP)
    # One minion: hit once; the 2 damage dealt heal 2 (overkill counts, as in the game).
    S.play(g2, S.give(g2, 1, "BT_740"))
    assert dead(g2, wisp) and g2.health(g2.hero[1]) == 22


def test_bt_921_aldrachi_warblades() -> None:
    g = S.prepared(hero1="HERO_10")
    S.hit(g, g.hero[1], 10)
    S.play(g, S.give(g, 1, "BT_921"))
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 28 and g.health(g.hero[1]) == 22


def test_cs2_103_charge_cs2_103e2() -> None:
    g = S.prepared(hero1="HERO_01")
    yeti = S.summon(g, 1, YETI, ready=False)
    enemy = S.summon(g, 2, WISP)
    charge = S.give(g, 1, "CS2_103")
    assert play_targets(g, charge) == {yeti}  # a friendly minion
    S.play(g, charge, yeti)
    assert g.ents[yeti][CHARGE] == 1 and attack_targets(g, yeti) == {enemy}  # not the hero
    S.end_turn(g)
    assert g.ents[yeti][CANNOT_ATTACK_HEROES] == 0
    S.end_turn(g)
    assert attack_targets(g, yeti) == {g.hero[2], enemy}


def test_ex1_360_humility_ex1_360e() -> None:
    g = S.prepared()
    ogre = S.summon(g, 2, "CS2_200")
    humility = S.give(g, 1, "EX1_360")
    assert play_targets(g, humility) == {ogre}
    S.play(g, humility, ogre)
    assert stats(g, ogre) == (1, 7)
    S.summon(g, 2, "CS2_122")  # Raid Leader's aura applies on top: 2
    assert stats(g, ogre) == (2, 7)
    S.play(g, S.give(g, 1, "EX1_332"), ogre)  # Silence undoes it
    assert stats(g, ogre) == (7, 7)


def test_bt_495_glaivebound_adept() -> None:
    g = S.prepared(hero1="HERO_10")
    yeti = S.summon(g, 2, YETI)
    adept = S.give(g, 1, "BT_495")
    assert play_targets(g, adept) == {0}  # the hero has not attacked: no target
    S.power(g)
    S.attack(g, g.hero[1], yeti)
    assert play_targets(g, adept) == {g.hero[1], g.hero[2], yeti}
    S.play(g, adept, g.hero[2])
    assert g.health(g.hero[2]) == 26 and stats(g, adept) == (6, 4)
    S.end_turn(g)
    S.end_turn(g)
    again = S.give(g, 1, "BT_495")
    assert play_targets(g, again) == {0}  # a new turn: not attacked yet
