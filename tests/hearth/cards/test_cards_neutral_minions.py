"""Neutral minions without a script: stats and keywords come from the pinned 17.6 data.

Expected values are the printed ones of reference section 4 (patch 17.6), not read back
from the card data.
"""

from __future__ import annotations

import pytest
from hearth_cardtest import attack_targets, can_attack, dead, stats

from games.hearth import scenario as S
from games.hearth.enums import CARDRACE, DIVINE_SHIELD, R_BEAST, R_MURLOC


@pytest.mark.parametrize(
    ("card_id", "cost", "expected"),
    [
        ("CS2_231", 0, (1, 1)),  # Wisp
        ("CS2_168", 1, (2, 1)),  # Murloc Raider
        ("CS2_172", 2, (3, 2)),  # Bloodfen Raptor
        ("CS2_120", 2, (2, 3)),  # River Crocolisk
        ("CS2_182", 4, (4, 5)),  # Chillwind Yeti
        ("CS2_200", 6, (6, 7)),  # Boulderfist Ogre
    ],
)
def test_vanilla_minion_costs_and_stats(card_id: str, cost: int, expected: tuple[int, int]) -> None:
    g = S.prepared()
    eid = S.give(g, 1, card_id)
    S.play(g, eid)
    assert g.mana(1) == 10 - cost
    assert g.board[1] == [eid] and stats(g, eid) == expected
    assert not can_attack(g, eid)  # summoning sickness


def test_cs2_231_wisp() -> None:
    g = S.prepared(mana=0)
    wisp = S.give(g, 1, "CS2_231")
    S.play(g, wisp)  # 0 mana is enough
    assert stats(g, wisp) == (1, 1)


def test_cs2_168_murloc_raider() -> None:
    g = S.prepared()
    raider = S.summon(g, 1, "CS2_168")
    assert g.ents[raider][CARDRACE] == R_MURLOC and stats(g, raider) == (2, 1)


def test_cs2_172_bloodfen_raptor() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172")
    S.attack(g, raptor, g.hero[2])
    assert g.health(g.hero[2]) == 27 and g.ents[raptor][CARDRACE] == R_BEAST


def test_cs2_120_river_crocolisk() -> None:
    g = S.prepared()
    croc = S.summon(g, 1, "CS2_120")
    wisp = S.summon(g, 2, "CS2_231")
    S.attack(g, croc, wisp)
    assert dead(g, wisp) and stats(g, croc) == (2, 2)


def test_cs2_182_chillwind_yeti() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    raptor = S.summon(g, 2, "CS2_172")
    S.attack(g, yeti, raptor)
    assert dead(g, raptor) and stats(g, yeti) == (4, 2)


def test_cs2_200_boulderfist_ogre() -> None:
    g = S.prepared()
    ogre = S.summon(g, 1, "CS2_200")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, ogre, yeti)
    assert dead(g, yeti) and stats(g, ogre) == (6, 3)


def test_cs2_171_stonetusk_boar() -> None:
    g = S.prepared()
    boar = S.give(g, 1, "CS2_171")
    S.play(g, boar)
    assert can_attack(g, boar)  # Charge
    S.attack(g, boar, g.hero[2])
    assert g.health(g.hero[2]) == 29 and not can_attack(g, boar)


def test_cs2_124_wolfrider() -> None:
    g = S.prepared()
    rider = S.give(g, 1, "CS2_124")
    S.play(g, rider)
    assert stats(g, rider) == (3, 1) and can_attack(g, rider)
    S.attack(g, rider, g.hero[2])
    assert g.health(g.hero[2]) == 27


def test_cs2_121_frostwolf_grunt() -> None:
    g = S.prepared()
    boar = S.summon(g, 1, "CS2_171")
    grunt = S.summon(g, 2, "CS2_121")
    S.summon(g, 2, "CS2_231")
    assert stats(g, grunt) == (2, 2)
    assert attack_targets(g, boar) == {grunt}


def test_cs2_179_senjin_shieldmasta() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172")
    senjin = S.summon(g, 2, "CS2_179")
    assert stats(g, senjin) == (3, 5) and attack_targets(g, raptor) == {senjin}
    S.attack(g, raptor, senjin)
    assert dead(g, raptor) and stats(g, senjin) == (3, 2)


def test_ex1_008_argent_squire() -> None:
    g = S.prepared()
    squire = S.summon(g, 2, "EX1_008")
    raptor = S.summon(g, 1, "CS2_172")
    S.attack(g, raptor, squire)
    assert stats(g, squire) == (1, 1) and g.ents[squire][DIVINE_SHIELD] == 0
    assert stats(g, raptor) == (3, 1)
    S.power(g, squire)  # Fireblast: the shield is gone, so this kills it
    assert dead(g, squire)


def test_cs2_142_kobold_geomancer() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_142")
    assert g.spell_damage(1) == 1 and g.spell_damage(2) == 0
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.health(g.hero[2]) == 23  # Fireball 6 + 1
