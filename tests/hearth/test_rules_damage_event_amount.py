"""A damage event carries the amount dealt (``Ctx.amount``, read by Eye for an Eye through
``dsl.EventAmount``): after Armor and after doubling; damage Armor absorbed whole is no
event at all."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.dsl import Ctx, EventAmount
from games.hearth.game import State


def _eye_armed() -> tuple[State, int]:
    g = S.prepared(hero1="HERO_04", hero2="HERO_09")
    secret = S.give(g, 1, "EX1_132")
    S.play(g, secret)
    S.end_turn(g)
    return g, secret


def test_event_amount_reads_the_context() -> None:
    assert EventAmount().eval(S.prepared(), Ctx(0, 0, 1, amount=7)) == 7


def test_damage_all_absorbed_by_armor_is_no_event() -> None:
    g, secret = _eye_armed()
    g.gain_armor(1, 5)
    boar = S.summon(g, 2, "CS2_171")
    S.attack(g, boar, g.hero[1])
    assert secret in g.secrets[1] and g.health(g.hero[2]) == 30


def test_amount_includes_the_attackers_doubling() -> None:
    g, secret = _eye_armed()
    S.summon(g, 2, "EX1_350")  # the opponent's Prophet Velen: Mind Blast 5 -> 10
    S.play(g, S.give(g, 2, "DS1_233"))
    assert g.health(g.hero[1]) == 20 and g.health(g.hero[2]) == 20  # 10 back
    assert secret not in g.secrets[1]
