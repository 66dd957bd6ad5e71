"""Mana crystals: an empty crystal gained (Wild Growth), a crystal for this turn only
(Innervate, The Coin), and the cap of 10."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import RESOURCES, RESOURCES_USED


def test_an_empty_crystal_is_gained_and_filled_at_the_next_turn() -> None:
    g = S.prepared(mana=None)
    S.set_mana(g, 1, 4)
    assert g.gain_mana_crystal(1) == 1
    pe = g.ents[2]
    assert pe[RESOURCES] == 5 and pe[RESOURCES_USED] == 1 and g.mana(1) == 4
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[2][RESOURCES] == 6 and g.mana(1) == 6


def test_no_crystal_above_ten() -> None:
    g = S.prepared()
    assert g.gain_mana_crystal(1) == 0
    assert g.ents[2][RESOURCES] == 10 and g.mana(1) == 10
    S.set_mana(g, 1, 9)
    assert g.gain_mana_crystal(1, 3) == 1 and g.ents[2][RESOURCES] == 10


def test_a_crystal_for_this_turn_only() -> None:
    g = S.prepared(mana=None)
    S.set_mana(g, 1, 3)
    g.gain_temp_mana(1, 1)
    assert g.mana(1) == 4 and g.ents[2][RESOURCES] == 3
    S.end_turn(g)
    S.end_turn(g)
    assert g.mana(1) == 4  # 4 real crystals, nothing left of the temporary one
