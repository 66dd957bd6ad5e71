"""Connect Four as a room game (registered as `connect4`): the `server.rooms.game.Game`
adapter of `connect4.board`.

Two seats: seat 0 moves first (``X``). One decision at a time, to the seat to move, on the
move clock; its payload is the tuple of legal columns, and an answer is a column int 0..6.
An illegal answer ends the match (RULE_VIOLATION). No hidden information: every recipient
gets the same news, plain JSON (`news_of`): the moves so far in Pons' notation, who is to
move, who won and whether it is over, which the store keeps as it is and from which
`connect4.spectate` and `connect4.replay` rebuild the board. A seat's `view` is a `Board`.

>>> game = Connect4Game()
>>> dict(game.pending())
{0: Decision(payload=(0, 1, 2, 3, 4, 5, 6), clock=<Clock.MOVE: 'move'>, turn=None)}
>>> for seat, column in [(0, 3), (1, 0), (0, 3), (1, 0), (0, 3), (1, 0), (0, 3)]:
...     game.apply(seat, column)
>>> game.is_over, game.outcome()
(True, Outcome(winner=0, reason='four in a row', scores=(1, 0)))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

from connect4.board import Board, IllegalMove
from server.rooms.game import Decision, OnRefusal, RuleViolation, Views
from server.rooms.result import Outcome

GAME_TYPE = "connect4"
_NOBODY: Mapping[int, Decision] = MappingProxyType({})


class Connect4Game:
    """One Connect Four match for a room; `board` is the live position."""

    game_type = GAME_TYPE
    seat_count = 2
    on_refusal = OnRefusal.END_MATCH

    def __init__(self, seed: int | None = None) -> None:
        # Connect Four has no chance: the seed is accepted and picks nothing.
        self.seed = seed
        self.board = Board()

    @property
    def is_over(self) -> bool:
        return self.board.is_over

    def pending(self) -> Mapping[int, Decision]:
        if self.board.is_over:
            return _NOBODY
        return MappingProxyType({self.board.turn: Decision(tuple(self.board.legal_moves))})

    def accepts(self, data: object) -> bool:
        # bool is an int subclass, but True is no column.
        return type(data) is int

    def apply(self, seat: int, answer: Any) -> None:
        if seat != self.board.turn or self.board.is_over:
            # The room asks only the seat to move; this guards direct callers.
            raise RuleViolation("NOT_YOUR_TURN", f"seat {seat} is not to move", answer)
        if type(answer) is not int:
            raise RuleViolation("NOT_A_COLUMN", f"{answer!r} is not a column 0..6", answer)
        try:
            self.board.push(answer)
        except IllegalMove as exc:
            raise RuleViolation(exc.mistake.name, str(exc), answer) from exc

    def news(self, seats: Collection[int], observers: bool) -> Views:
        # Plain JSON (a new dict each time: the room's log keeps it), the same for all.
        return Views(news_of(self.board))

    def view(self, seat: int | None) -> Any:
        return self.board.copy()

    def scores(self) -> tuple[int, ...]:
        winner = self.board.winner
        return tuple(1 if seat == winner else 0 for seat in range(self.seat_count))

    def outcome(self) -> Outcome | None:
        if not self.board.is_over:
            return None
        if self.board.winner is not None:
            return Outcome(self.board.winner, "four in a row", self.scores())
        return Outcome(None, "board full", self.scores())

    def stopped(self) -> Outcome:
        """An admin's stop: the game's own outcome if it is over, else nobody wins."""
        return self.outcome() or Outcome(None, "stopped", self.scores())

    def concede(self, seat: int) -> bool:
        return False  # no concession in the rules; the room's result says who lost


def news_of(board: Board) -> dict[str, Any]:
    """The news of a position: ``moves`` (`Board.notation`, digits 1..7), ``turn`` (the seat
    to move; None once over), ``winner`` (a seat or None) and ``over``.

    >>> news_of(Board.from_moves("4455"))
    {'moves': '4455', 'turn': 0, 'winner': None, 'over': False}
    """
    over = board.is_over
    return {"moves": board.notation(), "turn": None if over else board.turn,
            "winner": board.winner, "over": over}


def new_game(seed: int | None = None) -> Connect4Game:
    return Connect4Game(seed)
