"""The official 2027 test vectors (reference section 6), one test per vector."""

from __future__ import annotations

import pytest

from games import blokus
from games.blokus import COLORS, SHAPES, IllegalMove, Mistake, SetMove, SkipMove, State
from games.blokus.shapes import rotate, rotation_sum, transform, variants

ORDER = [(r, f) for f in (False, True) for r in ("NONE", "RIGHT", "MIRROR", "LEFT")]


def cells(*pairs: str) -> frozenset[tuple[int, int]]:
    return frozenset((int(p[0]), int(p[1])) for p in pairs)


def test_tetro_l_transforms_in_order() -> None:
    expected = [
        cells("00", "01", "02", "12"),
        cells("00", "01", "10", "20"),
        cells("00", "10", "11", "12"),
        cells("01", "11", "21", "20"),
        cells("10", "11", "12", "02"),
        cells("00", "10", "20", "21"),
        cells("10", "00", "01", "02"),
        cells("00", "01", "11", "21"),
    ]
    assert [frozenset(transform("TETRO_L", r, f)) for r, f in ORDER] == expected


def test_pento_w_transforms_in_order() -> None:
    a = cells("00", "01", "11", "12", "22")
    b = cells("02", "01", "11", "10", "20")
    c = cells("00", "10", "11", "21", "22")
    d = cells("02", "12", "11", "21", "20")
    assert [frozenset(transform("PENTO_W", r, f)) for r, f in ORDER] == [a, b, c, d, d, c, b, a]


def test_pento_r_transforms_in_order() -> None:
    expected = [
        cells("01", "12", "11", "21", "20"),
        cells("01", "10", "11", "12", "22"),
        cells("02", "01", "11", "10", "21"),
        cells("00", "10", "11", "12", "21"),
        cells("00", "01", "11", "12", "21"),
        cells("02", "12", "11", "10", "21"),
        cells("01", "10", "11", "21", "22"),
        cells("01", "12", "11", "10", "20"),
    ]
    assert [frozenset(transform("PENTO_R", r, f)) for r, f in ORDER] == expected


def test_trio_l_flipped_at_2_2() -> None:
    move = SetMove("BLUE", "TRIO_L", flipped=True, x=2, y=2)
    assert move.cells == {(2, 3), (3, 3), (3, 2)}


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("MONO", [("NONE", False)]),
        ("DOMINO", [("NONE", False), ("RIGHT", False)]),
        ("TRIO_L", [("NONE", False), ("NONE", True), ("RIGHT", False), ("RIGHT", True)]),
        ("TETRO_O", [("NONE", False)]),
    ],
)
def test_variant_maps(kind: str, expected: list[tuple[str, bool]]) -> None:
    assert [(r, f) for r, f, _ in variants(kind)] == expected


def test_variant_counts_of_all_shapes() -> None:
    counts = [1, 2, 4, 2, 1, 4, 2, 8, 4, 8, 4, 4, 8, 4, 2, 8, 4, 4, 8, 1, 8]
    assert [len(variants(kind)) for kind in SHAPES] == counts
    # Every orientation of the 8 transforms is one of the variants, none is lost.
    for kind in SHAPES:
        found = {frozenset(transform(kind, r, f)) for r, f in ORDER}
        assert found == {c for _, _, c in variants(kind)}


def test_rotation_algebra() -> None:
    assert rotation_sum("RIGHT", "LEFT") == "NONE"
    assert rotation_sum("MIRROR", "MIRROR") == "NONE"
    assert rotation_sum("LEFT", "LEFT") == "MIRROR"
    for kind in SHAPES:
        base = transform(kind)
        assert frozenset(rotate(rotate(base, "RIGHT"), "LEFT")) == frozenset(base)
        assert frozenset(rotate(rotate(base, "MIRROR"), "MIRROR")) == frozenset(base)
        assert frozenset(rotate(rotate(base, "LEFT"), "LEFT")) == frozenset(rotate(base, "MIRROR"))


def mistake_of(state: State, move: blokus.Move) -> Mistake:
    with pytest.raises(IllegalMove) as caught:
        state.apply(move)
    assert caught.value.move == move
    assert caught.value.text == caught.value.mistake.text
    return caught.value.mistake


