"""Connect Four replays: a stored match as its moves (`ReplayFormat` "moves").

The document is a comment line naming the match, then the final position's moves in Pascal
Pons' notation (digits 1..7, the form `Board.from_moves` reads and his solver takes):

>>> from types import SimpleNamespace as Event
>>> events = [Event(seq=1, kind="state", payload={"public": {"moves": "44"}}),
...           Event(seq=2, kind="state", payload={"public": {"moves": "445"}}),
...           Event(seq=3, kind="result", payload={"winner": None})]
>>> print(moves_document("m1", events), end="")
# connect4 m1
445
>>> moves_document("m2", events[2:]) is None
True
"""

from __future__ import annotations

from typing import Any

from server.games.registry import ReplayFormat

MEDIA_TYPE = "text/plain; charset=utf-8"


def final_moves(events: list[Any]) -> str | None:
    """The moves of the last state event's public news (None: there is none)."""
    for event in reversed(events):
        if getattr(event, "kind", None) != "state":
            continue
        payload = getattr(event, "payload", None)
        public = payload.get("public") if isinstance(payload, dict) else None
        moves = public.get("moves") if isinstance(public, dict) else None
        if isinstance(moves, str) and all(c in "1234567" for c in moves):
            return moves
    return None


def moves_document(match_id: str, events: list[Any]) -> str | None:
    """`# connect4 <match_id>` and the final position's moves, each on its own line; None
    when the match has no state event."""
    moves = final_moves(events)
    if moves is None:
        return None
    return f"# connect4 {match_id}\n{moves}\n"


MOVES = ReplayFormat("moves", MEDIA_TYPE, "{id}.connect4.txt", moves_document)
