"""EV_FATAL_DAMAGE ("when your hero takes fatal damage"): heard before the damage, resolved
at once, the triggers already queued by the same effect kept (games/hearth/effects.py)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import IMMUNE


def test_a_fatal_hit_inside_an_area_effect_keeps_the_other_queued_triggers() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_295"))  # Ice Block
    S.summon(g, 1, "EX1_007")  # Acolyte of Pain: draws when damaged
    S.end_turn(g)
    S.hit(g, g.hero[1], 28)
    hand = len(g.hand[1])
    S.play(g, S.give(g, 2, "CS2_062"))  # Hellfire: 3 to every character
    assert g.health(g.hero[1]) == 2 and g.ents[g.hero[1]][IMMUNE]
    assert len(g.hand[1]) == hand + 1  # the Acolyte's draw, queued before the fatal hit, ran
    assert g.health(g.hero[2]) == 27 and not g.is_over


def test_without_a_listener_fatal_damage_kills_and_clones_agree() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_295"))
    S.end_turn(g)
    S.hit(g, g.hero[1], 25)
    c = g.clone()
    S.play(g, S.give(g, 2, "CS2_029"), target=g.hero[1])
    S.play(c, S.give(c, 2, "CS2_029"), target=c.hero[1])
    assert g.hash() == c.hash() and g.health(g.hero[1]) == 5
    S.play(g, S.give(g, 2, "CS2_029"), target=g.hero[1])  # immune: nothing
    S.end_turn(g)
    S.end_turn(g)
    S.hit(g, g.hero[1], 5)  # the secret is spent: this one kills
    assert g.is_over
