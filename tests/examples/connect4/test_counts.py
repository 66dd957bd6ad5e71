"""The move generator against published and derived counts.

Published: OEIS A212693, the number of distinct Connect Four positions after n plies
(https://oeis.org/A212693): 1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, ...
A finished game is not continued (no position comes after four in a row).

Derived (our `perft` convention: sequences of exactly n plies; a game that ends before the
n-th ply counts nothing, one that ends on it counts one):

- n <= 6: 7**n. Four in a row needs four discs of one player, so no game ends before ply 7;
  a column fills only with its 6th disc, so each of the first 6 plies has all 7 columns.
- n = 7: 7**7 - 7 = 823536. Still no game has ended before the 7th ply, but the 7th ply
  finds one column full exactly when the first 6 plies all went into the same column
  (7 such sequences), and then has 6 choices instead of 7: 7 * 7**6 - 7.
"""

from __future__ import annotations

import pytest
from connect4.board import Board, perft

A212693 = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]


def distinct_positions(plies: int) -> list[int]:
    """How many distinct positions each ply 0..`plies` has: a depth-first walk that expands
    each position once per ply (a set of position keys per ply), with push/pop only."""
    seen: list[set[int]] = [set() for _ in range(plies + 1)]
    board = Board()

    def walk(ply: int) -> None:
        key = board.key()
        if key in seen[ply]:
            return
        seen[ply].add(key)
        if ply == plies or board.is_over:
            return
        for column in list(board.legal_moves):
            board.push(column)
            walk(ply + 1)
            board.pop()

    walk(0)
    return [len(keys) for keys in seen]


def test_distinct_positions_per_ply_are_oeis_a212693() -> None:
    assert distinct_positions(8) == A212693


@pytest.mark.parametrize(("depth", "leaves"), [
    (0, 1), (1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649),
    (7, 7**7 - 7),
])
def test_perft_from_the_start(depth: int, leaves: int) -> None:
    assert perft(Board(), depth) == leaves


def test_perft_counts_a_full_column_and_a_won_game() -> None:
    # Column 4 full after six plies (X on rows 0, 2, 4; O on 1, 3, 5): 6 columns left, and
    # nobody can make four within two more plies (X would have 4 discs, 3 of them with
    # gaps in column 4), so 6 and 6 * 6.
    full = Board.from_moves("444444")
    assert perft(full, 1) == 6 and perft(full, 2) == 36
    # X to move with X X X on row 0 (columns 4..6) and O O O above: columns 3 and 7 win at
    # once, so those two lines end at depth 1 and count nothing at depth 2; the other 5
    # moves leave O 7 replies each (O's own threats, on row 1 of columns 3 and 7, are not
    # playable yet): 5 * 7.
    threat = Board.from_moves("445566")
    assert perft(threat, 1) == 7 and perft(threat, 2) == 35
    # A won game has no moves; depth 0 still counts the position itself.
    won = Board.from_moves("4455667")
    assert perft(won, 0) == 1 and perft(won, 1) == 0 and perft(won, 3) == 0


def test_perft_leaves_the_board_as_it_was() -> None:
    board = Board.from_moves("4453")
    before = (board.key(), board.moves)
    perft(board, 4)
    assert (board.key(), board.moves) == before
