"""Healing that deals damage (Auchenai Soulpriest) and doubled damage and healing of spells
and the hero power (Prophet Velen): what damage() and heal() do with the controller's
HEALING_DOES_DAMAGE / SPELLPOWER_DOUBLE / SPELL_HEALING_DOUBLE / HERO_POWER_DOUBLE."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import HEALING_DOES_DAMAGE, SPELLPOWER_DOUBLE


def test_auchenai_heal_hits_undamaged_characters() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_591")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_089"), yeti)  # Holy Light 6 on a 4/5
    assert g.health(yeti) <= 0 and yeti not in g.board[2]


def test_auchenai_circle_of_healing_damages_every_minion_its_own_too() -> None:
    g = S.prepared(hero1="HERO_09")
    auchenai = S.summon(g, 1, "EX1_591")
    wisp = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_621"))
    assert g.health(auchenai) == 1 and wisp not in g.board[2]


def test_auchenai_lay_on_hands_deals_eight_and_still_draws() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_591")
    S.play(g, S.give(g, 1, "EX1_354"), g.hero[2])
    assert g.health(g.hero[2]) == 22 and len(g.hand[1]) == 3


def test_auchenai_is_only_its_controllers_and_silence_ends_it() -> None:
    g = S.prepared(hero1="HERO_09", hero2="HERO_09")
    auchenai = S.summon(g, 2, "EX1_591")
    S.hit(g, g.hero[1], 5)
    S.power(g, g.hero[1])  # player 1's heal is a heal
    assert g.health(g.hero[1]) == 27
    assert g.player_tag(2, HEALING_DOES_DAMAGE) == 1
    S.play(g, S.give(g, 1, "EX1_332"), auchenai)
    assert g.player_tag(2, HEALING_DOES_DAMAGE) == 0


def test_auchenai_follows_control() -> None:
    g = S.prepared(hero1="HERO_09")
    auchenai = S.summon(g, 2, "EX1_591")
    S.play(g, S.give(g, 1, "CS1_113"), auchenai)  # Mind Control
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "CS2_089"), g.hero[2])  # Holy Light now hurts
    assert g.health(g.hero[2]) == 24


def test_auchenai_heal_is_not_a_heal_event() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_591")
    S.summon(g, 1, "CS2_235")  # Northshire Cleric: draws on a healed minion
    yeti = S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 1)
    S.power(g, yeti)
    assert g.hand[1] == [] and g.health(yeti) == 2


def test_velen_doubles_spell_damage_after_spell_power() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_350")
    S.summon(g, 1, "CS2_142")  # Kobold Geomancer: Spell Damage +1
    ogre = S.summon(g, 2, "CS2_200")  # 6/7: Holy Smite (3 + 1) x 2 = 8 kills it
    S.play(g, S.give(g, 1, "CS1_130"), ogre)
    assert ogre not in g.board[2]
    S.play(g, S.give(g, 1, "DS1_233"))  # Mind Blast (5 + 1) x 2
    assert g.health(g.hero[2]) == 18


def test_two_velens_quadruple() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_350")
    S.summon(g, 1, "EX1_350")
    assert g.player_tag(1, SPELLPOWER_DOUBLE) == 2
    S.play(g, S.give(g, 1, "DS1_233"))
    assert g.health(g.hero[2]) == 10


def test_velen_doubles_hero_power_damage_and_each_missile() -> None:
    g = S.prepared(hero1="HERO_08")  # Mage: Fireblast
    S.summon(g, 1, "EX1_350")
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 28
    S.play(g, S.give(g, 1, "EX1_277"), 0)  # Arcane Missiles: 3 missiles of 2
    assert g.health(g.hero[2]) == 22


def test_velen_leaves_minion_damage_and_battlecry_healing_alone() -> None:
    g = S.prepared(hero1="HERO_09")
    velen = S.summon(g, 1, "EX1_350")
    S.attack(g, velen, g.hero[2])
    assert g.health(g.hero[2]) == 23
    S.hit(g, g.hero[1], 10)
    S.play(g, S.give(g, 1, "DS1_055"))  # Darkscale Healer: 2, not doubled (a minion)
    assert g.health(g.hero[1]) == 22


def test_velen_and_auchenai_double_once() -> None:
    # SabberStone: the heal is doubled, then dealt as damage (not doubled again).
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_350")
    S.summon(g, 1, "EX1_591")
    S.power(g, g.hero[2])  # Lesser Heal 2 -> 4 damage
    assert g.health(g.hero[2]) == 26
    S.play(g, S.give(g, 1, "EX1_624"), g.hero[2])  # Holy Fire: 10 damage + 10 "healing"
    assert g.health(g.hero[2]) == 16 and g.health(g.hero[1]) == 20


def test_hand_of_protection_then_faceless_copy_of_an_aura_buffed_minion() -> None:
    # The random-games failure "dead but still on the board": Faceless copying a damaged
    # minion whose Health came partly from an enemy aura made a copy with 0 Health that no
    # death phase looked at (transform_copy did not flag a possible death).
    g = S.prepared()
    S.summon(g, 1, "CS2_222")  # Stormwind Champion: +1/+1
    rhino = S.summon(g, 1, "DS1_178")  # Tundra Rhino 2/5 -> 3/6
    S.hit(g, rhino, 5)
    S.end_turn(g)
    faceless = S.give(g, 2, "EX1_564")
    S.play(g, faceless, rhino)
    assert faceless not in g.board[2]  # 5 damage copied onto a 2/5: dead at once
