"""Totemic Call: a random basic totem not in play yet; unusable with all four or a full board."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.cards.shaman import TOTEMS
from games.hearth.enums import EXHAUSTED
from games.hearth.game import State


def power_usable(g: State) -> bool:
    return any(a.kind == Kind.POWER for a in g.legal_actions())


def refresh(g: State) -> None:
    g._set(g.ents[g.power[1]], EXHAUSTED, 0)  # use the power again this turn


def test_each_call_summons_a_new_totem_until_all_four_are_out() -> None:
    for seed in range(5):
        g = S.prepared(hero1="HERO_02", seed=seed)
        for n in range(1, 5):
            assert power_usable(g)
            S.power(g)
            ids = [g.ents[i].card.id for i in g.board[1]]
            assert len(ids) == len(set(ids)) == n and set(ids) <= set(TOTEMS)
            refresh(g)
            S.set_mana(g, 1, 10)
        assert not power_usable(g)  # all four in play (SabberStone's requirement)
        g.destroy(g.board[1][0])
        S.resolve(g)
        assert power_usable(g)


def test_the_missing_totem_is_the_one_summoned() -> None:
    g = S.prepared(hero1="HERO_02")
    for cid in TOTEMS[:3]:
        S.summon(g, 1, cid)
    S.power(g)
    assert g.ents[g.board[1][-1]].card.id == TOTEMS[3]


def test_a_full_board_blocks_it() -> None:
    g = S.prepared(hero1="HERO_02")
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    assert not power_usable(g)


def test_a_totem_of_the_opponent_does_not_count() -> None:
    g = S.prepared(hero1="HERO_02")
    for cid in TOTEMS:
        S.summon(g, 2, cid)
    assert power_usable(g)
