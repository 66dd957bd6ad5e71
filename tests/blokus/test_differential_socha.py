"""Our engine against the official client's engine (socha 5.1.0) on random games.

Both engines play the same random games side by side; at every ply the sets of legal
placements, the turn bookkeeping and the scores must agree, and random (mostly illegal)
moves must get the same verdict.
"""

from __future__ import annotations

import random

import pytest

from bench import socha_adapter as bridge
from games import blokus
from games.blokus import COLORS, ROTATIONS, SHAPES, IllegalMove, SetMove, SkipMove, State
from games.blokus.shapes import transform

CELL_MISTAKES = {"OUT_OF_BOUNDS", "OBSTRUCTED", "TOUCHES_SAME_COLOR"}


def placement_set(moves: list[SetMove]) -> set[tuple[str, frozenset[tuple[int, int]]]]:
    return {(move.color, move.cells) for move in moves}


def our_placements(state: State) -> list[SetMove]:
    return [move for move in state.legal_moves() if isinstance(move, SetMove)]


def random_game_move(state: State, rng: random.Random, skip: float = 0.08) -> blokus.Move:
    """Mostly placements, sometimes a skip, so that skips and eliminations both happen."""
    moves = list(state.legal_moves())
    skips = [move for move in moves if isinstance(move, SkipMove)]
    if skips and rng.random() < skip:
        return skips[0]
    placements = [move for move in moves if isinstance(move, SetMove)]
    return rng.choice(placements or moves)


def cell_mistakes(state: State, move: SetMove) -> set[str]:
    """Every per-cell mistake that applies to some cell of `move`."""
    color = move.color
    found = set()
    for dx, dy in transform(move.kind, move.rotation, move.flipped):
        x, y = move.x + dx, move.y + dy
        if not (0 <= x < 20 and 0 <= y < 20):
            found.add("OUT_OF_BOUNDS")
        elif state.color_at(x, y) is not None:
            found.add("OBSTRUCTED")
        elif color in {state.color_at(x + a, y + b) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))}:
            found.add("TOUCHES_SAME_COLOR")
    return found


def random_set_move(state: State, rng: random.Random) -> SetMove:
    color = state.current_color if rng.random() < 0.95 else rng.choice(COLORS)
    if rng.random() < 0.5:
        kind = rng.choice(state.undeployed(state.current_color) or SHAPES)
    else:
        kind = rng.choice(SHAPES)
    return SetMove(
        color,
        kind,
        rng.choice(ROTATIONS),
        rng.random() < 0.5,
        rng.randint(-3, 21),
        rng.randint(-3, 21),
    )


def our_mistake(state: State, move: SetMove | SkipMove) -> str | None:
    try:
        state.validate(move)
    except IllegalMove as error:
        return error.mistake.name
    return None


def compare_validation(state: State, theirs: object, rng: random.Random, count: int) -> None:
    for _ in range(count):
        move = random_set_move(state, rng)
        ours = our_mistake(state, move)
        official = bridge.socha_mistake(theirs, move)  # type: ignore[arg-type]
        if ours in CELL_MISTAKES and official in CELL_MISTAKES:
            # Which cell is checked first depends on a hash set's order (socha's differs
            # from the server's): both must be among the mistakes that really apply.
            applicable = cell_mistakes(state, move)
            assert ours in applicable and official in applicable, (move, ours, official)
        else:
            assert ours == official, (move, ours, official)
        assert state.is_legal(move) == (official is None)
    for color in COLORS:  # skips: wrong colour, a colour's first move, or fine
        skip = SkipMove(color)
        assert our_mistake(state, skip) == bridge.socha_skip_mistake(theirs, skip), (skip,)


def play_side_by_side(seed: int, skip: float) -> State:
    rng = random.Random(seed)
    ours = blokus.new_game(seed=seed)
    theirs = bridge.new_socha_game(ours.start_piece)
    plies = 0
    while not ours.is_over:
        color = ours.current_color
        first = len(ours.undeployed(color)) == len(SHAPES)
        official = bridge.socha_placements(theirs, first)
        mine = our_placements(ours)
        assert len(mine) == len(placement_set(mine)), "a placement was generated twice"
        assert len(official) == len(placement_set(official))
        assert placement_set(mine) == placement_set(official), (seed, ours.turn)
        if plies % 6 == 0:
            compare_validation(ours, theirs, rng, 25)
        move = random_game_move(ours, rng, skip)
        ours.apply(move)
        bridge.play(theirs, move)
        plies += 1
        assert ours.turn == theirs.turn
        assert ours.round == theirs.round()
        assert ours.is_over == theirs.is_over()
        assert ours.current_color == bridge.COLOR_FROM[str(theirs.current_color())]
        assert ours.valid_colors == tuple(
            c for c in COLORS if theirs.is_valid_color(bridge.COLOR_TO[c])
        )
        for c in COLORS:
            assert ours.points(c) == theirs.get_points_for_color(bridge.COLOR_TO[c])
    winner = theirs.win_condition()
    expected = None if winner is None else ("ONE" if "One" in str(winner) else "TWO")
    assert ours.result().winner == expected
    assert plies > 20
    return ours


@pytest.mark.parametrize("seed", range(8))
def test_side_by_side_random_games(seed: int) -> None:
    final = play_side_by_side(seed, skip=0.08)
    assert not final.valid_colors  # these games end by elimination


@pytest.mark.parametrize("seed", [200, 201])
def test_side_by_side_games_reaching_the_round_limit(seed: int) -> None:
    # Skipping half the time stretches the game to the 24-round limit.
    final = play_side_by_side(seed, skip=0.5)
    # advance() passes over eliminated colours, so the last turn may lie beyond 96.
    assert final.turn >= 96 and final.round == 25 and final.valid_colors


@pytest.mark.parametrize("seed", range(100, 106))
def test_positions_rebuilt_from_snapshots(seed: int) -> None:
    """socha states built from our snapshot (not replayed) agree on moves and verdicts."""
    rng = random.Random(seed)
    ours = blokus.new_game(seed=seed)
    stop = rng.randrange(4, 80)
    while not ours.is_over and ours.turn < stop:
        ours.apply(random_game_move(ours, rng))
    if ours.is_over:
        return
    theirs = bridge.socha_state_of(ours)
    assert theirs.turn == ours.turn
    color = ours.current_color
    first = len(ours.undeployed(color)) == len(SHAPES)
    assert placement_set(our_placements(ours)) == placement_set(
        bridge.socha_placements(theirs, first)
    )
    compare_validation(ours, theirs, rng, 150)
