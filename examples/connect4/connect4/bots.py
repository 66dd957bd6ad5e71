"""Bundled Connect Four bots: each has `choose(board) -> column` and leaves the board as it was.

`RandomBot` plays a uniformly random legal column; `NegamaxBot` searches `depth` plies with
alpha-beta negamax on the raw bitboards (no `Board` pushes), centre columns first, and
scores the positions where it stops by their threats (empty cells that would complete a
window of four) and centre discs. Both are deterministic for a seed.

>>> from connect4.board import Board
>>> NegamaxBot(depth=4, seed=1).choose(Board.from_moves("445566"))  # X completes the row
2
"""

from __future__ import annotations

import random

from connect4.board import (
    CELLS,
    COLUMN_MASKS,
    FULL,
    HEIGHT,
    STRIDE,
    WIDTH,
    Board,
    playable,
    threats,
)

# Centre first: the centre columns take part in the most windows of four.
ORDER = tuple(sorted(range(WIDTH), key=lambda column: (abs(column - WIDTH // 2), column)))
# Above any heuristic score: a win after `n` discs on the board scores WIN - n.
WIN = 1000
CENTRE = COLUMN_MASKS[WIDTH // 2]
# Rows 0, 2, 4 from the bottom (rows 1, 3, 5 in the usual counting): threats there are
# worth more to the first player, the others to the second (the odd/even threat rule).
ODD_ROWS = sum(1 << (STRIDE * c + r) for c in range(WIDTH) for r in range(0, HEIGHT, 2))


class RandomBot:
    """A uniformly random legal column, from a `random.Random(seed)`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Board) -> int:
        moves = list(board.legal_moves)
        if not moves:
            raise ValueError("no legal move: the game is over")
        return self.rng.choice(moves)


def evaluate(mine: int, occupied: int, ply: int) -> int:
    """The heuristic value of an open position for the player to move (`mine` = its discs):
    threats (empty cells completing four) count 4 each, 6 on the rows that favour their
    owner, and discs in the centre column 1 each; the opponent's count against."""
    theirs = mine ^ occupied
    my_threats = threats(mine, occupied)
    their_threats = threats(theirs, occupied)
    # The first player (to move when `ply` is even) prefers its threats on odd rows.
    mine_good, theirs_good = (ODD_ROWS, FULL ^ ODD_ROWS) if ply % 2 == 0 else (
        FULL ^ ODD_ROWS, ODD_ROWS)
    return (4 * (my_threats.bit_count() - their_threats.bit_count())
            + 2 * ((my_threats & mine_good).bit_count()
                   - (their_threats & theirs_good).bit_count())
            + (mine & CENTRE).bit_count() - (theirs & CENTRE).bit_count())


class NegamaxBot:
    """Alpha-beta negamax `depth` plies deep; ties between equally good columns are broken
    by a `random.Random(seed)`, so the same seed plays the same game."""

    def __init__(self, depth: int = 6, seed: int | None = None) -> None:
        if depth < 1:
            raise ValueError("depth must be at least 1")
        self.depth = depth
        self.rng = random.Random(seed)
        self.nodes = 0

    def choose(self, board: Board) -> int:
        if board.is_over:
            raise ValueError("no legal move: the game is over")
        mine, occupied, ply = board.discs(board.turn), board.occupied, board.ply
        self.nodes = 0
        free = playable(occupied)
        columns = [c for c in ORDER if free & COLUMN_MASKS[c]]
        wins = threats(mine, occupied) & free
        if wins:  # take the win now
            return next(c for c in columns if wins & COLUMN_MASKS[c])
        # Every column with the best score, searched with a window that still tells
        # a score equal to the best one (alpha = best - 1) from a worse one.
        best = -WIN - 1
        tied: list[int] = []
        for column in columns:
            move = free & COLUMN_MASKS[column]
            value = -self._search(mine ^ occupied, occupied | move, ply + 1, self.depth - 1,
                                  -WIN - 1, -(best - 1))
            if value > best:
                best, tied = value, [column]
            elif value == best:
                tied.append(column)
        return self.rng.choice(tied)

    def _search(self, mine: int, occupied: int, ply: int, depth: int,
                alpha: int, beta: int) -> int:
        """The negamax value for the player to move (`mine`), fail-soft within alpha..beta.
        The position is open: the last move did not win."""
        self.nodes += 1
        if ply == CELLS:
            return 0
        free = playable(occupied)
        if threats(mine, occupied) & free:
            return WIN - (ply + 1)
        if depth == 0:
            return evaluate(mine, occupied, ply)
        theirs = mine ^ occupied
        forced = threats(theirs, occupied) & free
        if forced:
            if forced & (forced - 1):  # two cells to block at once: lost
                return -(WIN - (ply + 2))
            free = forced  # the only move that does not lose at once
        # Never play right below a cell where the opponent would complete four (unless
        # nothing else is left): such moves go last.
        below = (threats(theirs, occupied) >> 1) & free
        best = -WIN - 1
        for later in (False, True):
            for column in ORDER:
                move = free & COLUMN_MASKS[column]
                if not move or bool(move & below) != later:
                    continue
                value = -self._search(theirs, occupied | move, ply + 1, depth - 1,
                                      -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return best
        return best
