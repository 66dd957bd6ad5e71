"""The game contract a room drives: decisions per seat, answers, news per recipient, outcome.

A room knows seats (0, 1, ...) and opaque answers; an adapter (see `server/games/`) maps
them onto its engine. Adding a game means adding an adapter and registering it, never
touching the room.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from server.rooms.result import Outcome


class Clock(enum.Enum):
    """Which of the room's clocks times a decision (values in `server.rooms.room.Clocks`)."""

    # Software-Challenge: an answer after `soft` seconds loses (SOFT_TIMEOUT), no answer
    # within `hard` seconds loses (HARD_TIMEOUT).
    MOVE = "move"
    # Hearth: each decision within `decision` seconds, all decisions of one turn within
    # `turn` seconds from the turn's first request (`Decision.turn` names the turn).
    DECISION = "decision"


@dataclass(frozen=True)
class Decision:
    """What one seat is asked now: a game-specific `payload` and the clock that applies.

    Compared by value: a decision still open after another seat answered (the second
    mulligan) is the same decision, with its clock still running.
    """

    payload: Any = None
    clock: Clock = Clock.MOVE
    # Decisions with the same (seat, turn) share the per-turn budget; None = no turn clock.
    turn: int | None = None


# Shared and read-only: news without per-seat parts (Blokus) build no mapping.
_NO_SEATS: Mapping[int, Any] = MappingProxyType({})


class OnRefusal(enum.Enum):
    """What a refused answer (illegal in the game, or from a seat nobody asked) does."""

    END_MATCH = "end-match"  # the offender loses (Software-Challenge: RULE_VIOLATION)
    NACK = "nack"  # the offender is told; its decision stays open, its clock keeps running


@dataclass(frozen=True)
class Views:
    """What each recipient gets of one piece of news: `public` unless `seats` has its own.

    Observers (`seat` None) get `public`. Seats without an own entry share `public`, so a
    protocol may encode it once for all of them (`audience(seat)` is the cache key part).

    >>> news = Views("full history", {0: "seat 0's stream", 1: "seat 1's stream"})
    >>> news.of(None), news.of(1), news.audience(None), news.audience(1)
    ('full history', "seat 1's stream", None, 1)
    >>> Views("the board").of(0), Views("the board").audience(0)
    ('the board', None)
    """

    public: Any
    seats: Mapping[int, Any] = field(default_factory=lambda: _NO_SEATS)

    def of(self, seat: int | None) -> Any:
        if seat is not None and seat in self.seats:
            return self.seats[seat]
        return self.public

    def audience(self, seat: int | None) -> int | None:
        """None when `seat` gets the public data, else the seat (for per-recipient caches)."""
        return seat if seat is not None and seat in self.seats else None


class RuleViolation(Exception):
    """The engine refused an answer; carries the mistake for the protocol's error text."""

    def __init__(self, name: str, text: str, move: object) -> None:
        super().__init__(text)
        self.name = name
        self.text = text
        self.move = move


class Game(Protocol):
    """What a room needs from a game adapter (one per match, built by the game's plugin)."""

    game_type: str
    seat_count: int
    on_refusal: OnRefusal

    @property
    def is_over(self) -> bool:
        """Over by the game's rules (cheap: the room asks after every answer)."""
        ...

    def pending(self) -> Mapping[int, Decision]:
        """Each seat that must decide now, and what it is asked (empty once over)."""
        ...

    def accepts(self, data: object) -> bool:
        """Whether a received payload is an answer of this game at all (else NON_MOVE)."""
        ...

    def apply(self, seat: int, answer: Any) -> None:
        """Apply `seat`'s answer; raise `RuleViolation` and leave the game unchanged if illegal."""
        ...

    def news(self, seats: Collection[int], observers: bool) -> Views:
        """What changed since these recipients last got news, per recipient.

        The room calls this after every change it reports; recipients left out (the players
        while a room is paused) get what they missed with their next news.
        """
        ...

    def view(self, seat: int | None) -> Any:
        """Everything `seat` (None = a neutral observer) may see now (a late joiner's state)."""
        ...

    def outcome(self) -> Outcome | None:
        """The game's own outcome once it is over by its rules, else None."""
        ...

    def scores(self) -> tuple[int, ...]:
        """Score parts per seat now (kept for the seats that did not break a match)."""
        ...

    def stopped(self) -> Outcome:
        """The outcome when an admin stops the match now (Blokus: the leader by points)."""
        ...

    def concede(self, seat: int) -> bool:
        """`seat` gives up (concede, timeout, disconnect); True if the game recorded it,
        so that its news carry the end (a game without the notion returns False)."""
        ...


class UnknownGameType(Exception):
    """No game of that type is registered (the official server drops such a connection)."""

    def __init__(self, game_type: str | None) -> None:
        super().__init__(f"Unknown game type {game_type!r}")
        self.game_type = game_type
