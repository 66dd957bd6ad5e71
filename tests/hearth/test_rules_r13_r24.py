"""Conformance cases R13-R24 of reference section 5: combat, Divine Shield, trigger and
death order, spell damage, auras and health auras, Silence, adjacency, deathrattle order,
Enrage. Each test asserts the expected outcome given there.
"""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import (
    ATK,
    ATTACHED,
    DAMAGE,
    DIVINE_SHIELD,
    HEALTH,
    SPELLPOWER,
    TAUNT,
    Z_GRAVEYARD,
    Z_PLAY,
    ZONE,
)
from games.hearth.game import State


def stats(g: State, eid: int) -> tuple[int, int]:
    return g.ents[eid][ATK], g.health(eid)


def dead(g: State, eid: int) -> bool:
    return g.ents[eid][ZONE] == Z_GRAVEYARD


def test_r13_combat_damage_is_simultaneous() -> None:
    g = S.prepared()
    raptor, croc = S.summon(g, 1, "CS2_172"), S.summon(g, 2, "CS2_120")
    S.attack(g, raptor, croc)
    assert dead(g, raptor) and dead(g, croc)
    yeti, ogre = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_200")
    S.attack(g, yeti, ogre)
    assert dead(g, yeti) and stats(g, ogre) == (6, 3)


def test_r14_divine_shield_absorbs_one_hit_but_not_zero_damage() -> None:
    """The 0-damage part is [U] in the reference: we follow SabberStone's attack
    ("ignore damage from defenders with 0 attack"), so a 0-attack defender never pops it."""
    g = S.prepared()
    squire = S.summon(g, 1, "EX1_008")
    S.end_turn(g)
    image = S.give(g, 2, "CS2_027")
    S.play(g, image)  # two 0/2 Mirror Images for the opponent
    S.end_turn(g)
    target = g.board[2][0]
    S.attack(g, squire, target)  # the Image hits back for exactly 0
    assert g.ents[squire][DIVINE_SHIELD] == 1 and stats(g, squire) == (1, 1)
    S.power(g, squire)  # 1 damage: the shield pops, the Squire is still 1/1
    assert g.ents[squire][DIVINE_SHIELD] == 0 and stats(g, squire) == (1, 1)
    raptor = S.summon(g, 2, "CS2_172")
    S.end_turn(g)
    S.attack(g, raptor, squire)
    assert dead(g, squire)


def test_r14_destroy_ignores_divine_shield() -> None:
    """[U] in the reference; SabberStone's DestroyTask marks ToBeDestroyed regardless of
    Divine Shield, and so does Execute here."""
    g = S.prepared()
    senjin = S.summon(g, 2, "CS2_179")
    g.damage(g.hero[1], senjin, 1)
    g._set(g.ents[senjin], DIVINE_SHIELD, 1)  # no Basic card re-shields: set it directly
    S.play(g, S.give(g, 1, "CS2_108"), senjin)
    assert dead(g, senjin)


def test_r15_whirlwind_and_acolyte_trigger_before_death() -> None:
    g = S.prepared(hero1="HERO_01")
    acolyte = S.summon(g, 1, "EX1_007")
    S.play(g, S.give(g, 1, "EX1_400"))
    assert stats(g, acolyte) == (1, 2) and len(g.hand[1]) == 1
    g.damage(g.hero[2], acolyte, 1)
    g._deaths()
    assert len(g.hand[1]) == 2 and stats(g, acolyte) == (1, 1)
    top = g.deck[1][-1]
    S.play(g, S.give(g, 1, "EX1_400"))  # at 1 health: draws, then dies
    assert dead(g, acolyte) and top in g.hand[1] and len(g.hand[1]) == 3


def test_r16_spell_damage_adds_missiles_and_damage() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "EX1_277"))
    assert g.health(g.hero[2]) == 26  # 4 missiles
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.health(g.hero[2]) == 19  # Fireball 7
    S.summon(g, 1, "EX1_012")
    assert g.spell_damage(1) == 2
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.health(g.hero[2]) == 11  # Fireball 8


def test_r17_auras_stack_and_never_buff_their_source() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    leader = S.summon(g, 1, "CS2_122")
    champion = S.summon(g, 1, "CS2_222")
    assert stats(g, wisp) == (3, 2)
    assert stats(g, leader) == (3, 3)  # 2/2 + Champion only
    assert stats(g, champion) == (7, 6)  # 6/6 + Raid Leader only


