"""Discard: a random card of the hand goes to the graveyard, revealed in the history."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import Z_GRAVEYARD, ZONE, ZONE_POSITION


def test_discard_primitive_moves_the_card_and_renumbers_the_hand() -> None:
    g = S.prepared()
    a, b, c = (S.give(g, 1, "CS2_231") for _ in range(3))
    g.discard(1, b)
    assert g.hand[1] == [a, c] and g.ents[b][ZONE] == Z_GRAVEYARD
    assert g.ents[a][ZONE_POSITION] == 1 and g.ents[c][ZONE_POSITION] == 2
    g.discard(1, b)  # not in hand any more: nothing happens
    assert g.hand[1] == [a, c]


def test_random_discard_uses_the_seeded_rng_and_skips_the_card_itself() -> None:
    picks = set()
    for seed in range(12):
        g = S.prepared(seed=seed)
        cards = [S.give(g, 1, cid) for cid in ("CS2_231", "CS2_182", "CS2_200")]
        soulfire = S.give(g, 1, "EX1_308")
        S.play(g, soulfire, g.hero[2])
        (gone,) = [i for i in cards if g.ents[i][ZONE] == Z_GRAVEYARD]
        picks.add(gone)
        again = S.prepared(seed=seed)
        cards2 = [S.give(again, 1, cid) for cid in ("CS2_231", "CS2_182", "CS2_200")]
        S.play(again, S.give(again, 1, "EX1_308"), again.hero[2])
        assert [again.ents[i][ZONE] for i in cards2] == [g.ents[i][ZONE] for i in cards]
    assert len(picks) > 1  # random, not always the same slot


def test_discard_with_an_empty_hand_does_nothing() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_306"))  # Felstalker, empty hand
    assert g.hand[1] == [] and len(g.board[1]) == 1


def test_the_opponent_sees_the_discarded_card() -> None:
    g = S.prepared(history=True)
    wisp = S.give(g, 1, "CS2_182")
    since = len(g.history(2))
    S.play(g, S.give(g, 1, "EX1_306"))
    text = repr(g.history(2)[since:])
    assert "show_entity" in text and "'CS2_182'" in text and g.ents[wisp][ZONE] == Z_GRAVEYARD
