"""Summons away from the source's right: for the opponent (``SummonEnemy``: their right
end, Leeroy Jenkins, The Beast's deathrattle), on both sides in turn until the board is full
(``SummonBothSides``: right, then left of the source, Onyxia), and a set remaining Health
(``SetRemainingHealth``: Alexstrasza; the damage changes, no damage or healing event)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.dsl import FRIENDLY_HERO, Ctx, SetRemainingHealth, SummonBothSides, SummonEnemy
from games.hearth.enums import ARMOR, ATK, CREATOR, HEALTH


def test_summon_enemy_goes_to_the_opponents_right_end() -> None:
    g = S.prepared()
    src = S.summon(g, 1, "CS2_231")
    theirs = S.summon(g, 2, "CS2_182")
    SummonEnemy("EX1_116t", 2).run(g, Ctx(src, 0, 1))
    assert g.board[2][0] == theirs and len(g.board[2]) == 3 and g.board[1] == [src]
    assert g.ents[g.board[2][1]][CREATOR] == src
    assert g.controller_of(g.board[2][2]) == 2


def test_summon_enemy_from_a_deathrattle_uses_the_dead_minions_controller() -> None:
    g = S.prepared()
    S.end_turn(g)
    beast = S.summon(g, 2, "EX1_577")  # player 2's The Beast
    S.hit(g, beast, 7)
    assert [g.ents[i].card.id for i in g.board[1]] == ["EX1_finkle"]


def test_both_sides_alternate_right_then_left() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    src = S.summon(g, 1, "CS2_182")
    SummonBothSides("EX1_116t").run(g, Ctx(src, 0, 1))
    ids = [g.ents[i].card.id for i in g.board[1]]
    assert g.board[1][0] == a and ids.index("CS2_182") == 3 and len(ids) == 7
    assert ids == ["CS2_231", "EX1_116t", "EX1_116t", "CS2_182", "EX1_116t", "EX1_116t", "EX1_116t"]


def test_both_sides_with_a_full_board_summons_nothing() -> None:
    g = S.prepared()
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    SummonBothSides("EX1_116t").run(g, Ctx(g.board[1][3], 0, 1))
    assert all(g.ents[i].card.id == "CS2_231" for i in g.board[1])


def test_set_remaining_health_keeps_maximum_and_armor_and_heals_nothing() -> None:
    g = S.prepared()
    g.gain_armor(1, 3)
    lightwarden = S.summon(g, 1, "EX1_001")  # +2 Attack whenever a character is healed
    SetRemainingHealth(FRIENDLY_HERO, 15).run(g, Ctx(g.hero[1], 0, 1))
    S.resolve(g)
    hero = g.ents[g.hero[1]]
    assert g.health(g.hero[1]) == 15 and hero[HEALTH] == 30 and hero[ARMOR] == 3
    S.hit(g, g.hero[1], 10)
    SetRemainingHealth(FRIENDLY_HERO, 15).run(g, Ctx(g.hero[1], 0, 1))  # up from 8
    S.resolve(g)
    assert g.health(g.hero[1]) == 15 and g.ents[lightwarden][ATK] == 1  # no healing
