"""An aura that reads what another aura gives (Warsong Commander's "+1 Attack to your Charge
minions" and Tundra Rhino's "your Beasts have Charge"): the aura update repeats until
nothing changes, whatever order the auras were played in."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import CHARGE


def test_warsong_first_then_rhino() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_084")  # Warsong Commander
    rhino = S.give(g, 1, "DS1_178")  # Tundra Rhino 2/5, a Beast: Charge from itself
    S.play(g, rhino)
    assert g.ents[rhino][CHARGE] == 1 and g.attack_value(rhino) == 3


def test_rhino_first_then_warsong_and_the_rhino_leaves() -> None:
    g = S.prepared()
    rhino = S.summon(g, 1, "DS1_178")
    boar = S.summon(g, 1, "CS2_172")  # Bloodfen Raptor 3/2, a Beast without Charge
    S.play(g, S.give(g, 1, "EX1_084"))
    assert g.attack_value(boar) == 4 and g.attack_value(rhino) == 3
    g.destroy(rhino)
    S.resolve(g)
    assert g.ents[boar][CHARGE] == 0 and g.attack_value(boar) == 3
