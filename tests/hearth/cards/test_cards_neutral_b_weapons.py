"""Classic neutral minions that read or change weapons (neutral_classic_b.py)."""

from __future__ import annotations

from hearth_cardtest import dead, stats

from games.hearth import scenario as S
from games.hearth.enums import ATK, DAMAGE, DURABILITY


def test_new1_018_bloodsail_raider_new1_018e_gains_the_attack_of_your_weapon() -> None:
    g = S.prepared()
    raider = S.give(g, 1, "NEW1_018")
    S.play(g, raider)
    assert stats(g, raider) == (2, 3)  # no weapon: nothing
    g.equip(1, "CS2_112")  # Arcanite Reaper 5/2
    raider2 = S.give(g, 1, "NEW1_018")
    S.play(g, raider2)
    assert stats(g, raider2) == (7, 3)
    g.equip(2, "CS2_106")  # the opponent's weapon does not count
    S.end_turn(g)
    S.play(g, S.give(g, 2, "NEW1_018"))
    assert stats(g, g.board[2][-1]) == (5, 3)


def test_new1_024_captain_greenskin_new1_024o_gives_your_weapon_plus_one_plus_one() -> None:
    g = S.prepared()
    axe = g.equip(1, "CS2_106")  # Fiery War Axe 3/2
    enemy = g.equip(2, "CS2_091")
    S.play(g, S.give(g, 1, "NEW1_024"))
    assert g.ents[axe][ATK] == 4 and g.ents[axe][DURABILITY] == 3
    assert g.ents[enemy][ATK] == 1 and g.ents[enemy][DURABILITY] == 4
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 26 and g.ents[axe][DAMAGE] == 1  # 2 Durability left


def test_new1_025_bloodsail_corsair_removes_a_durability_from_the_enemy_weapon() -> None:
    g = S.prepared()
    axe = g.equip(2, "CS2_106")
    mine = g.equip(1, "CS2_091")
    S.play(g, S.give(g, 1, "NEW1_025"))
    assert g.ents[axe][DURABILITY] - g.ents[axe][DAMAGE] == 1 and not g.ents[mine][DAMAGE]
    S.play(g, S.give(g, 1, "NEW1_025"))
    assert dead(g, axe) and g.weapon[2] == 0
    S.play(g, S.give(g, 1, "NEW1_025"))  # no weapon: nothing happens
    assert g.weapon[1] == mine


def test_ex1_558_harrison_jones_destroys_the_weapon_and_draws_its_durability() -> None:
    g = S.prepared()
    justice = g.equip(2, "CS2_091")  # Light's Justice 1/4
    S.play(g, S.give(g, 1, "EX1_558"))
    assert dead(g, justice) and len(g.hand[1]) == 4
    axe = g.equip(2, "CS2_106")
    g._set(g.ents[axe], DAMAGE, 1)  # one Durability used: one left
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_558"))
    assert dead(g, axe) and len(g.hand[1]) == 5
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_558"))  # no weapon: no card
    assert len(g.hand[1]) == 5
