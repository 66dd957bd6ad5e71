"""Per-game spectator renderers: room log entries to plain JSON states, one game each.

A renderer is made per room (`renderer_for(room)`) and called by the hub's feed as each
observer entry is offered, on the loop, before the room goes on: `state(entry, full)` is
the picture a spectator gets after that entry. `full` False is what a neutral observer may
see (the game's per-viewer view, never a hidden card), True what an admin may see. Games
without hidden information return the same dict for both.

`meta()` is sent once per connection (what never changes: shapes, colours, names).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from server.rooms.events import Entry
from server.rooms.result import MatchResult
from server.rooms.room import Room


class Renderer(Protocol):
    hidden_information: bool
    # True: a state can be rendered from a log entry alone, at any time (a late subscriber
    # renders the room's whole log); False: only the current state can be rendered.
    from_entries: bool

    def meta(self) -> dict[str, Any]: ...

    def state(self, entry: Entry | None, full: bool) -> dict[str, Any]:
        """The state after `entry` (None: the room's current state, nothing logged yet)."""
        ...


def dumps(message: dict[str, Any]) -> str:
    """A message as the text a spectator receives (compact JSON)."""
    return json.dumps(message, separators=(",", ":"))


def result_json(result: MatchResult, names: list[str]) -> dict[str, Any]:
    winner = result.winner
    return {
        "winner": winner,
        "winnerName": names[winner] if winner is not None and winner < len(names) else None,
        "reason": result.reason,
        "scores": list(result.scores),
        "cause": None if result.violation is None else result.violation.cause.value,
        "violationSeat": None if result.violation is None else result.violation.seat,
    }


class _Fallback:
    """Any other game: its public view, made plain (no hidden-information promise)."""

    hidden_information = True
    from_entries = False

    def __init__(self, game: Any) -> None:
        self.game = game

    def meta(self) -> dict[str, Any]:
        return {}

    def state(self, entry: Entry | None, full: bool) -> dict[str, Any]:
        return {"over": bool(self.game.is_over)}


def renderer_for(room: Room, names: list[str]) -> Renderer:
    """The renderer of a room's game: its plugin's (`GamePlugin.spectating`), else a
    fallback."""
    spectating = room.plugin.spectating if room.plugin is not None else None
    if spectating is None:
        return _Fallback(room.game)
    return spectating.renderer(room.game, names)
