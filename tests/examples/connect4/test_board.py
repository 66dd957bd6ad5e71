"""The Connect Four rules: wins in every direction, no wrap-around, the draw, illegal moves,
push/pop, equality and hashing, the notation and the diagram."""

from __future__ import annotations

import random

import pytest
from connect4.board import (
    CELLS,
    FULL,
    HEIGHT,
    WIDTH,
    Board,
    IllegalMove,
    InvalidMoveString,
    Mistake,
    has_four,
    square,
    threats,
)

# A full board without four in a row: rows alternate XXOOXXO / OOXXOOX, so no line of four
# in any direction is one colour. Found once by a depth-first search for a move order that
# builds that pattern under gravity and alternation; any such order is a legal game.
DRAW = "544444433333355555222222666666111117777771"
DRAW_DIAGRAM = """\
O O X X O O X
X X O O X X O
O O X X O O X
X X O O X X O
O O X X O O X
X X O O X X O
0 1 2 3 4 5 6"""


def mirrored(moves: str) -> str:
    """The same game played in the mirror image (column 1 <-> 7)."""
    return "".join(str(8 - int(char)) for char in moves)


def assert_wins_on_last_move(moves: str, winner: int) -> Board:
    board = Board.from_moves(moves[:-1])
    assert board.winner is None and not board.is_over and board.result() == "*"
    board.push(int(moves[-1]) - 1)
    assert board.winner == winner and board.is_over
    assert board.result() == ("1-0" if winner == 0 else "0-1")
    assert list(board.legal_moves) == [] and board.legal_moves.count() == 0
    assert not board.legal_moves
    return board


def test_horizontal_wins() -> None:
    board = assert_wins_on_last_move("4455667", 0)
    assert [board.cell(c, 0) for c in range(3, 7)] == [0, 0, 0, 0]
    # the mirror image wins the same way, along columns 0..3
    mirror = assert_wins_on_last_move(mirrored("4455667"), 0)
    assert [mirror.cell(c, 0) for c in range(4)] == [0, 0, 0, 0]
    # O along the bottom row's right end, X stacking in column 1 (three only) and column 2
    board = assert_wins_on_last_move("14151627", 1)
    assert [board.cell(c, 0) for c in range(3, 7)] == [1, 1, 1, 1]
    # O on row 1, above a bottom row of X X O X in columns 3..6
    board = assert_wins_on_last_move("3543641615", 1)
    assert [board.cell(c, 1) for c in range(2, 6)] == [1, 1, 1, 1]


def test_vertical_wins_at_the_bottom_and_the_top_of_a_column() -> None:
    board = assert_wins_on_last_move("4545454", 0)
    assert [board.cell(3, r) for r in range(4)] == [0, 0, 0, 0]
    # O's four on rows 2..5 of column 7, above two X discs
    board = assert_wins_on_last_move("7177272737", 1)
    assert [board.cell(6, r) for r in range(HEIGHT)] == [0, 0, 1, 1, 1, 1]


def test_diagonal_wins_both_ways() -> None:
    up = assert_wins_on_last_move("12234334744", 0)
    assert [up.cell(i, i) for i in range(4)] == [0, 0, 0, 0]
    # the mirror image: X on (6,0) (5,1) (4,2) (3,3), the other diagonal
    down = assert_wins_on_last_move(mirrored("12234334744"), 0)
    assert [down.cell(6 - i, i) for i in range(4)] == [0, 0, 0, 0]


def test_every_window_of_four_wins_and_nothing_else_does() -> None:
    """All 69 windows of the 7x6 board are four in a row; every other set of four cells
    that is evenly spaced in the bit layout (a line that would wrap across columns or past
    the top) is not: the sentinel row breaks each of them."""
    windows = set()
    for column in range(WIDTH):
        for row in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells):
                    windows.add(sum(square(c, r) for c, r in cells))
    assert len(windows) == 24 + 21 + 12 + 12
    for window in windows:
        assert has_four(window)
    bits = [bit for bit in range(64) if FULL >> bit & 1]
    assert len(bits) == CELLS
    false_lines = 0
    for shift in range(1, 15):
        for start in bits:
            line = sum(1 << (start + k * shift) for k in range(4))
            if line & ~FULL or line in windows:
                continue
            false_lines += 1
            assert not has_four(line), (shift, start)
    assert false_lines > 0


def test_no_wrap_around_on_the_board() -> None:
    # X on the top three cells of column 0 and the bottom cell of column 1: consecutive
    # bits but for the sentinel between them.
    board = Board.from_moves("21717117161")
    assert [board.cell(0, row) for row in (3, 4, 5)] == [0, 0, 0]
    assert board.cell(1, 0) == 0 and board.winner is None and not board.is_over
    # Cells that would be evenly spaced diagonals in a layout of 6 bits per column (a
    # line leaving the top or the bottom of one column and going on in the next one).
    assert not has_four(square(0, 4) | square(1, 5) | square(3, 0) | square(4, 1))
    assert not has_four(square(0, 1) | square(1, 0) | square(1, 5) | square(2, 4))
    # and the same shapes without the wrap are wins
    assert has_four(square(0, 2) | square(1, 3) | square(2, 4) | square(3, 5))
    assert has_four(square(0, 3) | square(1, 2) | square(2, 1) | square(3, 0))


