"""The small game interface a room drives, and its Blokus adapter.

A room knows seats (0, 1, ...) and opaque moves; the adapter maps them onto the engine's
teams and colours. Adding a game means adding an adapter, not touching the room.
"""

from __future__ import annotations

from typing import Any, Protocol

BLOKUS_GAME_TYPE = "swc_2027_blokus"


class RuleViolation(Exception):
    """The engine refused a move; carries the mistake for the protocol's error text."""

    def __init__(self, name: str, text: str, move: object) -> None:
        super().__init__(text)
        self.name = name
        self.text = text
        self.move = move


class Game(Protocol):
    """What a room needs from a game."""

    game_type: str
    seat_count: int

    @property
    def is_over(self) -> bool: ...

    def seat_to_move(self) -> int:
        """The seat whose decision the game waits for."""
        ...

    def is_move(self, data: object) -> bool:
        """Whether a received payload is a move of this game at all."""
        ...

    def apply(self, seat: int, move: Any) -> None:
        """Apply `move`; raise `RuleViolation` and leave the game unchanged if illegal."""
        ...

    def snapshot(self) -> Any:
        """An immutable-by-convention copy of the state for the event log."""
        ...

    def points(self) -> tuple[int, ...]:
        """Current points per seat."""
        ...


class BlokusGame:
    """Software-Challenge 2027 Blokus for two seats: seat 0 = team ONE (BLUE, RED).

    >>> game = BlokusGame(seed=1)
    >>> game.seat_to_move(), game.is_over, game.points()
    (0, False, (0, 0))
    """

    game_type = BLOKUS_GAME_TYPE
    seat_count = 2

    def __init__(self, start_piece: str | None = None, seed: int | None = None) -> None:
        from games import blokus

        self._blokus = blokus
        self.state = blokus.new_game(start_piece=start_piece, seed=seed)

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def seat_to_move(self) -> int:
        return self._blokus.TEAMS.index(self.state.current_team)

    def is_move(self, data: object) -> bool:
        return isinstance(data, self._blokus.SetMove | self._blokus.SkipMove)

    def apply(self, seat: int, move: Any) -> None:
        try:
            self.state.apply(move)
        except self._blokus.IllegalMove as exc:
            raise RuleViolation(exc.mistake.name, exc.mistake.text, move) from exc

    def snapshot(self) -> Any:
        return self.state.clone()

    def points(self) -> tuple[int, ...]:
        return tuple(self.state.team_points(team) for team in self._blokus.TEAMS)


def new_game(game_type: str | None, seed: int | None = None) -> Game:
    """A fresh game for a `join`/`prepare` game type (None = the default, Blokus)."""
    if game_type in (None, "", BLOKUS_GAME_TYPE):
        return BlokusGame(seed=seed)
    raise UnknownGameType(game_type)


class UnknownGameType(Exception):
    """No game of that type is loaded (the official server drops such a connection)."""

    def __init__(self, game_type: str | None) -> None:
        super().__init__(f"Unknown game type {game_type!r}")
        self.game_type = game_type
