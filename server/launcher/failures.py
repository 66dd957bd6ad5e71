"""Why a seat failed: one vocabulary for the launcher, the rooms, the store and the API.

The launcher decides `FAILED_TO_START` and `CRASH` itself, because only it sees the exec
call and the exit status; the other categories are verdicts of the room, which sees the
moves and the clock. Keeping all six in one enum means a ladder's crosstable, the REST API
and the database column never translate between two lists.

>>> FailureCategory("crash") is FailureCategory.CRASH
True
>>> SeatFailure(FailureCategory.TIMEOUT, "no move within 2 s").category.value
'timeout'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class FailureCategory(StrEnum):
    """How a seat failed. The values are stable: they are stored and served as they are."""

    FAILED_TO_START = "failed_to_start"
    """The program could not be executed, or it exited before its seat connected."""
    CRASH = "crash"
    """Non-zero exit or death by a signal after connecting, before the match ended."""
    TIMEOUT = "timeout"
    """No answer within the clock (set by the room)."""
    ILLEGAL_MOVE = "illegal_move"
    """A move the game rejected (set by the room)."""
    PROTOCOL_ERROR = "protocol_error"
    """Bytes the protocol codec rejected (set by the room or session)."""
    DISCONNECT = "disconnect"
    """The connection closed before the match ended, the process still fine (set by the room)."""


@dataclass(frozen=True, slots=True)
class SeatFailure:
    """A category and a human-readable detail (exit status, stderr tail, the room's reason)."""

    category: FailureCategory
    detail: str

    def __str__(self) -> str:
        return f"{self.category.value}: {self.detail}"
