"""Rule tests of Overload and Combo."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import OVERLOAD_LOCKED, OVERLOAD_OWED


def test_overload_locks_crystals_on_the_next_turn_only() -> None:
    g = S.prepared(hero1="HERO_02", mana=None)
    S.set_mana(g, 1, 5)
    S.play(g, S.give(g, 1, "EX1_241"), g.hero[2])  # Lava Burst: Overload (2)
    pe = g.ents[2]
    assert pe[OVERLOAD_OWED] == 2 and g.mana(1) == 2  # nothing locked this turn
    S.end_turn(g)
    S.end_turn(g)
    assert pe[OVERLOAD_LOCKED] == 2 and pe[OVERLOAD_OWED] == 0 and g.mana(1) == 6 - 2
    S.end_turn(g)
    S.end_turn(g)
    assert pe[OVERLOAD_LOCKED] == 0 and g.mana(1) == 7


def test_overload_adds_up_and_a_locked_turn_can_owe_again() -> None:
    g = S.prepared(hero1="HERO_02")
    S.play(g, S.give(g, 1, "EX1_238"), g.hero[2])  # (1)
    S.play(g, S.give(g, 1, "EX1_241"), g.hero[2])  # (2)
    assert g.ents[2][OVERLOAD_OWED] == 3
    S.end_turn(g)
    S.end_turn(g)
    assert g.mana(1) == 7
    S.play(g, S.give(g, 1, "EX1_238"), g.hero[2])
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[2][OVERLOAD_LOCKED] == 1 and g.mana(1) == 9


def test_locked_crystals_make_cards_unplayable() -> None:
    g = S.prepared(hero1="HERO_02", mana=None)
    S.set_mana(g, 1, 4)
    S.play(g, S.give(g, 1, "EX1_241"), g.hero[2])  # 3 mana, Overload (2)
    S.end_turn(g)
    S.end_turn(g)  # 5 crystals, 2 locked
    yeti = S.give(g, 1, "CS2_182")
    assert g.mana(1) == 3
    assert not any(a.entity == yeti for a in g.legal_actions() if a.kind == Kind.PLAY)


def test_combo_needs_a_card_played_before_it_this_turn() -> None:
    g = S.prepared(hero1="HERO_03")
    agent = S.give(g, 1, "EX1_134")  # SI:7 Agent: a target only with combo
    assert {a.target for a in g.legal_actions() if a.entity == agent} == {0}
    S.play(g, S.give(g, 1, "CS2_231"))
    assert g.hero[2] in {a.target for a in g.legal_actions() if a.entity == agent}
    S.end_turn(g)
    S.end_turn(g)  # a new turn: the count starts again
    assert {a.target for a in g.legal_actions() if a.entity == agent} == {0}


def test_the_coin_enables_combo() -> None:
    g = S.prepared(hero1="HERO_03")
    S.play(g, S.give(g, 1, "GAME_005"))
    S.play(g, S.give(g, 1, "EX1_124"), g.hero[2])
    assert g.health(g.hero[2]) == 26
