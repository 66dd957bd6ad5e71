"""Property tests over random games: the rules' invariants hold after every move."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import blokus
from games.blokus import COLORS, SHAPE_SIZE, SHAPES, SetMove, SkipMove, State
from games.blokus.playout import random_placement
from games.blokus.state import _move_of

EDGES = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))

# (start-piece seed, number of plies, seed of the move choices): whole games are cheap to
# describe this way, and hypothesis still covers short and long ones.
games = st.tuples(st.integers(0, 2**32), st.integers(0, 110), st.integers(0, 2**32))


def choices_of(game: tuple[int, int, int]) -> list[int]:
    _, plies, choice_seed = game
    rng = random.Random(choice_seed)
    return [rng.randrange(10**6) for _ in range(plies)]


settings_ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cells_of(state: State, color: str) -> set[tuple[int, int]]:
    return {(x, y) for x, y, c in state.fields() if c == color}


def pick(state: State, choice: int) -> blokus.Move:
    moves = list(state.legal_moves())
    return moves[choice % len(moves)]


def rebuilt(state: State) -> State:
    return State.from_snapshot(
        turn=state.turn,
        start_piece=state.start_piece,
        fields=state.fields(),
        undeployed={c: state.undeployed(c) for c in COLORS},
        valid_colors=state.valid_colors,
        last_move=state.last_move,
        last_move_mono=state.last_move_mono,
    )


@settings_
@given(games)
def test_invariants_along_random_games(game: tuple[int, int, int]) -> None:
    seed, choices = game[0], choices_of(game)
    state = blokus.new_game(seed=seed)
    played: list[blokus.Move] = []
    for choice in choices:
        if state.is_over:
            break
        move = pick(state, choice)
        color = state.current_color
        before_own = cells_of(state, color)
        occupied = {(x, y) for x, y, _ in state.fields()}
        if isinstance(move, SetMove):
            assert not move.cells & occupied, "overlap"
            touching = {(x + a, y + b) for x, y in move.cells for a, b in EDGES}
            assert not touching & before_own, "edge contact with own colour"
            corners = {(x + a, y + b) for x, y in move.cells for a, b in CORNERS}
            if before_own:
                assert corners & before_own, "no shared corner"
            else:
                assert move.kind == state.start_piece
                assert any(x in (0, 19) or y in (0, 19) for x, y in move.cells)
        snapshot = state.clone()
        state.apply(move)
        played.append(move)
        assert snapshot != state
        assert state.last_move == move
        # Points are the placed squares plus the bonuses.
        for c in COLORS:
            placed = len(cells_of(state, c))
            left = state.undeployed(c)
            assert placed == 89 - sum(SHAPE_SIZE[s] for s in left)
            bonus = 0 if left else 15 + (5 if state.last_move_mono[c] else 0)
            assert state.points(c) == placed + bonus
        assert len(state.fields()) == len({(x, y) for x, y, _ in state.fields()})
        # The colour on move can place something, unless the game is over.
        if not state.is_over:
            assert any(isinstance(m, SetMove) for m in state.legal_moves())
        assert rebuilt(state) == state
    # Same seed and same moves: the same state.
    again = blokus.new_game(seed=seed)
    for move in played:
        again.apply(move)
    assert again == state
    result = state.result()
    one, two = result.points["ONE"], result.points["TWO"]
    assert one == state.points("BLUE") + state.points("RED")
    assert two == state.points("YELLOW") + state.points("GREEN")
    assert result.winner == (None if one == two else ("ONE" if one > two else "TWO"))
    assert sum(result.win_points.values()) == 2


@settings_
@given(games)
def test_clone_is_independent_and_pop_undoes(game: tuple[int, int, int]) -> None:
    seed, choices = game[0], choices_of(game)
    state = blokus.new_game(seed=seed)
    history = [state.clone()]
    for choice in choices[:40]:
        if state.is_over:
            break
        copy = state.clone()
        move = pick(state, choice)
        state.push(move)
        history.append(state.clone())
        assert copy == history[-2], "the clone changed with the original"
        if not copy.is_over:
            copy.apply(pick(copy, choice + 1))
        assert state == history[-1], "the original changed with the clone"
    while len(history) > 1:
        history.pop()
        state.pop()
        assert state == history[-1]


@settings_
@given(games)
def test_legal_moves_are_exactly_the_valid_ones(game: tuple[int, int, int]) -> None:
    seed, choices = game[0], choices_of(game)
    rng = random.Random(game[2] + 1)
    state = blokus.new_game(seed=seed)
    for choice in choices[:50]:
        if state.is_over:
            break
        state.apply(pick(state, choice))
    moves = list(state.legal_moves())
    assert all(state.is_legal(move) for move in moves)
    assert len(set(moves)) == len(moves)
    generated = set(moves)
    color = state.current_color
    # Every valid move is generated, whatever rotation/flip spelling it uses.
    for _ in range(300):
        move = SetMove(
            color,
            rng.choice(SHAPES),
            rng.choice(blokus.ROTATIONS),
            rng.random() < 0.5,
            rng.randint(-2, 19),
            rng.randint(-2, 19),
        )
        assert state.is_legal(move) == (move in generated)
    skip_allowed = len(state.undeployed(color)) < len(SHAPES) and not state.is_over
    assert (SkipMove(color) in generated) == skip_allowed


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 2**32))
def test_random_playout_equals_replaying_its_moves(seed: int, plies: int, rng_seed: int) -> None:
    start = blokus.new_game(seed=seed)
    walk = random.Random(rng_seed)
    for _ in range(plies):
        if start.is_over:
            break
        start.apply(walk.choice(list(start.legal_moves())))
    record: list[SetMove] = []
    final = blokus.random_playout(start.clone(), random.Random(rng_seed), record)
    assert final.is_over
    replay = start.clone()
    for move in record:
        replay.apply(move)
    # The playout never skips: colours without placements are eliminated, as in apply().
    assert replay.is_over
    assert (replay.turn, replay.valid_colors, replay.fields()) == (
        final.turn,
        final.valid_colors,
        final.fields(),
    )
    assert replay.result() == final.result()
    if record:
        assert final.last_move == record[-1]
    again = blokus.random_playout(start.clone(), random.Random(rng_seed))
    assert again == final


def test_random_placement_is_uniform_over_the_legal_placements() -> None:
    rng = random.Random(5)
    state = blokus.new_game(seed=5)
    while state.turn < 40:
        placements = [m for m in state.legal_moves() if isinstance(m, SetMove)]
        state.apply(rng.choice(placements))
    legal = [m for m in state.legal_moves() if isinstance(m, SetMove)]
    assert 20 <= len(legal) <= 400
    color = COLORS.index(state.current_color)
    draws = 60 * len(legal)
    counts: dict[SetMove, int] = {}
    for _ in range(draws):
        pid = random_placement(state, rng)
        assert pid is not None
        move = _move_of(color, pid)
        counts[move] = counts.get(move, 0) + 1
    assert set(counts) == set(legal)
    # 60 expected per placement: a chi-square far beyond its 0.999 quantile means bias.
    chi2 = sum((c - 60) ** 2 / 60 for c in counts.values())
    dof = len(legal) - 1
    assert chi2 < dof + 5 * (2 * dof) ** 0.5


def test_random_placement_from_start() -> None:
    state = blokus.new_game("PENTO_W")
    rng = random.Random(1)
    seen = {random_placement(state, rng) for _ in range(4000)}
    assert len(seen) == 272


def test_moves_pickle_and_compare() -> None:
    move = SetMove("GREEN", "PENTO_R", "LEFT", True, 4, 7)
    assert pickle.loads(pickle.dumps(move)) == move
    assert eval(repr(move), {"SetMove": SetMove}) == move
    assert pickle.loads(pickle.dumps(SkipMove("RED"))) == SkipMove("RED")
    assert SetMove("RED", "DOMINO") != SetMove("BLUE", "DOMINO")
    assert SetMove("RED", "DOMINO") != SkipMove("RED")
    # The square covers the same cells in every spelling: one move.
    spellings = {SetMove("RED", "TETRO_O", r, f) for r in blokus.ROTATIONS for f in (False, True)}
    assert len(spellings) == 1


def test_pop_without_history_raises() -> None:
    state = blokus.new_game("PENTO_V")
    with pytest.raises(IndexError):
        state.pop()
    state.push(next(iter(state.legal_moves())))
    clone = state.clone()
    assert clone.pop() == state.last_move
    assert clone == blokus.new_game("PENTO_V")
    assert state.turn == 1, "popping the clone left the original alone"
    blokus.random_playout(state, random.Random(2))
    with pytest.raises(IndexError):
        state.pop()


def test_move_mask_is_its_transformed_cells() -> None:
    """`SetMove` places a shape worked out once at the origin: the same mask as placing the
    transformed cells one by one, on the board and off it (-1)."""
    from games.blokus.bitboard import cells_to_mask
    from games.blokus.shapes import CANONICAL, ROTATIONS, transform

    for kind in CANONICAL:
        for rotation in ROTATIONS:
            for flipped in (False, True):
                cells = transform(kind, rotation, flipped)
                for x in range(-5, 25):
                    for y in range(-5, 25):
                        expected = cells_to_mask((x + dx, y + dy) for dx, dy in cells)
                        mask = SetMove("BLUE", kind, rotation, flipped, x, y).mask
                        assert mask == (-1 if expected is None else expected), \
                            (kind, rotation, flipped, x, y)
