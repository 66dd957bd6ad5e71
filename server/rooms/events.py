"""The match event log: everything a room tells anyone, numbered, in one place.

Every entry carries its audience (which seats, whether observers) and everything needed to
render it per recipient (`StateChanged.views.of(seat)`). Players, observers and the replay
writer all read the same entries, so there is no second copy of "what happened".
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.rooms.game import Decision, Views
from server.rooms.result import MatchResult

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Welcome:
    """The match starts; tells a seat which seat (team, player) it plays."""

    seat: int


@dataclass(frozen=True)
class StateChanged:
    """News from the game: `views.of(seat)` is what `seat` (None = observer) receives
    (Blokus: the same state for all, the SC memento; Hearth: history entries per viewer).

    `think`: the news of an applied answer carry how long its seat thought, in seconds
    (from its `DecisionRequested` being written to the answer's arrival); None otherwise.
    `answer`: that answer, (seat, move as the game took it): the stored log keeps it, so
    that a match can be replayed move by move (a position rebuilt, a bot asked again).
    """

    views: Views
    think: float | None = None
    answer: tuple[int, Any] | None = None

    @property
    def seat(self) -> int | None:
        """The seat whose answer made these news (the spectators' clocks); None otherwise."""
        return None if self.answer is None else self.answer[0]

    @property
    def state(self) -> Any:
        """The public part (the whole state for games without hidden information)."""
        return self.views.public


@dataclass(frozen=True)
class DecisionRequested:
    """`seat` is asked `decision`; its clock runs from the moment this was written."""

    seat: int
    decision: Decision


@dataclass(frozen=True)
class MoveRejected:
    """An answer was refused: a rule violation (`mistake_text`) or a process violation.

    `final` True: the match ends over it; False: a nack, the seat's decision stays open.
    """

    seat: int
    move: Any
    rule: bool
    mistake_name: str = ""
    mistake_text: str = ""
    process: str = ""
    expected_seat: int | None = None
    final: bool = True


@dataclass(frozen=True)
class PauseChanged:
    paused: bool


@dataclass(frozen=True)
class GameOver:
    result: MatchResult


@dataclass(frozen=True)
class RoomClosed:
    """The room is gone (SC `<left/>`)."""


RoomEvent = (
    Welcome | StateChanged | DecisionRequested | MoveRejected | PauseChanged | GameOver
    | RoomClosed
)


@dataclass(frozen=True)
class Entry:
    """One logged event and who receives it; `at` is when it was logged (epoch seconds:
    the store writes events in batches, and each keeps its own time)."""

    seq: int
    event: RoomEvent
    seats: frozenset[int]
    observers: bool
    at: float = field(default_factory=time.time)

    @property
    def to_players(self) -> bool:
        return bool(self.seats)


# The few distinct audiences of a room's entries ({0}, {1}, both, none), one object each:
# a log keeps an entry per event for the whole match, and every object it keeps is one more
# for the garbage collector's young passes to walk (docs/benchmarks.md, "Soak").
_SEAT_SETS: dict[frozenset[int], frozenset[int]] = {}


def _seat_set(seats: frozenset[int] | set[int]) -> frozenset[int]:
    key = seats if isinstance(seats, frozenset) else frozenset(seats)
    shared = _SEAT_SETS.get(key)
    if shared is None:
        if len(_SEAT_SETS) >= 1024:  # rooms of many seats: no sharing, no growth
            return key
        shared = _SEAT_SETS[key] = key
    return shared


@dataclass
class MatchLog:
    """Append-only, sequence-numbered events of one match, and who listens to them.

    A listener (`listen`) is called with every entry as it is appended, in the loop turn
    the room logs it and in the order the listeners came (the match service's recorder,
    its launcher bookkeeping, ...). A listener that raises is logged and the match goes on.

    >>> log = MatchLog()
    >>> seen = []
    >>> stop = log.listen(seen.append)
    >>> log.append(RoomClosed()).seq, [e.seq for e in seen]
    (0, [0])
    >>> stop(); log.append(RoomClosed()).seq, len(seen)
    (1, 1)
    """

    entries: list[Entry] = field(default_factory=list)
    _listeners: list[Callable[[Entry], None]] = field(default_factory=list, repr=False,
                                                      compare=False)

    def listen(self, listener: Callable[[Entry], None]) -> Callable[[], None]:
        """Tell `listener` of every entry appended from now on; returns the unsubscribe."""
        self._listeners.append(listener)

        def stop() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return stop

    def append(self, event: RoomEvent, seats: frozenset[int] | set[int] = frozenset(),
               observers: bool = False) -> Entry:
        entry = Entry(len(self.entries), event, _seat_set(seats), observers)
        self.entries.append(entry)
        for listener in self._listeners:
            try:
                listener(entry)
            except Exception:  # a listener must never break a match
                log.exception("a match log listener failed on entry %d", entry.seq)
        return entry

    def replay_entries(self) -> list[Entry]:
        """What the official replay records: mementos sent to players, errors, the result."""
        return [
            e for e in self.entries
            if (isinstance(e.event, StateChanged) and e.to_players)
            or isinstance(e.event, MoveRejected | GameOver)
        ]
