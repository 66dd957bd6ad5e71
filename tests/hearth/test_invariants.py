"""Invariants checked after every action of many random games (incremental state = recomputed)."""

from __future__ import annotations

from games import hearth
from games.hearth.carddb import load_cards
from games.hearth.enums import (
    CONTROLLER,
    DAMAGE,
    HEALTH,
    MAX_BOARD,
    MAX_HAND,
    Z_DECK,
    Z_HAND,
    Z_PLAY,
    ZONE,
    ZONE_POSITION,
)
from games.hearth.rng import SplitMix64


def check(g: hearth.State) -> None:
    ents = g.ents
    for p in (1, 2):
        assert len(g.board[p]) <= MAX_BOARD and len(g.hand[p]) <= MAX_HAND
        for n, i in enumerate(g.board[p], 1):
            e = ents[i]
            assert (e[ZONE], e[ZONE_POSITION], e[CONTROLLER]) == (Z_PLAY, n, p)
            if not g.is_over:
                assert e[HEALTH] - e[DAMAGE] > 0, "a dead minion outlived the death phase"
        for n, i in enumerate(g.hand[p], 1):
            e = ents[i]
            assert (e[ZONE], e[ZONE_POSITION], e[CONTROLLER]) == (Z_HAND, n, p)
        for i in g.deck[p]:
            assert (ents[i][ZONE], ents[i][CONTROLLER]) == (Z_DECK, p)
        assert g.mana(p) >= 0
    # Auras are maintained incrementally: they must equal a fresh evaluation.
    expected: dict[int, dict[int, int]] = {}
    for inst in g.auras:
        src = ents[inst.source]
        assert src[ZONE] == Z_PLAY
        fresh = g._aura_selection(inst)
        assert sorted(inst.applied) == sorted(fresh)
    for inst in g.auras:
        deltas = load_cards()[inst.defn.enchant_id].script.buff
        for i in inst.applied:
            for tag, d in deltas:
                expected.setdefault(i, {}).setdefault(tag, 0)
                expected[i][tag] += d
    for i, e in ents.items():
        got = {t: v for t, v in (e.aura or {}).items() if v}
        want = {t: v for t, v in expected.get(i, {}).items() if v}
        if e[ZONE] == Z_PLAY:
            assert got == want, (i, e.card.id, got, want)
    # Triggers are registered exactly for the minions in play with triggers.
    listening = {i for lst in g.triggers.values() for i in lst}
    for i in listening:
        assert ents[i][ZONE] == Z_PLAY


def test_invariants_hold_after_every_action() -> None:
    for seed in range(25):
        g = hearth.new_game(seed=500 + seed)
        rng = SplitMix64(seed)
        check(g)
        while not g.is_over:
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
            check(g)
