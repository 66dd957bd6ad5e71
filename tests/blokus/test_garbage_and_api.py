"""Bad input is refused with a clear exception; the public API has the promised shape."""

from __future__ import annotations

import contextlib
import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.blokus.bitboard
import games.blokus.errors
import games.blokus.moves
import games.blokus.playout
import games.blokus.shapes
import games.blokus.state
from games import blokus
from games.blokus import COLORS, SHAPES, IllegalMove, Mistake, SetMove, SkipMove, State


@pytest.mark.parametrize(
    "module",
    [
        blokus,
        games.blokus.bitboard,
        games.blokus.errors,
        games.blokus.moves,
        games.blokus.playout,
        games.blokus.shapes,
        games.blokus.state,
    ],
)
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0


def test_public_names() -> None:
    assert blokus.COLORS == ("BLUE", "YELLOW", "RED", "GREEN")
    assert blokus.TEAMS == ("ONE", "TWO")
    assert blokus.ROTATIONS == ("NONE", "RIGHT", "MIRROR", "LEFT")
    assert blokus.SHAPES[0] == "MONO" and blokus.SHAPES[-1] == "PENTO_Y" and len(SHAPES) == 21
    assert len(blokus.PENTOMINOES) == 12 and "PENTO_X" in blokus.PENTOMINOES
    assert sum(blokus.SHAPE_SIZE.values()) == 89
    assert [blokus.team_of(c) for c in COLORS] == ["ONE", "TWO", "ONE", "TWO"]
    assert issubclass(IllegalMove, ValueError)
    assert {m.name for m in Mistake} >= {
        "WRONG_COLOR",
        "WRONG_SHAPE",
        "DUPLICATE_SHAPE",
        "OUT_OF_BOUNDS",
        "OBSTRUCTED",
        "TOUCHES_SAME_COLOR",
        "NOT_ON_BORDER",
        "NO_SHARED_CORNER",
        "SKIP_FIRST_TURN",
    }


def test_one_home_for_shared_names() -> None:
    from protocols.sc import BLOKUS_GAME_TYPE

    assert blokus.GAME_TYPE == BLOKUS_GAME_TYPE == "swc_2027_blokus"
    assert blokus.win_points((104, 87)) == (2, 0)
    assert blokus.win_points((3, 90)) == (0, 2)
    assert blokus.win_points((60, 60)) == (1, 1)
    for seed in range(5):
        state = blokus.random_playout(blokus.new_game(seed=seed), random.Random(seed))
        result = state.result()
        wins = blokus.win_points(tuple(result.points.values()))
        assert tuple(result.win_points.values()) == wins
        assert result.winner == (None if 2 not in wins else blokus.TEAMS[wins.index(2)])


def test_bitboard_helpers_match_the_engine() -> None:
    state = blokus.new_game("PENTO_U")
    state.apply(SetMove("BLUE", "PENTO_U", x=17, y=0))
    own = state.board("BLUE")
    assert own == SetMove("BLUE", "PENTO_U", x=17, y=0).mask
    assert blokus.mask_to_cells(own) == SetMove("BLUE", "PENTO_U", x=17, y=0).cells
    assert blokus.cells_to_mask(blokus.mask_to_cells(own)) == own
    anchors = blokus.attach_corners(own, state.occupied)
    assert anchors == blokus.corner_neighbours(own) & ~blokus.edge_neighbours(own) & ~own
    assert anchors and not anchors & state.occupied
    # Every cell of an anchor's placements lies next to a corner of BLUE only.
    while state.current_color != "BLUE":
        state.apply(next(m for m in state.legal_moves()))
    for move in state.legal_moves():
        if isinstance(move, SetMove):
            assert move.mask & anchors
            assert not move.mask & blokus.edge_neighbours(own)
    assert blokus.cell_bit(3, 2) == blokus.cells_to_mask([(3, 2)])


def test_official_mistake_texts() -> None:
    assert Mistake.WRONG_COLOR.text == "Nur eigene Spielfiguren können gezogen werden"
    assert Mistake.SKIP_FIRST_TURN.text == "Der erste Zug muss einen Stein setzen"
    assert Mistake.OBSTRUCTED.text == "Der Spielstein würde eine andere Farbe überlagern"


