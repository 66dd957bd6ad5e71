"""How a match ended, in game- and protocol-neutral terms.

The protocol layer turns a `MatchResult` into its own wording (the SC texts live in
`protocols/sc/texts.py`); the room only decides *what* happened.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Cause(enum.Enum):
    """Why a match ended (the official `ScoreCause` / violation kinds)."""

    REGULAR = "REGULAR"
    LEFT = "LEFT"
    RULE_VIOLATION = "RULE_VIOLATION"
    PROCESS_VIOLATION = "PROCESS_VIOLATION"
    SOFT_TIMEOUT = "SOFT_TIMEOUT"
    HARD_TIMEOUT = "HARD_TIMEOUT"


class LeftCause(enum.Enum):
    """Why a player left (the official `LeftCause`)."""

    LOST_CONNECTION = "LOST_CONNECTION"
    RECEIVED_DISCONNECT = "RECEIVED_DISCONNECT"
    PROTOCOL_ERROR = "PROTOCOL_ERROR"
    NOT_CONNECTED = "NOT_CONNECTED"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class Violation:
    """A player broke the match; `seat` None means nobody in particular ("Alle Spieler")."""

    cause: Cause
    seat: int | None
    # LEFT: the LeftCause; RULE_VIOLATION: the mistake; PROCESS_VIOLATION: see `process`.
    left_cause: LeftCause | None = None
    mistake_name: str = ""
    mistake_text: str = ""
    move: object | None = None
    # PROCESS_VIOLATION: NOT_YOUR_TURN (a seat other than `expected_seat` moved) or NOT_REQUESTED.
    process: str = ""
    expected_seat: int | None = None


@dataclass(frozen=True)
class MatchResult:
    """Per seat (seat 0 = team ONE): win points (2/1/0) and game points; the winner seat."""

    win_points: tuple[int, ...]
    points: tuple[int, ...]
    winner: int | None
    regular: bool
    violation: Violation | None = None

    @classmethod
    def regular_end(cls, points: tuple[int, ...]) -> MatchResult:
        """Winner by points; a tie has no winner and gives everyone 1."""
        best = max(points)
        leaders = [i for i, p in enumerate(points) if p == best]
        if len(leaders) > 1:
            return cls(tuple(1 for _ in points), points, None, True)
        winner = leaders[0]
        wins = tuple(2 if i == winner else 0 for i in range(len(points)))
        return cls(wins, points, winner, True)

    @classmethod
    def violated(cls, points: tuple[int, ...], violation: Violation) -> MatchResult:
        """The violator gets all-zero parts; the others get 2 plus their real points."""
        wins: list[int] = []
        pts: list[int] = []
        for seat, p in enumerate(points):
            if violation.seat is None or seat == violation.seat:
                wins.append(0)
                pts.append(0)
            else:
                wins.append(2)
                pts.append(p)
        others = [i for i in range(len(points)) if i != violation.seat]
        winner = others[0] if violation.seat is not None and len(others) == 1 else None
        return cls(tuple(wins), tuple(pts), winner, False, violation)
