"""Software-Challenge 2027 Blokus as a room game: the adapter a room drives.

Two seats: seat 0 = team ONE (BLUE, RED), seat 1 = team TWO. One decision at a time, to the
team of the current colour, on the Software-Challenge move clock; an illegal move ends the
match (RULE_VIOLATION), as on the official server. No hidden information: every recipient
gets the same state, so the SC session encodes each memento once for all of them.

>>> game = BlokusGame(seed=1)
>>> dict(game.pending()), game.is_over, game.scores()
({0: Decision(payload=None, clock=<Clock.MOVE: 'move'>, turn=None)}, False, (0, 0))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

from games import blokus
from server.rooms.game import Decision, OnRefusal, RuleViolation, Views
from server.rooms.result import Outcome

GAME_TYPE = blokus.GAME_TYPE
_MOVE = Decision()
# What `pending()` returns, one read-only mapping per seat: nothing is built per move.
_ASK: tuple[Mapping[int, Decision], ...] = tuple(
    MappingProxyType({seat: _MOVE}) for seat in range(len(blokus.TEAMS)))
_NOBODY: Mapping[int, Decision] = MappingProxyType({})


class BlokusGame:
    """The `server.rooms.game.Game` adapter of `games.blokus`."""

    game_type = GAME_TYPE
    seat_count = 2
    on_refusal = OnRefusal.END_MATCH

    def __init__(self, start_piece: str | None = None, seed: int | None = None) -> None:
        self.state = blokus.new_game(start_piece=start_piece, seed=seed)

    @classmethod
    def at(cls, state: blokus.State) -> BlokusGame:
        """A game going on from `state` (a match started from a position)."""
        game = cls.__new__(cls)
        game.state = state
        return game

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def pending(self) -> Mapping[int, Decision]:
        if self.state.is_over:
            return _NOBODY
        return _ASK[blokus.TEAMS.index(self.state.current_team)]

    def accepts(self, data: object) -> bool:
        return isinstance(data, blokus.SetMove | blokus.SkipMove)

    def apply(self, seat: int, answer: Any) -> None:
        # The seat was checked by the room: only the team of the current colour is asked.
        try:
            self.state.apply(answer)
        except blokus.IllegalMove as exc:
            raise RuleViolation(exc.mistake.name, exc.mistake.text, answer) from exc

    def news(self, seats: Collection[int], observers: bool) -> Views:
        # The whole state each time (the SC memento); a clone, since the log keeps it.
        return Views(self.state.clone())

    def view(self, seat: int | None) -> Any:
        return self.state.clone()

    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.team_points(team) for team in blokus.TEAMS)

    def outcome(self) -> Outcome | None:
        if not self.state.is_over:
            return None
        return self._by_points("regular")

    def stopped(self) -> Outcome:
        """An admin's cancel ends the game as if it were over: the leader by points wins."""
        return self._by_points("stopped")

    def _by_points(self, reason: str) -> Outcome:
        scores = self.scores()
        wins = blokus.win_points(scores)
        winner = wins.index(2) if 2 in wins else None
        return Outcome(winner, reason, scores)

    def concede(self, seat: int) -> bool:
        return False  # Blokus has no concession; the room's result says who lost


def new_game(seed: int | None = None) -> BlokusGame:
    return BlokusGame(seed=seed)
