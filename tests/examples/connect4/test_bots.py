"""The bundled bots: negamax beats random, takes wins, blocks losses, is deterministic and
fast enough; random plays only legal columns."""

from __future__ import annotations

import time

import pytest
from connect4.board import COLUMN_MASKS, Board, playable, threats
from connect4.bots import ORDER, NegamaxBot, RandomBot, evaluate

Bot = RandomBot | NegamaxBot


def play(first: Bot, second: Bot) -> Board:
    board = Board()
    bots = (first, second)
    while not board.is_over:
        before = board.copy()
        column = bots[board.turn].choose(board)
        assert board == before and board.moves == before.moves  # choose leaves it alone
        assert column in board.legal_moves
        board.push(column)
    return board


def test_centre_first_order() -> None:
    assert ORDER == (3, 2, 4, 1, 5, 0, 6)


def test_negamax_beats_random_in_every_seeded_game_on_both_seats() -> None:
    results = []
    for seed in range(10):
        negamax_seat = seed % 2
        negamax, rand = NegamaxBot(depth=6, seed=seed), RandomBot(seed=seed)
        board = play(negamax, rand) if negamax_seat == 0 else play(rand, negamax)
        results.append(board.winner == negamax_seat)
    assert all(results), results


def test_negamax_takes_an_immediate_win() -> None:
    # X to move: X X X on row 0 in columns 4..6 (1-based), open at both ends
    for depth in (1, 2, 5, 6):
        for seed in range(3):
            board = Board.from_moves("445566")
            column = NegamaxBot(depth=depth, seed=seed).choose(board)
            board.push(column)
            assert board.winner == 0, (depth, seed, column)
    # a win beats a block: X X X in column 4 (1-based), O O O in column 1, X to move
    board = Board.from_moves("414141")
    assert NegamaxBot(depth=6, seed=0).choose(board) == 3


def test_negamax_blocks_an_immediate_loss() -> None:
    # O to move; X has X X X on row 0 in columns 1..3 (1-based): only column 4 saves O
    for depth in (1, 2, 5, 6):
        for seed in range(3):
            board = Board.from_moves("17273")
            assert NegamaxBot(depth=depth, seed=seed).choose(board) == 3, (depth, seed)
    # and a vertical threat: X X X in column 6, O to move
    board = Board.from_moves("61626")
    assert NegamaxBot(depth=6, seed=0).choose(board) == 5


def test_negamax_does_not_play_under_a_threat() -> None:
    """In random positions where the mover cannot win at once, the opponent has no
    playable threat, and some playable cell lies right below a cell where the opponent
    would complete four: the bot never plays that cell while a safe column exists (two
    plies see the opponent's answer)."""
    checked = 0
    for seed in range(60):
        rand = RandomBot(seed)
        board = Board()
        while not board.is_over:
            mine, theirs = board.discs(board.turn), board.discs(1 - board.turn)
            free = playable(board.occupied)
            danger = (threats(theirs, board.occupied) >> 1) & free
            safe = [c for c in board.legal_moves if not danger & COLUMN_MASKS[c]]
            if (danger and safe and not threats(mine, board.occupied) & free
                    and not threats(theirs, board.occupied) & free):
                for depth in (2, 4):
                    assert NegamaxBot(depth=depth, seed=seed).choose(board) in safe
                checked += 1
            board.push(rand.choose(board))
    assert checked >= 10, checked


def test_negamax_is_deterministic_for_a_seed() -> None:
    games = [play(NegamaxBot(depth=4, seed=3), NegamaxBot(depth=4, seed=4)).moves
             for _ in range(2)]
    assert games[0] == games[1]
    first = [RandomBot(seed=5).choose(Board()) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rand = RandomBot(seed=5)
    assert [rand.choose(Board()) for _ in range(20)] != [first[0]] * 20


def test_six_plies_stay_well_under_half_a_second() -> None:
    bot = NegamaxBot(depth=6, seed=0)
    worst = 0.0
    for moves in ("", "4", "44", "4453", "445362", "3344557", "1234567", "44444433"):
        board = Board.from_moves(moves)
        start = time.perf_counter()
        bot.choose(board)
        worst = max(worst, time.perf_counter() - start)
    assert worst < 0.5, worst


def test_evaluation_counts_threats_against_the_mover() -> None:
    # O to move, X X X on row 0 (columns 4..6, 1-based) with both ends open: two X threats
    board = Board.from_moves("44556")
    assert evaluate(board.discs(board.turn), board.occupied, board.ply) < 0
    # the same threats, but X to move (O wasted a move in column 1): good for X
    board = Board.from_moves("445561")
    assert evaluate(board.discs(board.turn), board.occupied, board.ply) > 0
    assert evaluate(0, 0, 0) == 0


def test_no_move_in_a_finished_game() -> None:
    board = Board.from_moves("4455667")
    for bot in (RandomBot(1), NegamaxBot(2, 1)):
        with pytest.raises(ValueError, match="over"):
            bot.choose(board)
    with pytest.raises(ValueError, match="depth"):
        NegamaxBot(depth=0)
