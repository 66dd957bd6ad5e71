"""Windfury attacks twice; summoning sickness still holds; an aura that reads a keyword tag
(Warsong Commander: Charge) follows a keyword given later."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import ATK, CHARGE, WINDFURY
from games.hearth.game import State


def attacks(g: State, eid: int) -> bool:
    return any(a.kind == Kind.ATTACK and a.entity == eid for a in g.legal_actions())


def test_windfury_gives_exactly_two_attacks() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    g.set_tag(yeti, WINDFURY, 1)
    S.attack(g, yeti, g.hero[2])
    assert attacks(g, yeti)
    S.attack(g, yeti, g.hero[2])
    assert not attacks(g, yeti) and g.health(g.hero[2]) == 22


def test_windfury_does_not_lift_summoning_sickness() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182", ready=False)
    g.set_tag(yeti, WINDFURY, 1)
    assert not attacks(g, yeti)
    S.end_turn(g)
    S.end_turn(g)
    assert attacks(g, yeti)


def test_a_single_attack_still_exhausts_a_plain_minion() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.attack(g, yeti, g.hero[2])
    assert not attacks(g, yeti)


def test_an_aura_on_a_keyword_sees_the_keyword_given_later() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.summon(g, 1, "EX1_084")
    assert g.ents[yeti][ATK] == 4
    g.set_tag(yeti, CHARGE, 1)
    S.resolve(g)
    assert g.ents[yeti][ATK] == 5
    g.silence(yeti)
    S.resolve(g)
    assert g.ents[yeti][ATK] == 4