def test_first_move_mistakes_start_pento_u() -> None:
    state = blokus.new_game("PENTO_U")
    before = state.clone()
    assert mistake_of(state, SetMove("RED", "MONO")) is Mistake.WRONG_COLOR
    assert mistake_of(state, SetMove("BLUE", "MONO", x=-1, y=2)) is Mistake.WRONG_SHAPE
    assert mistake_of(state, SkipMove("BLUE")) is Mistake.SKIP_FIRST_TURN
    assert mistake_of(state, SetMove("BLUE", "PENTO_S")) is Mistake.WRONG_SHAPE
    assert mistake_of(state, SetMove("BLUE", "PENTO_U", x=-1, y=-1)) is Mistake.OUT_OF_BOUNDS
    assert mistake_of(state, SetMove("BLUE", "PENTO_U", x=10, y=10)) is Mistake.NOT_ON_BORDER
    assert state == before


def test_valid_start_sequence_pento_u() -> None:
    state = blokus.new_game("PENTO_U")
    sequence = [
        (SetMove("BLUE", "PENTO_U", x=17, y=0), {(17, 0), (17, 1), (18, 1), (19, 1), (19, 0)}),
        (
            SetMove("YELLOW", "PENTO_U", rotation="RIGHT", x=18, y=17),
            {(18, 17), (19, 17), (18, 18), (18, 19), (19, 19)},
        ),
        (SetMove("RED", "PENTO_U", x=0, y=18), {(0, 18), (0, 19), (1, 19), (2, 19), (2, 18)}),
        (
            SetMove("GREEN", "PENTO_U", flipped=True, x=0, y=0),
            {(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)},
        ),
    ]
    for move, covered in sequence:
        assert move.cells == covered
        color = state.current_color
        assert color == move.color
        state.apply(move)
        assert {(x, y) for x, y, c in state.fields() if c == color} == covered
        assert state.last_move == move
        assert "PENTO_U" not in state.undeployed(color)
    assert state.turn == 4
    assert state.round == 2
    assert state.current_color == "BLUE"
    assert [c for _, _, c in state.fields()].count("BLUE") == 5


def test_duplicate_shape_then_skip_start_pento_i() -> None:
    state = blokus.new_game("PENTO_I")
    piece = SetMove("BLUE", "PENTO_I", rotation="RIGHT", flipped=True, x=0, y=0)
    state.apply(piece)
    for color, x in (("YELLOW", 19), ("RED", 5), ("GREEN", 10)):
        state.apply(SetMove(color, "PENTO_I", x=x, y=15))
    assert state.turn == 4 and state.current_color == "BLUE"
    before = state.clone()
    assert mistake_of(state, piece) is Mistake.DUPLICATE_SHAPE
    assert state == before
    assert len(state.undeployed("BLUE")) == 20
    state.apply(SkipMove("BLUE"))
    assert state.last_move == SkipMove("BLUE")
    assert state.turn == 5


def test_pento_w_has_272_distinct_start_moves() -> None:
    moves = list(blokus.new_game("PENTO_W").legal_moves())
    assert len(moves) == 272
    assert len(set(moves)) == 272
    assert len({m.cells for m in moves}) == 272
    assert all(isinstance(m, SetMove) and m.kind == "PENTO_W" for m in moves)
    assert len({(m.rotation, m.flipped) for m in moves}) == 4
    # 68 border positions per orientation: every orientation is a 3x3 box.
    for rotation, flipped, _ in variants("PENTO_W"):
        same = [m for m in moves if (m.rotation, m.flipped) == (rotation, flipped)]
        assert len(same) == 68


def snapshot(undeployed: dict[str, tuple[str, ...]], **extra: object) -> State:
    return State.from_snapshot(
        turn=extra.pop("turn", 0),  # type: ignore[arg-type]
        start_piece="PENTO_X",
        fields=extra.pop("fields", ()),  # type: ignore[arg-type]
        undeployed=undeployed,
        valid_colors=extra.pop("valid_colors", COLORS),  # type: ignore[arg-type]
        last_move_mono=extra.pop("last_move_mono", None),  # type: ignore[arg-type]
    )


def test_scores() -> None:
    full = {c: SHAPES for c in COLORS}
    nothing_placed = snapshot(full)
    assert nothing_placed.points("BLUE") == 0
    mono_flag = snapshot(full, last_move_mono={"BLUE": True})
    assert mono_flag.points("BLUE") == 0
    all_placed = snapshot({**full, "BLUE": ()}, last_move_mono={"BLUE": False})
    assert all_placed.points("BLUE") == 104
    mono_last = snapshot({**full, "BLUE": ()}, last_move_mono={"BLUE": True})
    assert mono_last.points("BLUE") == 109
    three_left = snapshot(
        {**full, "BLUE": ("MONO", "PENTO_W", "TETRO_I")}, last_move_mono={"BLUE": True}
    )
    assert three_left.points("BLUE") == 79


