"""Cross-card interactions of the Basic set: copies, transforms and silences of minions that
carry auras or triggers, and triggers fired by every kind of summon."""

from __future__ import annotations

from hearth_cardtest import atk, dead, stats

from games.hearth import scenario as S
from games.hearth.enums import DIVINE_SHIELD, FROZEN, SILENCED


def test_ex1_564_faceless_copy_of_raid_leader_has_the_aura() -> None:
    g = S.prepared()
    leader = S.summon(g, 1, "CS2_122")
    wisp = S.summon(g, 1, "CS2_231")
    assert atk(g, wisp) == 2
    faceless = S.give(g, 1, "EX1_564")
    S.play(g, faceless, leader)
    assert atk(g, wisp) == 3  # two Raid Leaders now
    assert atk(g, faceless) == 3 and atk(g, leader) == 3  # each buffs the other


def test_ex1_564_faceless_copy_of_an_enemy_does_not_keep_enemy_aura_bonuses() -> None:
    g = S.prepared()
    S.summon(g, 2, "CS2_222")
    yeti = S.summon(g, 2, "CS2_182")
    assert stats(g, yeti) == (5, 6)
    faceless = S.give(g, 1, "EX1_564")
    S.play(g, faceless, yeti)
    assert stats(g, faceless) == (4, 5)


def test_ex1_564_faceless_copy_of_a_damaged_amani_is_enraged() -> None:
    g = S.prepared()
    amani = S.summon(g, 2, "EX1_393")
    S.power(g, amani)
    assert stats(g, amani) == (5, 2)
    faceless = S.give(g, 1, "EX1_564")
    S.play(g, faceless, amani)
    assert stats(g, faceless) == (5, 2)


def test_cs2_022_polymorph_of_an_aura_source_removes_its_aura() -> None:
    g = S.prepared()
    leader = S.summon(g, 2, "CS2_122")
    wisp = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_022"), leader)
    assert atk(g, wisp) == 1 and stats(g, leader) == (1, 1)


def test_ex1_332_silence_on_dire_wolf_removes_the_neighbour_bonus() -> None:
    g = S.prepared(hero1="HERO_09")
    a = S.summon(g, 2, "CS2_231")
    wolf = S.summon(g, 2, "EX1_162")
    assert atk(g, a) == 2
    S.play(g, S.give(g, 1, "EX1_332"), wolf)
    assert atk(g, a) == 1 and atk(g, wolf) == 2


def test_ex1_332_silence_on_gurubashi_removes_the_stacks() -> None:
    g = S.prepared()
    berserker = S.summon(g, 2, "EX1_399")
    S.power(g, berserker)  # Fireblast
    assert stats(g, berserker) == (5, 6)
    S.play(g, S.give(g, 1, "EX1_332"), berserker)
    assert stats(g, berserker) == (2, 6)
    g.damage(g.hero[1], berserker, 1)
    g._deaths()
    assert stats(g, berserker) == (2, 5)


def test_cs2_142_enemy_spell_damage_does_not_help_me() -> None:
    g = S.prepared()
    S.summon(g, 2, "CS2_142")
    S.play(g, S.give(g, 1, "EX1_277"))
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    kobold = g.board[2][0]
    damage_done = (30 - g.health(g.hero[2])) + (2 - g.health(kobold))
    assert damage_done == 3 + 6


def test_new1_019_knife_juggler_reacts_to_reinforce_and_deathrattle_summons() -> None:
    g = S.prepared(hero1="HERO_04")
    golem = S.summon(g, 1, "EX1_556")
    S.summon(g, 1, "NEW1_019")
    S.power(g)  # Reinforce
    assert g.health(g.hero[2]) == 29
    g.destroy(golem)
    g._deaths()  # Harvest Golem's Damaged Golem
    assert g.health(g.hero[2]) == 28


def test_cs2_226_frostwolf_warlord_does_not_change_later() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    warlord = S.give(g, 1, "CS2_226")
    S.play(g, warlord)
    assert stats(g, warlord) == (5, 5)
    S.power(g, a)
    S.summon(g, 1, "CS2_231")
    S.summon(g, 1, "CS2_231")
    assert dead(g, a) and stats(g, warlord) == (5, 5)


def test_ex1_007_acolyte_buffed_by_power_word_shield_draws_per_damage() -> None:
    g = S.prepared()
    acolyte = S.summon(g, 2, "EX1_007")
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_004"), acolyte)  # Power Word: Shield: 1/5
    S.end_turn(g)
    hand = len(g.hand[2])
    S.play(g, S.give(g, 1, "CS2_025"))  # Arcane Explosion: one damage instance
    assert stats(g, acolyte) == (1, 4) and len(g.hand[2]) == hand + 1


def test_ex1_564_faceless_copies_silence_freeze_and_a_popped_shield() -> None:
    g = S.prepared()
    hoarder = S.summon(g, 2, "EX1_096")
    squire = S.summon(g, 2, "EX1_008")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_332"), hoarder)  # silenced Loot Hoarder
    S.power(g, squire)  # shield popped
    S.play(g, S.give(g, 1, "CS2_024"), yeti)  # frozen, 3 damage
    copies = []
    for target in (hoarder, squire, yeti):
        S.set_mana(g, 1, 10)
        faceless = S.give(g, 1, "EX1_564")
        S.play(g, faceless, target)
        copies.append(faceless)
    c_hoarder, c_squire, c_yeti = copies
    assert g.ents[c_hoarder][SILENCED] == 1
    assert g.ents[c_squire][DIVINE_SHIELD] == 0
    assert g.ents[c_yeti][FROZEN] == 1 and stats(g, c_yeti) == (4, 2)
    hand = len(g.hand[1])
    g.destroy(c_hoarder)
    g._deaths()
    assert dead(g, c_hoarder) and len(g.hand[1]) == hand  # a silenced copy: no deathrattle
