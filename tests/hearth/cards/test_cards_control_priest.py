"""Priest Classic cards of helper "control", one scenario per card id (their rules:
tests/hearth/test_rules_heal_modifiers.py)."""

from __future__ import annotations

from hearth_cardtest import dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import HEALTH, SILENCED, TAUNT


def test_cs1_129_inner_fire_and_cs1_129e_attack_equals_health() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 1, "CS2_182")  # 4/5
    S.hit(g, yeti, 2)
    S.play(g, S.give(g, 1, "CS1_129"), yeti)
    assert stats(g, yeti) == (3, 3)  # the current Health, not the maximum
    S.play(g, S.give(g, 1, "EX1_332"), yeti)  # Silence undoes CS1_129e
    assert stats(g, yeti) == (4, 3)


def test_cs2_235_northshire_cleric_draws_per_healed_minion() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "CS2_235")
    a = S.summon(g, 1, "CS2_182")
    b = S.summon(g, 2, "CS2_182")
    S.hit(g, a, 1)
    S.hit(g, b, 1)
    S.hit(g, g.hero[1], 1)
    S.play(g, S.give(g, 1, "EX1_621"))  # Circle of Healing: two damaged minions
    assert len(g.hand[1]) == 2
    S.power(g, g.hero[1])  # a hero healed: no card
    assert len(g.hand[1]) == 2


def test_cs2_236_divine_spirit_and_cs2_236e_double_current_health() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 1, "CS2_182")
    S.hit(g, yeti, 1)
    S.play(g, S.give(g, 1, "CS2_236"), yeti)
    assert stats(g, yeti) == (4, 8) and g.ents[yeti][HEALTH] == 9


def test_ds1_233_mind_blast_hits_the_enemy_hero_with_spell_damage() -> None:
    g = S.prepared(hero1="HERO_09")
    S.play(g, S.give(g, 1, "DS1_233"))
    assert g.health(g.hero[2]) == 25
    S.summon(g, 1, "CS2_142")  # Kobold Geomancer: Spell Damage +1
    S.play(g, S.give(g, 1, "DS1_233"))
    assert g.health(g.hero[2]) == 19


def test_ex1_195_kul_tiran_chaplain_and_ex1_195e_plus_two_health() -> None:
    g = S.prepared(hero1="HERO_09")
    wisp = S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_231")
    chaplain = S.give(g, 1, "EX1_195")
    assert play_targets(g, chaplain) == {wisp}  # friendly only
    S.play(g, chaplain, wisp)
    assert stats(g, wisp) == (1, 3) and stats(g, enemy) == (1, 1)


def test_ex1_197_shadow_word_ruin_destroys_five_attack_or_more() -> None:
    g = S.prepared(hero1="HERO_09")
    ogre = S.summon(g, 2, "CS2_200")  # 6/7
    golem = S.summon(g, 1, "CS2_186")  # War Golem 7/7
    yeti = S.summon(g, 2, "CS2_182")  # 4/5
    S.play(g, S.give(g, 1, "EX1_197"))
    assert dead(g, ogre) and dead(g, golem) and not dead(g, yeti)


def test_ex1_198_natalie_seline_and_ex1_198e_gain_its_health() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 1)
    natalie = S.give(g, 1, "EX1_198")
    S.play(g, natalie, yeti)
    assert dead(g, yeti) and stats(g, natalie) == (8, 5)  # 8/1 + the Yeti's 4 Health


def test_ex1_341_lightwell_heals_a_damaged_friendly_character() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_341")
    S.hit(g, g.hero[1], 5)
    S.end_turn(g)
    S.end_turn(g)
    assert g.health(g.hero[1]) == 28  # the only damaged friendly character
    S.end_turn(g)
    S.end_turn(g)
    assert g.health(g.hero[1]) == 30


def test_ex1_350_prophet_velen_doubles_spells_and_hero_power() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_350")
    S.play(g, S.give(g, 1, "DS1_233"))  # Mind Blast 5 -> 10
    assert g.health(g.hero[2]) == 20
    S.hit(g, g.hero[1], 10)
    S.power(g, g.hero[1])  # Lesser Heal 2 -> 4
    assert g.health(g.hero[1]) == 24
    S.play(g, S.give(g, 1, "EX1_624"), g.hero[2])  # Holy Fire: 10 damage, 10 healing
    assert g.health(g.hero[2]) == 10 and g.health(g.hero[1]) == 30


def test_ex1_591_auchenai_soulpriest_turns_healing_into_damage() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "EX1_591")
    S.power(g, g.hero[2])  # Lesser Heal on an undamaged hero: 2 damage
    assert g.health(g.hero[2]) == 28
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_621"))  # Circle of Healing: 4 to every minion
    assert stats(g, yeti) == (4, 1)


def test_ex1_621_circle_of_healing_heals_all_minions() -> None:
    g = S.prepared(hero1="HERO_09")
    a = S.summon(g, 1, "CS2_182")
    b = S.summon(g, 2, "CS2_200")
    S.hit(g, a, 3)
    S.hit(g, b, 6)
    S.hit(g, g.hero[1], 3)
    S.play(g, S.give(g, 1, "EX1_621"))
    assert g.health(a) == 5 and g.health(b) == 5 and g.health(g.hero[1]) == 27


def test_ex1_623_temple_enforcer_and_ex1_623e_plus_three_health() -> None:
    g = S.prepared(hero1="HERO_09")
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_623"), wisp)
    assert stats(g, wisp) == (1, 4)


def test_ex1_624_holy_fire_damages_and_heals_the_hero() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 2, "CS2_200")  # 6/7
    S.hit(g, g.hero[1], 8)
    S.play(g, S.give(g, 1, "EX1_624"), yeti)
    assert g.health(yeti) == 2 and g.health(g.hero[1]) == 27


def test_ex1_626_mass_dispel_silences_enemies_and_draws() -> None:
    g = S.prepared(hero1="HERO_09")
    enemy = S.summon(g, 2, "CS2_179")  # Sen'jin Shieldmasta: Taunt
    mine = S.summon(g, 1, "CS2_179")
    S.play(g, S.give(g, 1, "EX1_626"))
    assert g.ents[enemy][TAUNT] == 0 and g.ents[enemy][SILENCED] == 1
    assert g.ents[mine][TAUNT] == 1 and len(g.hand[1]) == 1


def test_ex1_196_scarlet_subjugator_and_ex1_196e_minus_two_until_next_turn() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    subjugator = S.give(g, 1, "EX1_196")
    assert play_targets(g, subjugator) == {yeti}  # enemy minions only
    S.play(g, subjugator, yeti)
    assert stats(g, yeti) == (2, 5) and stats(g, mine) == (1, 1)
    S.end_turn(g)
    assert stats(g, yeti) == (2, 5)  # through the opponent's turn
    S.end_turn(g)
    assert stats(g, yeti) == (4, 5)  # gone at the start of the caster's turn


def test_ex1_196_scarlet_subjugator_never_below_zero_attack() -> None:
    g = S.prepared(hero1="HERO_09")
    raid = S.summon(g, 2, "CS2_122")  # Raid Leader: +1 Attack to the others
    wisp = S.summon(g, 2, "CS2_231")  # 1 Attack, 2 with the aura
    S.play(g, S.give(g, 1, "EX1_196"), wisp)
    assert stats(g, wisp) == (1, 1)  # only its own 1 Attack can go
    g.destroy(raid)
    S.resolve(g)
    assert stats(g, wisp) == (0, 1)
    S.end_turn(g)
    S.end_turn(g)
    assert stats(g, wisp) == (1, 1)