def test_team_points_and_win_points() -> None:
    full = {c: SHAPES for c in COLORS}
    state = snapshot({**full, "BLUE": (), "RED": ("MONO",)}, last_move_mono={"BLUE": True})
    assert state.team_points("ONE") == 109 + 88
    assert state.team_points("TWO") == 0
    result = state.result()
    assert result.points == {"ONE": 197, "TWO": 0}
    assert result.win_points == {"ONE": 2, "TWO": 0}
    assert result.winner == "ONE"
    tie = snapshot(full).result()
    assert tie.winner is None and tie.win_points == {"ONE": 1, "TWO": 1}
    two = snapshot({**full, "GREEN": ("MONO",)}).result()
    assert two.winner == "TWO" and two.win_points == {"ONE": 0, "TWO": 2}


def test_turn_bookkeeping_like_game_state_test() -> None:
    state = blokus.new_game("PENTO_X")
    for turn, color in enumerate(COLORS):
        probe = snapshot({c: SHAPES for c in COLORS}, turn=turn)
        assert (probe.current_color, probe.round) == (color, 1)
    probe = snapshot({c: SHAPES for c in COLORS}, turn=4)
    assert (probe.current_color, probe.round) == ("BLUE", 2)
    state._advance(7)
    assert (state.turn, state.current_color, state.round) == (7, "GREEN", 2)
    state._advance(4)
    assert (state.turn, state.current_color, state.round) == (11, "GREEN", 3)
    state._remove_active_color()
    assert (state.turn, state.current_color, state.round) == (12, "BLUE", 4)
    for color in ("BLUE", "YELLOW", "GREEN"):
        state._undeployed[COLORS.index(color)] = 0
    state._remove_invalid_colors()
    assert (state.turn, state.current_color) == (14, "RED")
    assert state.valid_colors == ("RED",)
    state._advance()
    assert (state.turn, state.current_color) == (18, "RED")
    state._advance()
    assert (state.turn, state.current_color) == (22, "RED")


def test_advance_seven_from_turn_four() -> None:
    state = snapshot({c: SHAPES for c in COLORS}, turn=4)
    state._advance(7)
    assert (state.turn, state.current_color, state.round) == (11, "GREEN", 3)


def test_no_pieces_left_leaves_only_skip() -> None:
    full = {c: SHAPES for c in COLORS}
    state = snapshot({**full, "BLUE": ()}, turn=20, fields=[(0, 0, "BLUE")])
    assert state.current_color == "BLUE"
    assert list(state.legal_moves()) == [SkipMove("BLUE")]


def test_game_ends_at_round_25() -> None:
    full = {c: ("MONO", "DOMINO") for c in COLORS}
    fields = [(0, 0, "BLUE"), (19, 0, "YELLOW"), (19, 19, "RED"), (0, 19, "GREEN")]
    state = snapshot(full, turn=95, fields=fields)
    assert not state.is_over and state.round == 24
    state.apply(SkipMove("GREEN"))
    assert state.turn == 96 and state.round == 25 and state.is_over
    assert list(state.legal_moves()) == []
    assert mistake_of(state, SkipMove("BLUE")) is Mistake.GAME_OVER


def test_elimination_is_recursive_and_skips_their_turns() -> None:
    # BLUE has only the MONO left and its single corner is blocked by YELLOW; YELLOW has
    # nothing left. After RED moves, GREEN plays; after GREEN, BLUE and YELLOW go.
    full = {c: SHAPES[:-1] for c in COLORS}
    fields = [(0, 0, "BLUE"), (1, 1, "YELLOW"), (19, 19, "RED"), (0, 19, "GREEN")]
    state = State.from_snapshot(
        turn=2,
        start_piece="PENTO_X",
        fields=fields,
        undeployed={**full, "BLUE": ("MONO",), "YELLOW": ()},
        valid_colors=COLORS,
    )
    state.apply(SetMove("RED", "MONO", x=18, y=18))
    assert state.current_color == "GREEN" and state.valid_colors == COLORS
    state.apply(SetMove("GREEN", "MONO", x=1, y=18))
    assert state.valid_colors == ("RED", "GREEN")
    assert (state.turn, state.current_color) == (6, "RED")
