"""Connect Four rules: a `Board` of 7 columns x 6 rows, bitboards as plain ints.

Player 0 (``X``) moves first, then the players alternate; a disc falls to the lowest free
cell of its column; four of one player's discs in a row (horizontally, vertically or
diagonally) win, and a full board without four in a row is a draw. A move is a column
number 0..6, left to right.

>>> board = Board()
>>> for column in (3, 3, 4, 4, 5, 5):
...     board.push(column)
>>> list(board.legal_moves), board.turn, board.is_over
([0, 1, 2, 3, 4, 5, 6], 0, False)
>>> board.push(6)
>>> board.winner, board.result(), board.is_over
(0, '1-0', True)
>>> print(board)
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . O O O .
. . . X X X X
0 1 2 3 4 5 6
>>> board.pop()
6
>>> board == Board.from_moves("445566"), board.notation()
(True, '445566')

The string notation (`from_moves`, `notation`) is the one of Pascal Pons' solver and test
sets: one digit per move, columns numbered 1..7 from the left, so ``"4"`` is the centre
column, which is column 3 in `push` and `legal_moves`.

Bit layout: column ``c`` holds bits ``7*c`` (bottom row) to ``7*c + 5`` (top row); bit
``7*c + 6`` is a sentinel that is never set, so that a line shifted across the top of one
column never continues at the bottom of the next (no wrap-around). Each player has one such
int; `occupied` is their union.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

WIDTH = 7
HEIGHT = 6
# Bits per column: the playable rows plus the sentinel row.
STRIDE = HEIGHT + 1
CELLS = WIDTH * HEIGHT

# The bottom cell of each column, one column's playable cells, every playable cell.
BOTTOM = sum(1 << (STRIDE * c) for c in range(WIDTH))
COLUMN_MASKS = tuple(((1 << HEIGHT) - 1) << (STRIDE * c) for c in range(WIDTH))
FULL = sum(COLUMN_MASKS)
TOP_CELLS = tuple(1 << (STRIDE * c + HEIGHT - 1) for c in range(WIDTH))
# Bit shifts that step along a line: vertical, horizontal, and the two diagonals.
DIRECTIONS = (1, STRIDE, STRIDE - 1, STRIDE + 1)

PLAYER_SYMBOLS = ("X", "O")


def square(column: int, row: int) -> int:
    """The bit of the cell at `column` (0..6, left to right) and `row` (0..5, bottom up).

    >>> square(0, 0), square(1, 0), square(6, 5) == 1 << 47
    (1, 128, True)
    """
    return 1 << (STRIDE * column + row)


def has_four(discs: int) -> bool:
    """Whether a player's bitboard holds four in a row in any direction.

    >>> has_four(square(0, 0) | square(1, 1) | square(2, 2) | square(3, 3))
    True
    >>> has_four(square(0, 3) | square(0, 4) | square(0, 5) | square(1, 0))  # no wrap-around
    False
    """
    for shift in DIRECTIONS:
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def threats(discs: int, occupied: int) -> int:
    """The empty cells where a disc of the player owning `discs` would make four in a row
    (whether or not the cell can be played yet).

    >>> threats(square(0, 0) | square(0, 1) | square(0, 2), square(0, 0) | square(0, 1)
    ...         | square(0, 2)) == square(0, 3)
    True
    """
    # Vertical: only the cell right above three discs.
    found = (discs << 1) & (discs << 2) & (discs << 3)
    for shift in DIRECTIONS[1:]:
        two = (discs << shift) & (discs << (2 * shift))
        found |= two & (discs << (3 * shift))
        found |= two & (discs >> shift)
        two = (discs >> shift) & (discs >> (2 * shift))
        found |= two & (discs << shift)
        found |= two & (discs >> (3 * shift))
    return found & (FULL ^ occupied)


def playable(occupied: int) -> int:
    """The cells a disc falls into now, one per column that is not full."""
    return (occupied + BOTTOM) & FULL


class Mistake(enum.Enum):
    """Why a move is illegal (`IllegalMove.mistake`)."""

    OUT_OF_RANGE = "column out of range"
    COLUMN_FULL = "column is full"
    GAME_OVER = "the game is over"


class IllegalMove(ValueError):
    """A move that the rules forbid in the position: the mistake and the column."""

    def __init__(self, mistake: Mistake, column: object) -> None:
        super().__init__(f"illegal move {column!r}: {mistake.value}")
        self.mistake = mistake
        self.column = column


class InvalidMoveString(ValueError):
    """A move string with something other than digits 1..7 in it."""


class LegalMoves:
    """The legal columns of a board, left to right: a lazy, countable, membership-testable
    view (python-chess's `LegalMoveGenerator`); it follows the board as moves are pushed.

    >>> board = Board.from_moves("444444")
    >>> moves = board.legal_moves
    >>> len(moves), 3 in moves, 2 in moves, bool(moves), list(moves)
    (6, False, True, True, [0, 1, 2, 4, 5, 6])
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[int]:
        board = self._board
        if board.winner is not None:
            return
        occupied = board.occupied
        for column in range(WIDTH):
            if not occupied & TOP_CELLS[column]:
                yield column

    def __contains__(self, column: object) -> bool:
        return self._board.is_legal(column)

    def __bool__(self) -> bool:
        return not self._board.is_over

    def count(self) -> int:
        """How many legal moves there are (no list is built)."""
        board = self._board
        if board.winner is not None:
            return 0
        occupied = board.occupied
        return sum(1 for top in TOP_CELLS if not occupied & top)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves {list(self)!r}>"


class Board:
    """A Connect Four position and the moves that led to it.

    `push` validates its column (raising `IllegalMove`), `pop` takes the last move back.
    Two boards are equal when their discs are the same, whatever order they were played in.
    """

    __slots__ = ("_discs", "_heights", "_moves", "_winner")

    def __init__(self) -> None:
        self._discs = [0, 0]
        # The next free bit of each column.
        self._heights = [STRIDE * c for c in range(WIDTH)]
        self._moves: list[int] = []
        self._winner: int | None = None

    @classmethod
    def from_moves(cls, moves: str) -> Board:
        """The board after `moves`, digits 1..7 (Pons' notation; see the module docstring).

        >>> Board.from_moves("4455").turn
        0
        >>> Board.from_moves("48")
        Traceback (most recent call last):
        ...
        connect4.board.InvalidMoveString: not a column digit 1..7: '8' at 1
        """
        board = cls()
        for index, char in enumerate(moves):
            if char not in "1234567":
                raise InvalidMoveString(f"not a column digit 1..7: {char!r} at {index}")
            board.push(int(char) - 1)
        return board

    # --- reading the position ----------------------------------------------------------

    @property
    def turn(self) -> int:
        """The player to move: 0 (first, ``X``) or 1 (``O``); after the end, the one who
        would be next."""
        return len(self._moves) & 1

    @property
    def ply(self) -> int:
        """How many discs are on the board."""
        return len(self._moves)

    @property
    def moves(self) -> tuple[int, ...]:
        """The columns played so far, in order."""
        return tuple(self._moves)

    @property
    def occupied(self) -> int:
        """The bitboard of every disc."""
        return self._discs[0] | self._discs[1]

    def discs(self, player: int) -> int:
        """The bitboard of `player`'s discs."""
        return self._discs[player]

    def cell(self, column: int, row: int) -> int | None:
        """The player whose disc is at (`column`, `row` from the bottom), or None."""
        bit = square(column, row)
        if self._discs[0] & bit:
            return 0
        if self._discs[1] & bit:
            return 1
        return None

    @property
    def winner(self) -> int | None:
        """The player with four in a row, or None."""
        return self._winner

    @property
    def is_over(self) -> bool:
        """Whether somebody has won or the board is full."""
        return self._winner is not None or len(self._moves) == CELLS

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` (full board), or ``"*"`` (still on)."""
        if self._winner is not None:
            return "1-0" if self._winner == 0 else "0-1"
        return "1/2-1/2" if len(self._moves) == CELLS else "*"

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal columns (a view; see `LegalMoves`)."""
        return LegalMoves(self)

    def is_legal(self, column: object) -> bool:
        return self._mistake(column) is None

    def _mistake(self, column: object) -> Mistake | None:
        if type(column) is not int or not 0 <= column < WIDTH:
            return Mistake.OUT_OF_RANGE
        if self.is_over:
            return Mistake.GAME_OVER
        if self._heights[column] == STRIDE * column + HEIGHT:
            return Mistake.COLUMN_FULL
        return None

    # --- making and taking back moves ---------------------------------------------------

    def push(self, column: int) -> None:
        """Drop the mover's disc into `column` (0..6).

        Raises `IllegalMove` (and changes nothing) for a column out of range or full, or
        when the game is over.
        """
        mistake = self._mistake(column)
        if mistake is not None:
            raise IllegalMove(mistake, column)
        player = len(self._moves) & 1
        discs = self._discs[player] | (1 << self._heights[column])
        self._discs[player] = discs
        self._heights[column] += 1
        self._moves.append(column)
        if has_four(discs):
            self._winner = player

    def pop(self) -> int:
        """Take back the last move and return its column; IndexError when there is none."""
        column = self._moves.pop()
        self._heights[column] -= 1
        self._discs[len(self._moves) & 1] ^= 1 << self._heights[column]
        # A won game takes no further move, so the position before the last move was open.
        self._winner = None
        return column

    def peek(self) -> int:
        """The last move's column; IndexError when there is none."""
        return self._moves[-1]

    def copy(self) -> Board:
        """An independent board with the same position and move history."""
        board = Board.__new__(Board)
        board._discs = self._discs[:]
        board._heights = self._heights[:]
        board._moves = self._moves[:]
        board._winner = self._winner
        return board

    # --- identity and printing ------------------------------------------------------------

    def key(self) -> int:
        """One int naming the position: the discs of both players (the mover follows from
        the disc count). Equal positions, however reached, have equal keys."""
        return self._discs[0] | (self._discs[1] << (STRIDE * WIDTH))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._discs == other._discs

    def __hash__(self) -> int:
        return hash(self.key())

    def notation(self) -> str:
        """The moves so far as a `from_moves` string (digits 1..7)."""
        return "".join(str(column + 1) for column in self._moves)

    def __repr__(self) -> str:
        return f"Board.from_moves({self.notation()!r})"

    def rows(self) -> list[str]:
        """The board as six strings of seven cells (``X``, ``O``, ``.``), the top row first.

        >>> Board.from_moves("44").rows()[-2:]
        ['...O...', '...X...']
        """
        return ["".join("." if (owner := self.cell(column, row)) is None
                        else PLAYER_SYMBOLS[owner] for column in range(WIDTH))
                for row in reversed(range(HEIGHT))]

    def __str__(self) -> str:
        rows = [" ".join(line) for line in self.rows()]
        rows.append(" ".join(str(column) for column in range(WIDTH)))
        return "\n".join(rows)


def perft(board: Board, depth: int) -> int:
    """The number of move sequences of exactly `depth` plies from `board`.

    Convention: a game that ends (four in a row or a full board) before `depth` plies were
    played counts nothing, since no sequence of `depth` moves continues it; a game that ends
    on the last ply counts as one leaf. `depth` 0 is always 1 leaf: the position itself.
    No game ends before its 7th ply, so ``perft(Board(), n) == 7 ** n`` up to n = 6.

    >>> perft(Board(), 2), perft(Board.from_moves("4455667"), 1)
    (49, 0)
    """
    if depth == 0:
        return 1
    if depth == 1:  # bulk counting: the leaves are the legal moves
        return board.legal_moves.count()
    leaves = 0
    for column in list(board.legal_moves):
        board.push(column)
        leaves += perft(board, depth - 1)
        board.pop()
    return leaves
