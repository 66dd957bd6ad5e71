"""Enchantment-borne triggers (Corruption): the trigger lives on the enchantment, fires on
the caster's turn start, and goes with Silence or with the minion."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import Z_GRAVEYARD, Z_PLAY, ZONE
from games.hearth.game import State


def corrupt() -> tuple[State, int]:
    g = S.prepared(hero1="HERO_07")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_063"), yeti)
    return g, yeti


def test_fires_at_the_start_of_the_casters_turn_not_the_owners() -> None:
    g, yeti = corrupt()
    S.end_turn(g)  # the victim's owner's turn starts: nothing
    assert g.ents[yeti][ZONE] == Z_PLAY
    S.end_turn(g)  # the caster's turn starts: destroyed
    assert g.ents[yeti][ZONE] == Z_GRAVEYARD
    assert not any(g.ents[i].card.id == "CS2_063e" for i in g.enchants)
    assert all(g.ents[i].card.id != "CS2_063e" for lst in g.triggers.values() for i in lst)


def test_silence_removes_the_trigger() -> None:
    g, yeti = corrupt()
    S.play(g, S.give(g, 1, "EX1_332"), yeti)
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[yeti][ZONE] == Z_PLAY


def test_the_trigger_goes_with_the_minion() -> None:
    g, yeti = corrupt()
    S.play(g, S.give(g, 1, "CS2_029"), yeti)
    assert g.ents[yeti][ZONE] == Z_GRAVEYARD
    assert all(g.ents[i].card.id != "CS2_063e" for lst in g.triggers.values() for i in lst)
    S.end_turn(g)
    S.end_turn(g)  # nothing left to fire


def test_clone_keeps_the_trigger() -> None:
    g, yeti = corrupt()
    c = g.clone()
    S.end_turn(c)
    S.end_turn(c)
    assert c.ents[yeti][ZONE] == Z_GRAVEYARD and g.ents[yeti][ZONE] == Z_PLAY
