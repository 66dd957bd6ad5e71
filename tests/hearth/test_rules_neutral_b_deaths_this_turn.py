"""Friendly minions that died this turn (High Inquisitor Whitemane): the player entity
counts them as a real log does (NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN, written in the
DEATHS block, back to 0 in the player's own MAIN_READY; NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME),
and each dead minion keeps the game count at its death, so the graveyard knows the order.
All of it is tags: clone, hash and a rebuilt view carry it."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import (
    NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME,
    NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN,
)
from games.hearth.tree import ViewTree

TURN_COUNT = NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN
GAME_COUNT = NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME


def test_each_death_counts_for_its_controller() -> None:
    g = S.prepared()
    a, b = S.summon(g, 1, "CS2_231"), S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind: all three at once
    assert g.ents[2][TURN_COUNT] == 2 and g.ents[2][GAME_COUNT] == 2
    assert g.ents[3][TURN_COUNT] == 1 and g.ents[3][GAME_COUNT] == 1
    # simultaneous deaths go in order of play
    assert (g.ents[a][GAME_COUNT], g.ents[b][GAME_COUNT], g.ents[enemy][GAME_COUNT]) == (1, 2, 1)
    assert g.died_this_turn(1) == [a, b] and g.died_this_turn(2) == [enemy]


def test_the_turn_count_restarts_at_the_players_own_turn() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    S.hit(g, a, 1)
    S.end_turn(g)  # player 2's turn: player 1's count stays until player 1's MAIN_READY
    assert g.ents[2][TURN_COUNT] == 1
    b = S.summon(g, 1, "CS2_231")
    S.hit(g, b, 1)  # died on the opponent's turn
    assert g.died_this_turn(1) == [a, b]
    S.end_turn(g)
    assert g.ents[2][TURN_COUNT] == 0 and g.ents[2][GAME_COUNT] == 2
    assert g.died_this_turn(1) == []
    c = S.summon(g, 1, "CS2_231")
    S.hit(g, c, 1)
    assert g.died_this_turn(1) == [c]


def test_order_of_death_not_of_play() -> None:
    g = S.prepared()
    first, second = S.summon(g, 1, "CS2_182"), S.summon(g, 1, "CS2_120")
    S.hit(g, second, 3)
    S.hit(g, first, 5)
    assert g.died_this_turn(1) == [second, first]


def test_the_counts_are_in_the_history_and_the_rebuilt_view() -> None:
    g = S.prepared(history=True)
    a = S.summon(g, 1, "CS2_231")
    S.hit(g, a, 1)
    text = repr(g.history(2))
    assert f"'tag': {TURN_COUNT}, 'value': 1" in text
    clone = g.clone()
    assert clone.died_this_turn(1) == [a] and clone.hash() == g.hash()
    tree = ViewTree()
    tree.feed(g.history(viewer=2))
    rebuilt = tree.state(2, seed=1)
    assert rebuilt.died_this_turn(1) == [a]
