"""How a Software-Challenge game ended, as a client reads the server's ``result`` message.

Game-neutral (the protocol's ``result`` names teams ``ONE``/``TWO``, points and the
official reason text): the Blokus kit reports it to its bots, and the server's series
runner (``server.series``) reads the results of the rooms it observes with it.

>>> Outcome(None, "ONE", True, "", {"ONE": 3, "TWO": 1}).describe()
'team ONE won 3:1 (we are ?)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocols.sc import messages as m
from protocols.sc import texts

__all__ = ["Outcome", "violation_cause"]


_PLACEHOLDER = "\x00"
_TIMEOUTS = ("SOFT_TIMEOUT", "HARD_TIMEOUT")
# The official reason texts split around the violator's name, so that we recognise them
# whatever the player is called (protocols.sc.texts spells them exactly). Prefix-only
# texts first, the one with neither prefix nor fixed end (LEFT) last.
_CAUSES: tuple[tuple[str, str, str], ...] = tuple(
    (cause, *text.split(_PLACEHOLDER, 1))  # type: ignore[misc]
    for cause, text in (
        ("RULE_VIOLATION", texts.rule_violation_reason(_PLACEHOLDER, "")),
        ("PROCESS_VIOLATION", texts.process_violation_reason(_PLACEHOLDER, "")),
        ("SOFT_TIMEOUT", texts.soft_timeout_reason(_PLACEHOLDER)),
        ("HARD_TIMEOUT", texts.hard_timeout_reason(_PLACEHOLDER)),
        ("LEFT", texts.left_reason(_PLACEHOLDER, "")),
    )
)


def violation_cause(reason: str) -> str | None:
    """The violation named by an irregular result's ``reason`` text, or None.

    >>> violation_cause(texts.soft_timeout_reason("Bob"))
    'SOFT_TIMEOUT'
    >>> violation_cause(texts.left_reason("ONE", "LOST_CONNECTION"))
    'LEFT'
    >>> violation_cause("Alice hat am meisten Punkte erzielt.") is None
    True
    """
    for cause, before, after in _CAUSES:
        if not reason.startswith(before):
            continue
        rest = reason[len(before):]
        if rest.endswith(after) if cause in _TIMEOUTS else after in rest:
            return cause
    return None


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as the server's ``result`` message tells it.

    ``points`` and ``win_points`` map ``ONE``/``TWO`` to the team's points and 2/1/0
    (win/draw/loss). ``winner`` is a team or None (draw). ``regular`` is False when the
    game ended by a violation; ``cause`` then names it (``SOFT_TIMEOUT``, ``HARD_TIMEOUT``,
    ``LEFT``, ``RULE_VIOLATION``, ``PROCESS_VIOLATION``) and ``violator`` is the team at
    fault (None when it cannot be told). ``team`` is ours (None if no welcome came).
    """

    team: str | None
    winner: str | None
    regular: bool
    reason: str
    points: dict[str, int] = field(default_factory=dict)
    win_points: dict[str, int] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    cause: str | None = None
    violator: str | None = None

    @classmethod
    def from_result(cls, result: m.Result, team: str | None) -> Outcome:
        points: dict[str, int] = {}
        win_points: dict[str, int] = {}
        names: dict[str, str] = {}
        for entry in result.scores:
            if len(entry.parts) >= 2:
                win_points[entry.team] = entry.parts[0]
                points[entry.team] = entry.parts[1]
            names[entry.team] = entry.name
        winner = result.winner
        regular = winner.regular if winner is not None else True
        reason = winner.reason if winner is not None else ""
        winning_team = winner.team if winner is not None else None
        cause = violator = None
        if not regular:
            cause = violation_cause(reason)
            if winning_team is not None:
                violator = "TWO" if winning_team == "ONE" else "ONE"
        return cls(team, winning_team, regular, reason, points, win_points, names, cause,
                   violator)

    @property
    def won(self) -> bool:
        return self.team is not None and self.winner == self.team

    @property
    def drew(self) -> bool:
        return self.winner is None

    @property
    def lost(self) -> bool:
        """Someone else won (False when our team is unknown: the game never started)."""
        return self.team is not None and self.winner is not None and self.winner != self.team

    def describe(self) -> str:
        """One line for humans, e.g. ``team ONE won 120:98 (we are ONE)``."""
        score = ":".join(str(self.points.get(team, "?")) for team in ("ONE", "TWO"))
        head = "draw" if self.winner is None else f"team {self.winner} won"
        # The cause in English words, then the official (German) text as the server sent it.
        cause = (self.cause or "VIOLATION").replace("_", " ").lower()
        who = f"{self.violator} lost by {cause}" if self.violator else cause
        tail = "" if self.regular else f"; {who}, official text: {self.reason!r}"
        return f"{head} {score} (we are {self.team or '?'}{tail})"
