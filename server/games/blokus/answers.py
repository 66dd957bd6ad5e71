"""A stored Blokus match's answers, as `server.ask` reads them (`GamePlugin.answers`).

Each answer is in the record of the state event it produced (`server.games.blokus.record`):
the move, in the record's spelling (`[colour, kind, rotation, flipped, x, y]`, a skip
`[colour]`). A state told again (after a pause, to a late observer) repeats the record of
the turn before; only a record of a new turn is an answer.

>>> events = [(0, "welcome", {"seat": 0}),
...           (1, "state", {"blokus": {"start": "PENTO_L", "turn": 0, "move": None}}),
...           (2, "decision", {"seat": 0}),
...           (3, "state", {"blokus": {"start": "PENTO_L", "turn": 1,
...                                    "move": ["BLUE", "PENTO_L", "NONE", False, 0, 0]}}),
...           (4, "state", {"blokus": {"start": "PENTO_L", "turn": 1,
...                                    "move": ["BLUE", "PENTO_L", "NONE", False, 0, 0]}})]
>>> BlokusAnswers().answers(events)
[(3, 0, ['BLUE', 'PENTO_L', 'NONE', False, 0, 0])]
>>> BlokusAnswers().first_game(None, events).state.start_piece
'PENTO_L'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import blokus
from server.games.blokus.record import KEY, BadRecord, rebuild
from server.games.blokus.room import BlokusGame


def seat_of(color: str) -> int:
    """The seat that plays `color`: seat 0 is team ONE (BLUE, RED).

    >>> seat_of("BLUE"), seat_of("YELLOW"), seat_of("RED")
    (0, 1, 0)
    """
    return blokus.TEAMS.index(blokus.team_of(color))


class BlokusAnswers:
    """The plugin's `answers` (`server.games.registry.StoredAnswers`)."""

    def answers(self, events: list[tuple[int, str, Any]]) -> list[tuple[int, int, Any]]:
        found: list[tuple[int, int, Any]] = []
        turn: object = None
        for seq, kind, payload in events:
            record = payload.get(KEY) if kind == "state" and isinstance(payload, dict) else None
            if not isinstance(record, dict) or record.get("turn") == turn:
                continue
            turn = record.get("turn")
            if "moves" in record:
                continue  # a position's record (a match from a position): nobody answered
            move = record.get("move")
            if isinstance(move, list) and move and isinstance(move[0], str) \
                    and move[0] in blokus.COLORS:
                found.append((seq, seat_of(move[0]), move))
        return found

    def first_game(self, seed: int | None, events: list[tuple[int, str, Any]],
                   origin: Callable[[], Any] | None = None) -> BlokusGame:
        # The first record is the game's start, or for a match from a position that
        # position with every move before it: a match stored without a seed rebuilds too.
        for _seq, kind, payload in events:
            found = payload.get(KEY) if kind == "state" and isinstance(payload, dict) else None
            if isinstance(found, dict):
                if found.get("start") not in blokus.SHAPE_SIZE:
                    raise ValueError(f"the stored start piece {found.get('start')!r} is no "
                                     "Blokus piece")
                try:
                    return BlokusGame.at(rebuild(None, found))
                except BadRecord as error:
                    raise ValueError(f"its first record does not rebuild: {error}") from None
        raise ValueError("the match has no stored state to start from")

    def decode(self, move: Any) -> blokus.SetMove | blokus.SkipMove:
        """The room's move of a logged one.

        >>> BlokusAnswers().decode(["RED"])
        SkipMove('RED')
        """
        try:
            if isinstance(move, list) and len(move) == 6:
                return blokus.SetMove(move[0], move[1], rotation=move[2], flipped=move[3],
                                      x=move[4], y=move[5])
            if isinstance(move, list) and len(move) == 1:
                return blokus.SkipMove(move[0])
        except (TypeError, ValueError) as error:
            raise ValueError(f"not a Blokus move: {move!r} ({error})") from None
        raise ValueError(f"not a Blokus move: {move!r}")

    def encode(self, answer: Any) -> list[Any]:
        """A room's move as the record spells it.

        >>> BlokusAnswers().encode(blokus.SetMove("BLUE", "PENTO_L", x=0, y=0))
        ['BLUE', 'PENTO_L', 'NONE', False, 0, 0]
        """
        if isinstance(answer, blokus.SetMove):
            return [answer.color, answer.kind, answer.rotation, bool(answer.flipped),
                    int(answer.x), int(answer.y)]
        if isinstance(answer, blokus.SkipMove):
            return [answer.color]
        return [repr(answer)]
