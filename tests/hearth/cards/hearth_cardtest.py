"""Small readers shared by the card tests (the scenario helpers live in games.hearth.scenario)."""

from __future__ import annotations

from games.hearth.actions import Kind
from games.hearth.enums import ATK, Z_GRAVEYARD, Z_PLAY, ZONE
from games.hearth.game import State


def stats(g: State, eid: int) -> tuple[int, int]:
    """(attack, current health), as the client shows a minion."""
    return g.ents[eid][ATK], g.health(eid)


def atk(g: State, eid: int) -> int:
    return g.ents[eid][ATK]


def dead(g: State, eid: int) -> bool:
    return g.ents[eid][ZONE] == Z_GRAVEYARD


def in_play(g: State, eid: int) -> bool:
    return g.ents[eid][ZONE] == Z_PLAY


def card_ids(g: State, ids: list[int]) -> list[str]:
    return [g.ents[i].card.id for i in ids]


def play_targets(g: State, eid: int) -> set[int]:
    """The targets offered for playing ``eid`` now (0 = played without a target)."""
    return {a.target for a in g.legal_actions() if a.kind == Kind.PLAY and a.entity == eid}


def can_attack(g: State, eid: int) -> bool:
    return any(a.kind == Kind.ATTACK and a.entity == eid for a in g.legal_actions())


def attack_targets(g: State, eid: int) -> set[int]:
    return {a.target for a in g.legal_actions() if a.kind == Kind.ATTACK and a.entity == eid}
