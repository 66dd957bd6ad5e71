"""REQ_MUST_TARGET_TAUNTER (The Black Knight): only a minion with Taunt is a target (with
the card's other requirements: an enemy minion); a Taunt in Stealth is no target for the
enemy, and with no Taunt the battlecry is played without a target."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import STEALTH, TAUNT
from games.hearth.game import State


def _targets(g: State, eid: int) -> set[int]:
    return {a.target for a in g.legal_actions() if a.kind == Kind.PLAY and a.entity == eid}


def test_only_taunts_are_targets() -> None:
    g = S.prepared()
    taunt = S.summon(g, 2, "CS2_179")
    S.summon(g, 2, "CS2_182")
    knight = S.give(g, 1, "EX1_002")
    assert _targets(g, knight) == {taunt}


def test_a_taunt_given_later_counts_and_silence_takes_it_away() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    knight = S.give(g, 1, "EX1_002")
    assert _targets(g, knight) == {0}
    g.set_tag(yeti, TAUNT, 1)
    assert _targets(g, knight) == {yeti}
    g.silence(yeti)
    assert _targets(g, knight) == {0}


def test_a_stealthed_taunt_is_not_a_target() -> None:
    g = S.prepared()
    taunt = S.summon(g, 2, "CS2_179")
    g.set_tag(taunt, STEALTH, 1)
    knight = S.give(g, 1, "EX1_002")
    assert _targets(g, knight) == {0}
