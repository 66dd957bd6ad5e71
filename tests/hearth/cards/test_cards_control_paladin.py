"""Paladin Classic cards of helper "control", one scenario per card id."""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import DAMAGE, DIVINE_SHIELD, DURABILITY, TAUNT, Z_SECRET, ZONE


def test_ex1_184_righteousness_shields_friendly_minions_only() -> None:
    g = S.prepared(hero1="HERO_04")
    a, b = S.summon(g, 1, "CS2_182"), S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_184"))
    assert g.ents[a][DIVINE_SHIELD] == 1 and g.ents[b][DIVINE_SHIELD] == 1
    assert g.ents[enemy][DIVINE_SHIELD] == 0
    assert S.hit(g, b, 5) == 0 and not dead(g, b)


def test_ex1_349_divine_favor_draws_up_to_the_opponents_hand() -> None:
    g = S.prepared(hero1="HERO_04")
    for _ in range(5):
        S.give(g, 2, "CS2_231")
    S.give(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_349"))
    assert len(g.hand[1]) == 5
    S.play(g, S.give(g, 1, "EX1_349"))  # 6 against 5: nothing
    assert len(g.hand[1]) == 5


def test_ex1_354_lay_on_hands_heals_eight_and_draws_three() -> None:
    g = S.prepared(hero1="HERO_04")
    S.hit(g, g.hero[1], 10)
    S.play(g, S.give(g, 1, "EX1_354"), g.hero[1])
    assert g.health(g.hero[1]) == 28 and len(g.hand[1]) == 3


def test_ex1_355_blessed_champion_and_ex1_355e_double_attack() -> None:
    g = S.prepared(hero1="HERO_04")
    S.summon(g, 1, "CS2_122")  # Raid Leader: +1 Attack
    yeti = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_355"), yeti)
    assert stats(g, yeti) == (10, 5)  # (4 + 1) doubled


def test_ex1_362_argent_protector_shields_a_friendly_minion() -> None:
    g = S.prepared(hero1="HERO_04")
    wisp = S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_231")
    protector = S.give(g, 1, "EX1_362")
    assert play_targets(g, protector) == {wisp}
    S.play(g, protector, wisp)
    assert g.ents[wisp][DIVINE_SHIELD] == 1 and g.ents[enemy][DIVINE_SHIELD] == 0


def test_ex1_363_blessing_of_wisdom_and_ex1_363e_draw_for_the_caster() -> None:
    g = S.prepared(hero1="HERO_04")
    enemy = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_363"), enemy)  # on an enemy minion: the caster still draws
    S.end_turn(g)
    hand1, hand2 = len(g.hand[1]), len(g.hand[2])
    S.attack(g, enemy, g.hero[1])
    assert len(g.hand[1]) == hand1 + 1 and len(g.hand[2]) == hand2


def test_ex1_365_holy_wrath_deals_the_drawn_cards_cost() -> None:
    g = S.prepared(hero1="HERO_04", deck1=("CS2_231",) * 4 + ("CS2_200",) + ("CS2_231",) * 25)
    S.play(g, S.give(g, 1, "EX1_365"), g.hero[2])
    assert g.health(g.hero[2]) == 24 and card_ids(g, g.hand[1]) == ["CS2_200"]
    S.empty_deck(g, 1)
    S.play(g, S.give(g, 1, "EX1_365"), g.hero[2])  # fatigue: no card, no damage
    assert g.health(g.hero[2]) == 24 and g.health(g.hero[1]) == 29


def test_ex1_366_sword_of_justice_and_ex1_366e_buff_and_wear() -> None:
    g = S.prepared(hero1="HERO_04")
    S.play(g, S.give(g, 1, "EX1_366"))
    sword = g.weapon[1]
    wisp = S.give(g, 1, "CS2_231")
    S.play(g, wisp)
    assert stats(g, wisp) == (2, 2) and g.ents[sword][DAMAGE] == 1
    S.power(g)  # Reinforce: a summoned Recruit counts too
    assert stats(g, g.board[1][-1]) == (2, 2)
    enemy = S.summon(g, 2, "CS2_231")
    assert stats(g, enemy) == (1, 1)  # the opponent's minions do not
    for _ in range(3):
        S.summon(g, 1, "CS2_231")
    assert g.weapon[1] == 0 and dead(g, sword)  # 5 Durability used up
    assert g.ents[sword][DURABILITY] == 5


def test_ex1_371_hand_of_protection_gives_divine_shield() -> None:
    g = S.prepared(hero1="HERO_04")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_371"), yeti)
    assert g.ents[yeti][DIVINE_SHIELD] == 1
    assert S.hit(g, yeti, 4) == 0 and g.health(yeti) == 5
    assert S.hit(g, yeti, 4) == 4 and g.health(yeti) == 1


def test_ex1_379_repentance_and_ex1_379e_health_to_one() -> None:
    g = S.prepared(hero1="HERO_04")
    secret = S.give(g, 1, "EX1_379")
    S.play(g, secret)
    assert g.ents[secret][ZONE] == Z_SECRET
    S.end_turn(g)
    ogre = S.give(g, 2, "CS2_200")
    S.play(g, ogre)
    assert stats(g, ogre) == (6, 1) and secret not in g.secrets[1]


def test_ex1_382_aldor_peacekeeper_and_ex1_382e_attack_to_one() -> None:
    g = S.prepared(hero1="HERO_04")
    ogre = S.summon(g, 2, "CS2_200")
    mine = S.summon(g, 1, "CS2_182")
    aldor = S.give(g, 1, "EX1_382")
    assert play_targets(g, aldor) == {ogre}  # enemy minions only
    S.play(g, aldor, ogre)
    assert stats(g, ogre) == (1, 7) and stats(g, mine) == (4, 5)


def test_ex1_383_tirion_fordring_equips_ashbringer_and_ex1_383t() -> None:
    g = S.prepared(hero1="HERO_04")
    tirion = S.give(g, 1, "EX1_383")
    S.play(g, tirion)
    assert g.ents[tirion][DIVINE_SHIELD] == 1 and g.ents[tirion][TAUNT] == 1
    g.destroy(tirion)
    S.resolve(g)
    w = g.weapon[1]
    assert card_ids(g, [w]) == ["EX1_383t"] and g.attack_value(g.hero[1]) == 5
    assert g.ents[w][DURABILITY] == 3


def test_ex1_384_avenging_wrath_splits_eight_among_enemies() -> None:
    g = S.prepared(hero1="HERO_04")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_384"))
    total = 30 - g.health(g.hero[2]) + 5 - g.health(yeti)
    assert total == 8 and g.health(g.hero[1]) == 30


def test_ex1_619_equality_and_ex1_619e_health_to_one() -> None:
    g = S.prepared(hero1="HERO_04")
    a = S.summon(g, 1, "CS2_200")
    b = S.summon(g, 2, "CS2_182")
    S.hit(g, b, 3)
    S.play(g, S.give(g, 1, "EX1_619"))
    assert stats(g, a) == (6, 1) and stats(g, b) == (4, 1)
    S.play(g, S.give(g, 1, "CS2_093"))  # Consecration: the classic combo
    assert stats(g, a) == (6, 1) and dead(g, b)


def test_ex1_132_eye_for_an_eye_returns_the_damage_taken() -> None:
    g = S.prepared(hero1="HERO_04")
    secret = S.give(g, 1, "EX1_132")
    S.play(g, secret)
    S.end_turn(g)
    g.gain_armor(1, 2)
    S.play(g, S.give(g, 2, "CS2_029"), g.hero[1])  # Fireball 6: 2 Armor, 4 to the hero
    assert g.health(g.hero[1]) == 26 and g.health(g.hero[2]) == 26
    assert secret not in g.secrets[1]


def test_ex1_132_eye_for_an_eye_keeps_quiet_on_its_owners_turn_and_uses_spell_damage() -> None:
    g = S.prepared(hero1="HERO_04")
    S.play(g, S.give(g, 1, "EX1_132"))
    S.summon(g, 1, "CS2_142")  # Kobold Geomancer: Spell Damage +1
    S.hit(g, g.hero[1], 3)  # on its owner's turn: nothing
    assert g.health(g.hero[2]) == 30 and len(g.secrets[1]) == 1
    S.end_turn(g)
    boar = S.summon(g, 2, "CS2_171")
    S.attack(g, boar, g.hero[1])
    assert g.health(g.hero[1]) == 26 and g.health(g.hero[2]) == 28  # 1 + 1
