"""Neutral Basic minions of neutral_basic.py."""

from __future__ import annotations

import pytest
from hearth_cardtest import can_attack, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import CARDRACE, CHARGE, R_BEAST, SPELLPOWER, TAUNT
from games.hearth.game import State


def played(card_id: str, mana: int) -> tuple[State, int]:
    g = S.prepared()
    eid = S.give(g, 1, card_id)
    S.play(g, eid)
    assert g.mana(1) == 10 - mana
    return g, eid


@pytest.mark.parametrize(
    ("card_id", "mana", "stat"),
    [("CS2_118", 3, (5, 1)), ("CS2_119", 4, (2, 7)), ("CS2_186", 7, (7, 7)),
     ("CS2_201", 7, (9, 5))],
)
def test_vanilla(card_id: str, mana: int, stat: tuple[int, int]) -> None:
    g, eid = played(card_id, mana)
    assert stats(g, eid) == stat and not can_attack(g, eid)


def test_cs2_118_magma_rager() -> None:
    test_vanilla("CS2_118", 3, (5, 1))


def test_cs2_119_oasis_snapjaw() -> None:
    g, eid = played("CS2_119", 4)
    assert g.ents[eid][CARDRACE] == R_BEAST


def test_cs2_186_war_golem() -> None:
    test_vanilla("CS2_186", 7, (7, 7))


def test_cs2_201_core_hound() -> None:
    g, eid = played("CS2_201", 7)
    assert g.ents[eid][CARDRACE] == R_BEAST


@pytest.mark.parametrize(
    ("card_id", "mana", "stat"),
    [("CS1_042", 1, (1, 2)), ("CS2_125", 3, (3, 3)), ("CS2_127", 3, (1, 4)),
     ("CS2_162", 6, (6, 5)), ("CS2_187", 5, (5, 4))],
)
def test_taunt(card_id: str, mana: int, stat: tuple[int, int]) -> None:
    g, eid = played(card_id, mana)
    assert stats(g, eid) == stat and g.ents[eid][TAUNT] == 1
    S.end_turn(g)
    boar = S.summon(g, 2, "CS2_171")
    assert {a.target for a in g.legal_actions() if a.entity == boar} == {eid}


def test_cs1_042_goldshire_footman() -> None:
    test_taunt("CS1_042", 1, (1, 2))


def test_cs2_125_ironfur_grizzly() -> None:
    test_taunt("CS2_125", 3, (3, 3))


def test_cs2_127_silverback_patriarch() -> None:
    test_taunt("CS2_127", 3, (1, 4))


def test_cs2_162_lord_of_the_arena() -> None:
    test_taunt("CS2_162", 6, (6, 5))


def test_cs2_187_booty_bay_bodyguard() -> None:
    test_taunt("CS2_187", 5, (5, 4))


@pytest.mark.parametrize(
    ("card_id", "mana", "stat"),
    [("CS2_131", 4, (2, 5)), ("CS2_173", 2, (2, 1)), ("CS2_213", 6, (5, 2))],
)
def test_charge(card_id: str, mana: int, stat: tuple[int, int]) -> None:
    g, eid = played(card_id, mana)
    assert stats(g, eid) == stat and g.ents[eid][CHARGE] == 1 and can_attack(g, eid)
    S.attack(g, eid, g.hero[2])
    assert g.health(g.hero[2]) == 30 - stat[0]


def test_cs2_131_stormwind_knight() -> None:
    test_charge("CS2_131", 4, (2, 5))


def test_cs2_173_bluegill_warrior() -> None:
    test_charge("CS2_173", 2, (2, 1))


def test_cs2_213_reckless_rocketeer() -> None:
    test_charge("CS2_213", 6, (5, 2))


@pytest.mark.parametrize(
    ("card_id", "mana", "stat"),
    [("CS2_155", 6, (4, 7)), ("CS2_197", 4, (4, 4)), ("EX1_582", 3, (1, 4))],
)
def test_spell_damage(card_id: str, mana: int, stat: tuple[int, int]) -> None:
    g, eid = played(card_id, mana)
    assert stats(g, eid) == stat and g.ents[eid][SPELLPOWER] == 1
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.health(g.hero[2]) == 23


def test_cs2_155_archmage() -> None:
    test_spell_damage("CS2_155", 6, (4, 7))


def test_cs2_197_ogre_magi() -> None:
    test_spell_damage("CS2_197", 4, (4, 4))


def test_ex1_582_dalaran_mage() -> None:
    test_spell_damage("EX1_582", 3, (1, 4))


def test_cs2_141_ironforge_rifleman() -> None:
    g = S.prepared()
    wisp = S.summon(g, 2, "CS2_231")
    r = S.give(g, 1, "CS2_141")
    assert play_targets(g, r) == {g.hero[1], g.hero[2], wisp}
    S.summon(g, 1, "CS2_142")
    S.play(g, r, g.hero[2])
    assert g.health(g.hero[2]) == 29 and stats(g, r) == (2, 2)  # no spell damage


def test_cs2_147_gnomish_inventor() -> None:
    g = S.prepared()
    top = g.deck[1][-1]
    gi = S.give(g, 1, "CS2_147")
    S.play(g, gi)
    assert g.hand[1] == [top] and stats(g, gi) == (2, 4)


def test_cs2_150_stormpike_commando() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    sc = S.give(g, 1, "CS2_150")
    S.play(g, sc, yeti)
    assert stats(g, yeti) == (4, 3) and stats(g, sc) == (4, 2) and g.mana(1) == 5


def test_ex1_011_voodoo_doctor() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 3)
    S.hit(g, g.hero[1], 1)
    vd = S.give(g, 1, "EX1_011")
    assert play_targets(g, vd) == {g.hero[1], g.hero[2], yeti}
    S.play(g, vd, yeti)
    assert g.health(yeti) == 4 and stats(g, vd) == (2, 1)
    S.play(g, S.give(g, 1, "EX1_011"), g.hero[1])
    assert g.health(g.hero[1]) == 30  # never above maximum


def test_ex1_025_dragonling_mechanic() -> None:
    g = S.prepared()
    left = S.summon(g, 1, "CS2_231")
    right = S.summon(g, 1, "CS2_231")
    dm = S.give(g, 1, "EX1_025")
    S.play(g, dm, position=1)
    assert g.board[1][:2] == [left, dm] and g.board[1][3] == right
    for _ in range(2):
        S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_025"))  # the seventh slot: no room for the Dragonling
    assert len(g.board[1]) == 7


def test_ex1_025t_mechanical_dragonling() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_025"))
    token = g.board[1][-1]
    assert g.ents[token].card.id == "EX1_025t" and stats(g, token) == (2, 1)
    assert not can_attack(g, token)


def test_ex1_593_nightblade() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_142")
    yeti = S.summon(g, 2, "CS2_182")
    nb = S.give(g, 1, "EX1_593")
    assert play_targets(g, nb) == {0}  # no choice: the enemy hero
    S.play(g, nb)
    assert g.health(g.hero[2]) == 27 and g.health(yeti) == 5 and g.health(g.hero[1]) == 30
    assert not dead(g, nb)
