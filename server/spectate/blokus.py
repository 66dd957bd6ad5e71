"""Blokus for spectators: the board as 400 letters, remaining shapes, points, the last move.

>>> from server.games.blokus import BlokusGame
>>> r = BlokusRenderer(BlokusGame(seed=1))
>>> s = r.state(None, False)
>>> len(s["board"]), s["current"], s["teams"]
(400, 'BLUE', {'ONE': 0, 'TWO': 0})
"""

from __future__ import annotations

from typing import Any

from games import blokus
from games.blokus.shapes import CANONICAL
from server.rooms.events import Entry, StateChanged

GAME_TYPE = blokus.GAME_TYPE
SIZE = 20
_LETTER = {color: color[0] for color in blokus.COLORS}


def render_state(state: blokus.State) -> dict[str, Any]:
    cells = ["."] * (SIZE * SIZE)
    for x, y, color in state.fields():
        cells[y * SIZE + x] = _LETTER[color]
    last = state.last_move
    last_json: dict[str, Any] | None = None
    if isinstance(last, blokus.SetMove):
        last_json = {"color": last.color, "kind": last.kind,
                     "cells": sorted([x, y] for x, y in last.cells)}
    elif last is not None:
        last_json = {"color": last.color, "skip": True}
    over = bool(state.is_over)
    return {
        "turn": state.turn,
        "round": state.round,
        "current": None if over else state.current_color,
        "currentTeam": None if over else state.current_team,
        "board": "".join(cells),
        "last": last_json,
        "remaining": {c: list(state.undeployed(c)) for c in blokus.COLORS},
        "points": {c: state.points(c) for c in blokus.COLORS},
        "teams": {t: state.team_points(t) for t in blokus.TEAMS},
        "valid": list(state.valid_colors),
        "over": over,
    }


def meta() -> dict[str, Any]:
    return {
        "size": SIZE,
        "colors": list(blokus.COLORS),
        "teams": {t: [c for c in blokus.COLORS if blokus.team_of(c) == t]
                  for t in blokus.TEAMS},
        "shapes": {name: [list(cell) for cell in cells] for name, cells in CANONICAL.items()},
    }


class BlokusRenderer:
    hidden_information = False
    from_entries = True

    def __init__(self, game: Any) -> None:
        self.game = game

    def meta(self) -> dict[str, Any]:
        return meta()

    def state(self, entry: Entry | None, full: bool) -> dict[str, Any]:
        if entry is not None and isinstance(entry.event, StateChanged):
            return render_state(entry.event.views.public)  # the clone the log keeps
        return render_state(self.game.state)
