"""A stored match as asking a bot again needs it: its decisions, its answers, which answer
answered which decision, and the checks that refuse what cannot be asked.

Decision numbering (docs/server.md, "Decisions of a stored match"): the decisions of a
match are its `decision` events numbered 0, 1, 2, ... in seq order; decision N's answer
is the first applied answer of its seat after it (a seat has one decision open at a time:
a refused answer leaves it open, a new request comes only after an answer).

>>> match = StoredMatch.read("m", 2, [
...     (0, "decision", {"seat": 0}), (1, "decision", {"seat": 1}),
...     (2, "state", None), (3, "decision", {"seat": 0})],
...     answers=[(2, 1, ["b"])])
>>> match.decisions, match.answer_of, match.seat_decisions(0)
((0, 1, 0), (None, 0, None), [0, 2])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


class AskError(Exception):
    """A request that cannot be asked: `field` names what is wrong (HTTP 422, or one line
    in the terminal); nothing was started."""

    def __init__(self, field: str, text: str, status: int = 422) -> None:
        super().__init__(f"{field}: {text}")
        self.field = field
        self.text = text
        self.status = status


@dataclass(frozen=True)
class StoredAnswer:
    """One applied answer: its state event's seq, its seat, the move in log form."""

    seq: int
    seat: int
    move: Any


@dataclass(frozen=True)
class StoredMatch:
    """A stored match's decisions (the seat of each, by decision number), its applied
    answers in order, and for each decision the index of its answer (None: never
    answered: the match ended while it was open)."""

    match_id: str
    seat_count: int
    decisions: tuple[int, ...]
    answers: tuple[StoredAnswer, ...]
    answer_of: tuple[int | None, ...]

    @classmethod
    def read(cls, match_id: str, seat_count: int, events: Iterable[tuple[int, str, Any]],
             answers: Iterable[tuple[int, int, Any]]) -> StoredMatch:
        """From the events as (seq, kind, payload) and the game's reading of its answers
        (`StoredAnswers.answers`)."""
        timeline: list[tuple[int, int, Any]] = []  # (seq, 0 decision | 1 answer, data)
        for seq, kind, payload in events:
            if kind == "decision" and isinstance(payload, dict) \
                    and isinstance(payload.get("seat"), int):
                timeline.append((seq, 0, payload["seat"]))
        found = [StoredAnswer(seq, seat, move) for seq, seat, move in answers]
        timeline.extend((a.seq, 1, i) for i, a in enumerate(found))
        timeline.sort(key=lambda item: (item[0], item[1]))
        decisions: list[int] = []
        answer_of: list[int | None] = []
        open_by_seat: dict[int, int] = {}
        for _seq, what, data in timeline:
            if what == 0:
                open_by_seat[data] = len(decisions)
                decisions.append(data)
                answer_of.append(None)
            else:
                number = open_by_seat.pop(found[data].seat, None)
                if number is not None:
                    answer_of[number] = data
        return cls(match_id, seat_count, tuple(decisions), tuple(found), tuple(answer_of))

    def seat_decisions(self, seat: int) -> list[int]:
        """The decision numbers of `seat`, in order."""
        return [n for n, s in enumerate(self.decisions) if s == seat]

    def stored_move(self, decision: int) -> Any:
        """The answer stored for a decision, in log form (None: never answered)."""
        index = self.answer_of[decision]
        return None if index is None else self.answers[index].move

    def check(self, seat: int, turn: int | None) -> int:
        """The decision to ask `seat` at: `turn`, or with None its last one; `AskError`
        naming the field when there is no such decision of that seat."""
        if not 0 <= seat < self.seat_count:
            raise AskError("seat", f"the match has seats 0 to {self.seat_count - 1}, "
                           f"not {seat}")
        mine = self.seat_decisions(seat)
        if not mine:
            raise AskError("seat", f"seat {seat} decides nothing in match {self.match_id}")
        if turn is None:
            return mine[-1]
        if not 0 <= turn < len(self.decisions):
            raise AskError("turn", f"match {self.match_id} has decisions 0 to "
                           f"{len(self.decisions) - 1}, not {turn}" if self.decisions
                           else f"match {self.match_id} has no decisions")
        if self.decisions[turn] != seat:
            near = _nearest(mine, turn)
            raise AskError("turn", f"decision {turn} is seat {self.decisions[turn]}'s, not "
                           f"seat {seat}'s (seat {seat} decides at {near}, ...)")
        return turn


def _nearest(numbers: Sequence[int], turn: int) -> str:
    """A few of `numbers` around `turn`, for an error message."""
    later = [n for n in numbers if n > turn][:3]
    earlier = [n for n in numbers if n < turn][-2:]
    return ", ".join(str(n) for n in [*earlier, *later])