def test_threats_find_the_cells_that_complete_four() -> None:
    board = Board.from_moves("445566")
    mine = board.discs(0)
    assert threats(mine, board.occupied) == square(2, 0) | square(6, 0)
    assert threats(board.discs(1), board.occupied) == square(2, 1) | square(6, 1)


def test_a_full_board_is_a_draw() -> None:
    board = Board.from_moves(DRAW[:-1])
    assert not board.is_over and list(board.legal_moves) == [0]
    board.push(0)
    assert board.ply == CELLS and board.is_over and board.winner is None
    assert board.result() == "1/2-1/2" and list(board.legal_moves) == []
    assert str(board) == DRAW_DIAGRAM
    with pytest.raises(IllegalMove) as caught:
        board.push(0)
    assert caught.value.mistake is Mistake.GAME_OVER


def test_illegal_moves_change_nothing() -> None:
    board = Board.from_moves("444444")
    before = (board.key(), board.moves, board.turn)
    for column, mistake in [(3, Mistake.COLUMN_FULL), (7, Mistake.OUT_OF_RANGE),
                            (-1, Mistake.OUT_OF_RANGE), (True, Mistake.OUT_OF_RANGE),
                            ("3", Mistake.OUT_OF_RANGE), (3.0, Mistake.OUT_OF_RANGE)]:
        assert column not in board.legal_moves
        with pytest.raises(IllegalMove) as caught:
            board.push(column)  # type: ignore[arg-type]
        assert caught.value.mistake is mistake and caught.value.column == column
        assert isinstance(caught.value, ValueError)
        assert (board.key(), board.moves, board.turn) == before
    won = Board.from_moves("4455667")
    with pytest.raises(IllegalMove, match="the game is over"):
        won.push(0)
    assert won.moves == (3, 3, 4, 4, 5, 5, 6)
    with pytest.raises(IndexError):
        Board().pop()


def test_legal_moves_view() -> None:
    board = Board.from_moves("444444111111")
    moves = board.legal_moves
    assert list(moves) == [1, 2, 4, 5, 6] and len(moves) == 5 and moves.count() == 5
    assert 1 in moves and 0 not in moves and 3 not in moves and "1" not in moves
    board.push(1)  # the view follows the board
    assert len(moves) == 5 and board.turn == 1


def test_push_pop_restores_position_hash_and_history() -> None:
    rng = random.Random(7)
    for _ in range(50):
        board = Board()
        played: list[tuple[int, int, tuple[int, ...]]] = []
        while not board.is_over:
            played.append((board.key(), hash(board), board.moves))
            board.push(rng.choice(list(board.legal_moves)))
        final = board.copy()
        assert final == board and final.winner == board.winner
        while played:
            key, hashed, moves = played.pop()
            board.pop()
            assert (board.key(), hash(board), board.moves) == (key, hashed, moves)
            assert board.winner is None
        assert board == Board() and board.ply == 0
        assert final != board  # the copy is independent


def test_equal_positions_are_equal_however_reached() -> None:
    a, b = Board.from_moves("1234"), Board.from_moves("3214")
    assert a == b and hash(a) == hash(b) and a.moves != b.moves
    assert a != Board.from_moves("2143")  # the same cells, colours swapped
    assert len({a, b, Board.from_moves("2143")}) == 2
    assert a != "1234"


def test_copy_is_independent() -> None:
    board = Board.from_moves("4444")
    clone = board.copy()
    clone.push(0)
    assert board.moves == (3, 3, 3, 3) and clone.moves == (3, 3, 3, 3, 0)
    assert board != clone and clone.peek() == 0


def test_notation_round_trip_and_bad_strings() -> None:
    board = Board.from_moves(DRAW)
    assert board.notation() == DRAW and Board.from_moves(board.notation()) == board
    assert repr(Board.from_moves("4453")) == "Board.from_moves('4453')"
    assert eval(repr(Board.from_moves("4453")), {"Board": Board}) == Board.from_moves("4453")
    for bad in ("0", "8", "4a", "4 4"):
        with pytest.raises(InvalidMoveString):
            Board.from_moves(bad)
    with pytest.raises(IllegalMove):
        Board.from_moves("4444444")  # a seventh disc in column 4


def test_result_strings_and_turn() -> None:
    assert Board().result() == "*" and Board().turn == 0
    assert Board.from_moves("4").turn == 1
    assert Board.from_moves("4455667").result() == "1-0"
    assert Board.from_moves("14151627").result() == "0-1"
    assert Board.from_moves(DRAW).result() == "1/2-1/2"