def test_r18_losing_a_health_aura_keeps_a_damaged_minion_alive() -> None:
    g = S.prepared()
    champion = S.summon(g, 1, "CS2_222")
    yeti = S.summon(g, 1, "CS2_182")
    assert stats(g, yeti) == (5, 6)
    g.damage(g.hero[2], yeti, 5)
    g._deaths()
    S.play(g, S.give(g, 1, "CS2_029"), champion)
    assert dead(g, champion)
    assert g.ents[yeti][ZONE] == Z_PLAY and stats(g, yeti) == (4, 1)


def test_r19_two_champions_lose_each_others_aura_in_the_same_phase() -> None:
    g = S.prepared()
    S.end_turn(g)
    c1 = S.summon(g, 2, "CS2_222")
    c2 = S.summon(g, 2, "CS2_222")
    S.play(g, S.give(g, 2, "EX1_019"), c2)  # Shattered Sun Cleric on C2
    assert stats(g, c1) == (7, 7) and stats(g, c2) == (8, 8)
    S.end_turn(g)
    S.play(g, S.give(g, 1, "CS2_032"))  # Flamestrike
    for _ in range(3):
        S.set_mana(g, 1, 10)
        S.play(g, S.give(g, 1, "CS2_025"))  # Arcane Explosion
    assert dead(g, c1)
    assert g.ents[c2][ZONE] == Z_PLAY and stats(g, c2) == (7, 1)


def test_r20_silence_removes_a_health_buff_without_killing() -> None:
    g = S.prepared()
    raptor = S.summon(g, 2, "CS2_172")
    S.play(g, S.give(g, 1, "CS2_004"), raptor)
    assert stats(g, raptor) == (3, 4)
    g.damage(g.hero[1], raptor, 3)
    g._deaths()
    assert stats(g, raptor) == (3, 1)
    S.play(g, S.give(g, 1, "EX1_332"), raptor)
    assert g.ents[raptor][ZONE] == Z_PLAY and stats(g, raptor) == (3, 1)
    assert g.ents[raptor][HEALTH] == 2


def test_r21_silence_removes_card_text_and_enchantments_but_not_damage() -> None:
    """[U] list in the reference; the behaviour follows SabberStone's SilenceTask
    (enchantments, keywords, spell damage, deathrattle, enrage, triggers, own auras)."""
    g = S.prepared(hero1="HERO_09")
    ids = {c: S.summon(g, 2, c) for c in ("CS2_179", "EX1_008", "CS2_142", "EX1_393", "CS2_122")}
    yeti = S.summon(g, 2, "CS2_182")
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_092"), yeti)  # Blessing of Kings: 4/5 -> 8/9 (+1 Raid Leader)
    S.end_turn(g)
    g.damage(g.hero[1], ids["EX1_393"], 1)  # Amani enraged
    g.damage(g.hero[1], yeti, 2)
    g._deaths()
    assert stats(g, ids["EX1_393"]) == (6, 2) and stats(g, yeti) == (9, 7)
    for eid in (*ids.values(), yeti):
        S.play(g, S.give(g, 1, "EX1_332"), eid)  # Silence costs 0
    ents = g.ents
    assert ents[ids["CS2_179"]][TAUNT] == 0
    assert ents[ids["EX1_008"]][DIVINE_SHIELD] == 0
    assert ents[ids["CS2_142"]][SPELLPOWER] == 0 and g.spell_damage(2) == 0
    assert stats(g, ids["EX1_393"]) == (2, 2)  # no enrage; the damage stays
    assert stats(g, ids["CS2_122"]) == (2, 2)
    # BoK removed and the silenced Raid Leader's aura gone. Losing +4 Health never heals:
    # current health = min(current 7, new maximum 5), as with auras (R18).
    assert stats(g, yeti) == (4, 5) and g.ents[yeti][HEALTH] == 5
    assert not [i for i in g.enchants if ents[i][ATTACHED] == yeti]


