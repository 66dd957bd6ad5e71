"""Effects for the opponent (``dsl.ForOpponent``): the same effects, run with the other
player as the controller (King Mukla's Bananas go to the opponent's hand, hidden from
Mukla's owner; Arcane Golem's crystal is the opponent's, an empty one, none at 10)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import MAX_HAND, RESOURCES, RESOURCES_USED


def test_cards_go_to_the_opponents_hand_and_stop_when_it_is_full() -> None:
    g = S.prepared()
    for _ in range(MAX_HAND - 1):
        S.give(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_014"))  # King Mukla: two Bananas, room for one
    assert len(g.hand[2]) == MAX_HAND and g.ents[g.hand[2][-1]].card.id == "EX1_014t"
    assert g.hand[1] == []


def test_the_giver_sees_how_many_cards_not_which() -> None:
    g = S.prepared(history=True)
    S.play(g, S.give(g, 1, "EX1_014"))
    obs = g.observation(1)
    assert obs["opponent"]["hand"] == [{"entity": i} for i in g.hand[2]]
    assert {c["card"] for c in g.observation(2)["you"]["hand"]} == {"EX1_014t"}


def test_a_mana_crystal_for_the_opponent_is_empty_and_capped_at_10() -> None:
    g = S.prepared(mana=None)
    S.set_mana(g, 1, 10)
    S.set_mana(g, 2, 6)
    S.play(g, S.give(g, 1, "EX1_089"))
    assert g.ents[3][RESOURCES] == 7 and g.ents[3][RESOURCES_USED] == 1
    assert g.ents[2][RESOURCES] == 10
    S.set_mana(g, 2, 10)
    S.play(g, S.give(g, 1, "EX1_089"))
    assert g.ents[3][RESOURCES] == 10 and g.ents[3][RESOURCES_USED] == 0
