"""Silence clears CANT_ATTACK ("Can't attack." is card text Silence removes: Ancient
Watcher, Ragnaros the Firelord)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import CANT_ATTACK
from games.hearth.game import State


def _can_attack(g: State, eid: int) -> bool:
    return any(a.kind == Kind.ATTACK and a.entity == eid for a in g.legal_actions())


def test_a_silenced_watcher_attacks() -> None:
    g = S.prepared()
    watcher = S.summon(g, 1, "EX1_045")
    assert g.ents[watcher][CANT_ATTACK] and not _can_attack(g, watcher)
    g.silence(watcher)
    assert g.ents[watcher][CANT_ATTACK] == 0 and _can_attack(g, watcher)


def test_a_silenced_ragnaros_attacks_and_throws_nothing() -> None:
    g = S.prepared()
    rag = S.summon(g, 1, "EX1_298")
    assert not _can_attack(g, rag)
    g.silence(rag)
    assert _can_attack(g, rag)
    S.end_turn(g)
    assert g.health(g.hero[2]) == 30