def test_r21_silenced_triggers_and_deathrattles_do_nothing() -> None:
    """[U] in the reference; as SabberStone's SilenceTask, a silenced minion's trigger
    (Acolyte, Gurubashi, Knife Juggler) and deathrattle (Loot Hoarder) are gone."""
    g = S.prepared(hero1="HERO_09")
    acolyte, hoarder = S.summon(g, 2, "EX1_007"), S.summon(g, 2, "EX1_096")
    berserker, juggler = S.summon(g, 2, "EX1_399"), S.summon(g, 2, "NEW1_019")
    for eid in (acolyte, hoarder, berserker, juggler):
        S.play(g, S.give(g, 1, "EX1_332"), eid)
    S.play(g, S.give(g, 1, "CS2_029"), hoarder)
    S.power(g, acolyte)
    g.damage(g.hero[1], berserker, 1)
    g._deaths()
    assert dead(g, hoarder) and g.hand[2] == []  # no deathrattle draw, no Acolyte draw
    assert stats(g, berserker) == (2, 6)
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_231"))
    assert g.health(g.hero[1]) == 30  # no knife


def test_r21_silenced_charge_minion_cannot_attack_the_turn_it_is_played() -> None:
    """[U] in the reference; Silence removes Charge (SabberStone's SilenceTask), so a
    minion played this turn is back to summoning sickness."""
    g = S.prepared(hero1="HERO_09")
    boar = S.give(g, 1, "CS2_171")
    S.play(g, boar)
    S.play(g, S.give(g, 1, "EX1_332"), boar)
    assert not any(a.entity == boar for a in g.legal_actions())


def test_r21_silence_keeps_other_sources_auras() -> None:
    """[U] in the reference; as in SabberStone, Silence removes the minion's own
    enchantments and auras, never the aura bonuses other minions give it."""
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 1, "CS2_222")
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_332"), wisp)
    assert stats(g, wisp) == (2, 2)


def test_r22_dire_wolf_buffs_neighbours_and_follows_the_board() -> None:
    g = S.prepared()
    a, b, c = (S.summon(g, 1, "CS2_231") for _ in range(3))
    wolf = S.give(g, 1, "EX1_162")
    S.play(g, wolf, position=1)
    assert g.board[1] == [a, wolf, b, c]
    assert [g.ents[i][ATK] for i in g.board[1]] == [2, 2, 2, 1]
    S.power(g, b)  # a neighbour dies: c moves next to the wolf
    assert [g.ents[i][ATK] for i in g.board[1]] == [2, 2, 2]
    assert g.board[1] == [a, wolf, c]


def test_r23_deathrattles_resolve_in_order_of_play_across_both_sides() -> None:
    g = S.prepared(hero1="HERO_01")
    S.summon(g, 1, "CS2_182")
    S.summon(g, 2, "CS2_182")
    S.end_turn(g)
    p2_golem = S.give(g, 2, "EX1_556")
    S.play(g, p2_golem, position=0)  # played first
    S.end_turn(g)
    p1_golem = S.give(g, 1, "EX1_556")
    S.play(g, p1_golem, position=1)
    assert g.ents[p2_golem].order < g.ents[p1_golem].order
    for golem in (p1_golem, p2_golem):
        g.damage(g.hero[2], golem, 2)
    g._deaths()
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind: both die in one death phase
    assert dead(g, p1_golem) and dead(g, p2_golem)
    t2, t1 = g.board[2][0], g.board[1][1]
    assert g.ents[t1].card.id == g.ents[t2].card.id == "skele21"
    assert t2 < t1 and g.ents[t2].order < g.ents[t1].order  # P2's token was created first
    assert g.ents[g.board[2][1]].card.id == "CS2_182" and g.ents[g.board[1][0]].card.id == "CS2_182"


def test_r24_enrage_follows_damage_heal_and_silence() -> None:
    g = S.prepared(hero1="HERO_09")
    amani = S.summon(g, 1, "EX1_393")
    g.damage(g.hero[2], amani, 1)
    g._deaths()
    assert stats(g, amani) == (5, 2)
    S.power(g, amani)  # Lesser Heal: back to full
    assert stats(g, amani) == (2, 3) and g.ents[amani][DAMAGE] == 0
    g.damage(g.hero[2], amani, 2)
    g._deaths()
    assert stats(g, amani) == (5, 1)
    S.play(g, S.give(g, 1, "EX1_332"), amani)
    assert stats(g, amani) == (2, 1)
