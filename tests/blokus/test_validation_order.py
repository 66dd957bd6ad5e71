"""When a move has several faults, the one reported is the official server's.

The official code iterates `java.util.HashSet`s of `Coordinates` (a Kotlin data class, hash
`31 * x + y`): 16 buckets, bucket `(h ^ (h >>> 16)) & 15`, insertion order within a bucket.
The expected orders below are worked out by hand from those rules.
"""

from __future__ import annotations

from games.blokus import COLORS, SHAPES, IllegalMove, Mistake, SetMove, State
from games.blokus.shapes import _java_hash_set, official_cell_order


def test_java_hash_set_order() -> None:
    # (1,1): h=32 -> bucket 0; (0,1): h=1 -> 1; (0,0): h=0 -> 0;
    # (-1,0): h=-31 = 0xFFFFFFE1, ^ 0xFFFF = 0xFFFF001E -> bucket 14.
    assert _java_hash_set([(1, 1), (0, 1), (0, 0), (-1, 0)]) == [(1, 1), (0, 0), (0, 1), (-1, 0)]


def test_domino_cells_in_official_order() -> None:
    # (3,4): h=97 -> bucket 1; (4,4): h=128 -> bucket 0.
    assert official_cell_order("DOMINO", "NONE", False, 3, 4) == [(4, 4), (3, 4)]


def blue_to_move(fields: list[tuple[int, int, str]]) -> State:
    return State.from_snapshot(
        turn=4,
        start_piece="PENTO_X",
        fields=fields,
        undeployed={c: SHAPES[:-2] for c in COLORS},
        valid_colors=COLORS,
    )


def mistake(state: State, move: SetMove) -> Mistake:
    try:
        state.validate(move)
    except IllegalMove as error:
        return error.mistake
    raise AssertionError("the move was accepted")


def test_first_faulty_cell_in_official_order_decides() -> None:
    domino = SetMove("BLUE", "DOMINO", x=3, y=4)
    # (4,4) touches BLUE at (5,4); (3,4) is RED: (4,4) comes first.
    assert mistake(blue_to_move([(5, 4, "BLUE"), (3, 4, "RED")]), domino) is (
        Mistake.TOUCHES_SAME_COLOR
    )
    # (4,4) is RED; (3,4) touches BLUE at (2,4): (4,4) comes first again.
    assert mistake(blue_to_move([(2, 4, "BLUE"), (4, 4, "RED")]), domino) is Mistake.OBSTRUCTED


def test_off_board_and_obstructed() -> None:
    # DOMINO at (-1, 0): (-1,0) is in bucket 14, (0,0) in bucket 0, so (0,0) comes first.
    domino = SetMove("BLUE", "DOMINO", x=-1, y=0)
    assert mistake(blue_to_move([(0, 0, "RED"), (9, 9, "BLUE")]), domino) is Mistake.OBSTRUCTED
    assert mistake(blue_to_move([(9, 9, "BLUE")]), domino) is Mistake.OUT_OF_BOUNDS