def test_seeded_start_piece() -> None:
    pieces = {blokus.new_game(seed=seed).start_piece for seed in range(200)}
    assert pieces == set(blokus.PENTOMINOES)
    assert all(
        blokus.new_game(seed=s).start_piece == blokus.new_game(seed=s).start_piece
        for s in range(20)
    )
    assert blokus.new_game().start_piece in blokus.PENTOMINOES


@pytest.mark.parametrize(
    "args",
    [
        ("PURPLE", "MONO"),
        ("BLUE", "HEXO"),
        ("BLUE", "MONO", "SIDEWAYS"),
        ("BLUE", "MONO", "NONE", "yes"),
        ("BLUE", "MONO", "NONE", False, 1.5),
        ("BLUE", "MONO", "NONE", False, 0, 10**12),
        ("BLUE", "MONO", "NONE", False, True),
        (None, None),
    ],
)
def test_bad_moves_are_refused_at_construction(args: tuple[object, ...]) -> None:
    with pytest.raises((TypeError, ValueError)):
        SetMove(*args)  # type: ignore[arg-type]


def test_moves_are_immutable() -> None:
    move = SetMove("BLUE", "MONO")
    with pytest.raises(AttributeError):
        move.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        SkipMove("BLUE").color = "RED"  # type: ignore[misc]
    with pytest.raises(ValueError):
        SkipMove("black")


def test_non_moves_are_not_legal() -> None:
    state = blokus.new_game("PENTO_X")
    for junk in (None, "SetMove", 3, ("BLUE", "MONO"), object()):
        assert not state.is_legal(junk)
        with pytest.raises(TypeError):
            state.apply(junk)  # type: ignore[arg-type]
    assert state == blokus.new_game("PENTO_X")


def test_new_game_refuses_unknown_start_piece() -> None:
    with pytest.raises(ValueError):
        blokus.new_game("PENTO_Q")


def snapshot_kwargs(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "turn": 4,
        "start_piece": "PENTO_X",
        "fields": [(0, 0, "BLUE")],
        "undeployed": {c: SHAPES for c in COLORS},
        "valid_colors": COLORS,
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    "changes",
    [
        {"turn": -1},
        {"turn": "4"},
        {"turn": 10**9},
        {"start_piece": "NOPE"},
        {"fields": [(20, 0, "BLUE")]},
        {"fields": [(0, 0, "PINK")]},
        {"fields": [(0, 0, "BLUE"), (0, 0, "RED")]},
        {"fields": [(0, 0)]},
        {"fields": [None]},
        {"undeployed": {"BLUE": SHAPES}},
        {"undeployed": {c: ["MONO", "MONO2"] for c in COLORS}},
        {"valid_colors": ["BLUE", "BLACK"]},
        {"last_move": "skip"},
        {"last_move_mono": {"BLUE": "yes"}},
    ],
)
def test_bad_snapshots_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        State.from_snapshot(**snapshot_kwargs(**changes))  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["turn", "start_piece", "fields", "undeployed", "valid_colors"]),
        st.none()
        | st.integers()
        | st.text(max_size=8)
        | st.lists(st.tuples(st.integers(-5, 25), st.integers(-5, 25), st.text(max_size=6))),
    )
)
def test_garbage_snapshots_raise_only_value_error(changes: dict[str, object]) -> None:
    with contextlib.suppress(ValueError):
        State.from_snapshot(**snapshot_kwargs(**changes))  # type: ignore[arg-type]


def test_legal_moves_view_and_counts() -> None:
    state = blokus.new_game("PENTO_W")
    iterator = state.legal_moves()
    assert next(iter(iterator)).kind == "PENTO_W"
    assert state.legal_placement_count() == 272
    assert "BLUE" in repr(state)
    assert state.board_text().count(".") == 400


def test_unknown_colour_or_team_names() -> None:
    state = blokus.new_game("PENTO_X")
    for call in (
        lambda: state.undeployed("PINK"),
        lambda: state.points("blue"),
        lambda: state.team_points("THREE"),
        lambda: state.points(None),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError):
            call()
    assert state.color_at(-1, 0) is None and state.color_at(5, 25) is None
