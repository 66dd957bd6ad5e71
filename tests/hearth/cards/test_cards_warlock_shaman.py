"""Classic and Hall of Fame Shaman cards (helper warlock; shaman_classic2.py)."""

from __future__ import annotations

from hearth_cardtest import attack_targets, can_attack, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import (
    ATK,
    DEATHRATTLE,
    DIVINE_SHIELD,
    DURABILITY,
    OVERLOAD_OWED,
    TAUNT,
    WINDFURY,
)


def test_ex1_245_earth_shock_silences_then_deals_1() -> None:
    g = S.prepared()
    grunt = S.summon(g, 2, "CS2_121")  # Frostwolf Grunt 2/2 Taunt
    squire = S.summon(g, 2, "EX1_008")  # Argent Squire 1/1 Divine Shield
    S.play(g, S.give(g, 1, "EX1_245"), grunt)
    assert stats(g, grunt) == (2, 1) and g.ents[grunt][TAUNT] == 0
    S.play(g, S.give(g, 1, "EX1_245"), squire)  # the shield is silenced first
    assert dead(g, squire)


def test_ex1_247_stormforged_axe() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_247"))
    w = g.ents[g.weapon[1]]
    assert (w[ATK], w[DURABILITY]) == (2, 3) and g.ents[2][OVERLOAD_OWED] == 1


def test_ex1_251_forked_lightning_hits_two_random_enemy_minions() -> None:
    g = S.prepared()
    fl = S.give(g, 1, "EX1_251")
    assert play_targets(g, fl) == set()  # no enemy minion
    mine = S.summon(g, 1, "CS2_182")
    enemies = [S.summon(g, 2, "CS2_182") for _ in range(3)]
    S.play(g, fl)
    assert sorted(g.health(i) for i in enemies) == [3, 3, 5] and stats(g, mine) == (4, 5)
    assert g.ents[2][OVERLOAD_OWED] == 2 and g.health(g.hero[2]) == 30


def test_ex1_251_forked_lightning_with_one_enemy_minion() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.summon(g, 1, "CS2_142")  # Spell Damage +1
    S.play(g, S.give(g, 1, "EX1_251"))
    assert stats(g, yeti) == (4, 2)


def test_ex1_258_unbound_elemental_and_ex1_258e() -> None:
    g = S.prepared()
    ue = S.summon(g, 1, "EX1_258")
    S.play(g, S.give(g, 1, "EX1_238"), g.hero[2])  # Lightning Bolt: Overload
    assert stats(g, ue) == (3, 5)
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])  # Fireball: no Overload
    assert stats(g, ue) == (3, 5)
    S.play(g, S.give(g, 1, "EX1_243"))  # Dust Devil, an Overload minion
    assert stats(g, ue) == (4, 6)
    S.end_turn(g)
    enemy = S.summon(g, 2, "EX1_258")
    assert stats(g, ue) == (4, 6) and stats(g, enemy) == (2, 4)


def test_ex1_258_unbound_elemental_does_not_count_itself() -> None:
    g = S.prepared()
    ue = S.give(g, 1, "EX1_258")
    S.play(g, ue)
    assert stats(g, ue) == (2, 4)


def test_ex1_259_lightning_storm_deals_2_or_3_to_each_enemy_minion() -> None:
    seen = set()
    for seed in range(6):
        g = S.prepared(seed=seed)
        mine = S.summon(g, 1, "CS2_182")
        enemies = [S.summon(g, 2, "CS2_200") for _ in range(3)]
        S.play(g, S.give(g, 1, "EX1_259"))
        taken = [7 - g.health(i) for i in enemies]
        assert set(taken) <= {2, 3} and stats(g, mine) == (4, 5)
        assert g.health(g.hero[2]) == 30 and g.ents[2][OVERLOAD_OWED] == 2
        seen.update(taken)
    assert seen == {2, 3}


def test_ex1_567_doomhammer_lets_the_hero_attack_twice() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_567"))
    w = g.ents[g.weapon[1]]
    assert (w[ATK], w[DURABILITY], w[WINDFURY]) == (2, 8, 1) and g.ents[2][OVERLOAD_OWED] == 2
    S.attack(g, g.hero[1], g.hero[2])
    assert can_attack(g, g.hero[1])
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 26 and not can_attack(g, g.hero[1])


def test_ex1_575_mana_tide_totem_draws_at_the_end_of_its_turn() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_575"))
    S.end_turn(g)
    assert len(g.hand[1]) == 1
    S.end_turn(g)  # the opponent's end: nothing; then player 1 draws for the turn
    assert len(g.hand[1]) == 2


def test_new1_010_al_akir_the_windlord() -> None:
    g = S.prepared()
    al = S.give(g, 1, "NEW1_010")
    S.play(g, al)
    e = g.ents[al]
    assert stats(g, al) == (3, 5) and e[TAUNT] and e[DIVINE_SHIELD] and e[WINDFURY]
    S.attack(g, al, g.hero[2])
    S.attack(g, al, g.hero[2])
    assert g.health(g.hero[2]) == 24 and not can_attack(g, al)
    S.end_turn(g)
    raptor = S.summon(g, 2, "CS2_172")
    assert attack_targets(g, raptor) == {al}


def test_cs2_038_ancestral_spirit_and_cs2_038e_resummons() -> None:
    g = S.prepared()
    left, yeti, right = (S.summon(g, 1, c) for c in ("CS2_231", "CS2_182", "CS2_120"))
    S.play(g, S.give(g, 1, "CS2_038"), yeti)
    assert g.ents[yeti][DEATHRATTLE] == 1
    S.play(g, S.give(g, 1, "CS2_092"), yeti)  # Blessing of Kings: not carried over
    S.hit(g, yeti, 9)
    assert dead(g, yeti)
    new = g.board[1][1]
    assert g.board[1] == [left, new, right] and g.ents[new].card.id == "CS2_182"
    assert stats(g, new) == (4, 5) and not g.ents[new][DEATHRATTLE]
    S.hit(g, new, 5)  # once only: the copy has no Ancestral Spirit
    assert dead(g, new) and g.board[1] == [left, right]


def test_cs2_038_ancestral_spirit_on_an_enemy_and_after_silence() -> None:
    g = S.prepared()
    enemy = S.summon(g, 2, "EX1_556")  # Harvest Golem: own deathrattle first
    S.play(g, S.give(g, 1, "CS2_038"), enemy)
    S.hit(g, enemy, 3)
    # Both into the slot it left, the later one pushing the first right (SabberStone).
    assert [g.ents[i].card.id for i in g.board[2]] == ["EX1_556", "skele21"]
    golem = g.board[2][0]
    S.play(g, S.give(g, 1, "CS2_038"), golem)
    g.silence(golem)
    S.hit(g, golem, 3)
    assert [g.ents[i].card.id for i in g.board[2]] == ["skele21"] and g.board[1] == []
