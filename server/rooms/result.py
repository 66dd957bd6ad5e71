"""How a match ended, in game- and protocol-neutral terms.

A game reports its own `Outcome` (who won, why, the score parts); the room adds a
`Violation` when a seat (or the server) broke the match instead. Each protocol turns a
`MatchResult` into its own wording and scoring (the Software-Challenge 2/1/0 win points and
texts live in `server/net/sc_translate.py`); the room only decides *what* happened.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """The end of a game: `winner` seat (None = draw / nobody), `reason`, score parts per seat.

    The shape of python-chess's `Outcome`, plus the per-seat scores a game may report.

    >>> Outcome(0, "hero died", (1, 0)).winner
    0
    """

    winner: int | None
    reason: str
    scores: tuple[int, ...] = ()


class Cause(enum.Enum):
    """Why a match ended other than by the rules (the official `ScoreCause` / violation kinds,
    plus what the room adds: concede and a crashed game)."""

    REGULAR = "REGULAR"
    LEFT = "LEFT"
    RULE_VIOLATION = "RULE_VIOLATION"
    PROCESS_VIOLATION = "PROCESS_VIOLATION"
    SOFT_TIMEOUT = "SOFT_TIMEOUT"
    HARD_TIMEOUT = "HARD_TIMEOUT"
    CONCEDED = "CONCEDED"
    CRASHED = "CRASHED"


class LeftCause(enum.Enum):
    """Why a player left (the official `LeftCause`)."""

    LOST_CONNECTION = "LOST_CONNECTION"
    RECEIVED_DISCONNECT = "RECEIVED_DISCONNECT"
    PROTOCOL_ERROR = "PROTOCOL_ERROR"
    NOT_CONNECTED = "NOT_CONNECTED"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class Violation:
    """A player broke the match; `seat` None means every player ("Alle Spieler": each seat
    failed, a double loss) or, for `CRASHED`, the server itself (nobody's fault)."""

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
    """The game's (or the room's) `outcome`, and the violation that ended the match, if any.

    `regular` is True when the game ended by its own rules or an admin stopped it.
    """

    outcome: Outcome
    violation: Violation | None = None

    @property
    def winner(self) -> int | None:
        return self.outcome.winner

    @property
    def reason(self) -> str:
        return self.outcome.reason

    @property
    def scores(self) -> tuple[int, ...]:
        return self.outcome.scores

    @property
    def regular(self) -> bool:
        return self.violation is None

    def lost(self, seat: int) -> bool:
        """Whether `seat` lost: beaten, or at fault. A violation of every player (`seat`
        None: each seat failed) is a loss for all of them, never a draw; a match the server
        crashed is lost by nobody.

        >>> broken = MatchResult.broken(Violation(Cause.LEFT, None), (0, 0))
        >>> broken.winner, broken.lost(0), broken.lost(1)
        (None, True, True)
        >>> MatchResult(Outcome(None, "draw", (5, 5))).lost(0)
        False
        """
        violation = self.violation
        if violation is not None:
            if violation.seat is None:
                return violation.cause is not Cause.CRASHED
            if violation.seat == seat:
                return True
        return self.winner is not None and self.winner != seat

    @classmethod
    def broken(cls, violation: Violation, scores: tuple[int, ...]) -> MatchResult:
        """A match a seat broke: with two seats the other one wins; the reason is the cause.

        >>> MatchResult.broken(Violation(Cause.HARD_TIMEOUT, 0), (3, 5)).winner
        1
        """
        winner: int | None = None
        if violation.seat is not None and len(scores) == 2:
            winner = 1 - violation.seat
        return cls(Outcome(winner, violation.cause.value.lower(), scores), violation)
