"""Blokus for spectators: the board as 400 letters, remaining shapes, points, the last move
(with `thinkMs`: how long its seat thought, from the room's `StateChanged` entry).

>>> from server.games.blokus import BlokusGame
>>> r = BlokusRenderer(BlokusGame(seed=1))
>>> s = r.state(None, False)
>>> len(s["board"]), s["current"], s["teams"]
(400, 'BLUE', {'ONE': 0, 'TWO': 0})
"""

from __future__ import annotations

import logging
from typing import Any

from games import blokus
from games.blokus.shapes import CANONICAL
from server.games.blokus.record import KEY, BadRecord, rebuild
from server.rooms.events import Entry, StateChanged
from server.spectate.frames import Frame

log = logging.getLogger(__name__)

SIZE = 20
_LETTER = {color: color[0] for color in blokus.COLORS}


_STRIDE = SIZE + 1  # games.blokus.bitboard's layout: bit y * STRIDE + x is (x, y)
_ROW_MASK = (1 << SIZE) - 1
_ROWS: dict[int, str] = {}
"""A board row's 20 letters by its four colours' row bits (a move changes a few rows only)."""
_ROWS_MAX = 100_000
_POINTS: dict[int, int] = {}
"""A colour's points by its unplaced-shapes mask (not 0: then the MONO bonus counts)."""
_REMAINING: dict[int, tuple[str, ...]] = {}
"""A colour's unplaced shapes by the engine's bitmask of them."""


def _row_text(key: int) -> str:
    letters = ["."] * SIZE
    for index in range(len(blokus.COLORS) - 1, -1, -1):  # the first colour wins a cell
        bits = key >> (index * SIZE) & _ROW_MASK
        letter = _LETTER[blokus.COLORS[index]]
        while bits:
            low = bits & -bits
            letters[low.bit_length() - 1] = letter
            bits ^= low
    text = "".join(letters)
    if len(_ROWS) < _ROWS_MAX:
        _ROWS[key] = text
    return text


def _board(state: blokus.State) -> str:
    """The 400 letters, row by row from the bitboards (cached rows); `fields()` otherwise."""
    if not hasattr(state, "board") or not hasattr(state, "occupied"):
        cells = ["."] * (SIZE * SIZE)
        for x, y, color in state.fields():
            cells[y * SIZE + x] = _LETTER[color]
        return "".join(cells)
    b0, b1, b2, b3 = (state.board(color) for color in blokus.COLORS)
    occupied = state.occupied
    mask = _ROW_MASK
    get = _ROWS.get
    empty = "." * SIZE
    rows = []
    for y in range(SIZE):
        shift = y * _STRIDE
        if not (occupied >> shift) & mask:
            rows.append(empty)
            continue
        key = ((b0 >> shift) & mask | ((b1 >> shift) & mask) << SIZE
               | ((b2 >> shift) & mask) << (2 * SIZE) | ((b3 >> shift) & mask) << (3 * SIZE))
        text = get(key)
        rows.append(text if text is not None else _row_text(key))
    return "".join(rows)


def _remaining(state: blokus.State) -> dict[str, list[str]]:
    masks: Any = getattr(state, "_undeployed", None)
    if masks is None:
        return {c: list(state.undeployed(c)) for c in blokus.COLORS}
    found = {}
    for index, color in enumerate(blokus.COLORS):
        names = _REMAINING.get(masks[index])
        if names is None:
            names = state.undeployed(color)
            if len(_REMAINING) < _ROWS_MAX:
                _REMAINING[masks[index]] = names
        found[color] = list(names)
    return found


def _points(state: blokus.State) -> dict[str, int]:
    """Each colour's points; by the unplaced-shapes mask while some are left (cached)."""
    masks: Any = getattr(state, "_undeployed", None)
    if masks is None:
        return {c: state.points(c) for c in blokus.COLORS}
    found = {}
    for index, color in enumerate(blokus.COLORS):
        mask = masks[index]
        points = _POINTS.get(mask) if mask else None
        if points is None:
            points = state.points(color)
            if mask and len(_POINTS) < _ROWS_MAX:
                _POINTS[mask] = points
        found[color] = points
    return found


def move_round(turn: int, color: str) -> int:
    """The round the last move (of `color`) was made in, from the turn after it: the move's
    slot is the latest one of its colour before `turn` (a move advances the turn by one to
    four slots: eliminated colours are skipped, and the last elimination does not count).

    >>> move_round(1, "BLUE"), move_round(4, "GREEN"), move_round(8, "BLUE"), move_round(9, "BLUE")
    (1, 1, 2, 3)
    """
    index = blokus.COLORS.index(color)
    slot = turn - 1 - (turn - 1 - index) % 4
    return 1 + slot // 4


def render_state(state: blokus.State, think: float | None = None) -> dict[str, Any]:
    """`think`: the seconds the last move's seat thought (None: not known, not sent). The
    last move carries its round and, placed, the Software-Challenge position of its piece
    (the top-left of its bounding box: x to the right, y down, from 0)."""
    last = state.last_move
    last_json: dict[str, Any] | None = None
    if isinstance(last, blokus.SetMove):
        last_json = {"color": last.color, "kind": last.kind, "x": last.x, "y": last.y,
                     "round": move_round(state.turn, last.color),
                     "cells": sorted([x, y] for x, y in last.cells)}
    elif last is not None:
        last_json = {"color": last.color, "skip": True,
                     "round": move_round(state.turn, last.color)}
    if last_json is not None and think is not None:
        last_json["thinkMs"] = round(think * 1000)
    over = bool(state.is_over)
    points = _points(state)
    return {
        "turn": state.turn,
        "round": state.round,
        "current": None if over else state.current_color,
        "currentTeam": None if over else state.current_team,
        "board": _board(state),
        "last": last_json,
        "remaining": _remaining(state),
        "points": points,
        "teams": {t: sum(points[c] for c in blokus.COLORS if blokus.team_of(c) == t)
                  for t in blokus.TEAMS},
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
        self._think: float | None = None  # the latest move's (the result shows it too)

    def meta(self) -> dict[str, Any]:
        return meta()

    def state(self, entry: Entry | None, full: bool) -> dict[str, Any]:
        if entry is not None and isinstance(entry.event, StateChanged):
            event = entry.event  # the public view is the clone the log keeps
            self._think = event.think
            return render_state(event.views.public, event.think)
        return render_state(self.game.state, self._think)


class BlokusSpectating:
    """How spectators watch Blokus: the plugin's `spectating` (`server.games.registry`)."""

    def renderer(self, game: Any, names: list[str]) -> BlokusRenderer:
        return BlokusRenderer(game)

    def meta(self, names: list[str]) -> dict[str, Any]:
        return meta()

    def stored_frames(self, match_id: str, events: list[Any], names: list[str],
                      violation_seat: int | None) -> list[Frame]:
        """A stored state event holds its move (`server.games.blokus.record`): its frame is
        rendered from the state the match's moves rebuild, which is what the live frame was
        rendered from. Events stored before the frames were are rendered from their SC
        mementos."""
        frames: list[Frame] = []
        state = None
        for event in events:
            payload = event.payload
            frame = Frame.from_payload(event.seq, payload)
            if frame is None and isinstance(payload, dict) and KEY in payload:
                try:
                    state = rebuild(state, payload[KEY])
                except BadRecord as exc:
                    log.error("match %s: frames cut at event %s: %s", match_id, event.seq, exc)
                    break
                if payload.get("observers"):
                    think = payload[KEY].get("think")
                    frame = Frame(event.seq, {"type": "event", "seq": event.seq,
                                              "kind": "state",
                                              "state": render_state(state, think)})
            if frame is not None:
                frames.append(frame)
        return frames or _frames_from_mementos(events, names, violation_seat)


def _frames_from_mementos(events: list[Any], names: list[str], violation_seat: int | None
                          ) -> list[Frame]:
    """The frames of Blokus events stored before frames were, from their SC packets
    (`protocols.sc` parses a memento back into an engine state)."""
    from lxml import etree

    from protocols.sc.blokus import state_from_element

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    frames: list[Frame] = []
    state: dict[str, Any] | None = None
    for event in events:
        payload = event.payload if isinstance(event.payload, dict) else {}
        if not payload.get("observers"):
            continue
        head: dict[str, Any] = {"type": "event", "seq": event.seq}
        kind = event.kind
        if kind == "state":
            for packet in payload.get("xml") or []:
                root = etree.fromstring(packet.encode(), parser)
                found = root.find("./data[@class='memento']/state")
                if found is not None:
                    state = render_state(state_from_element(found))
                    frames.append(Frame(event.seq, {**head, "kind": "state", "state": state}))
                    break
        elif kind == "pause":
            frames.append(Frame(event.seq, {**head, "kind": "pause",
                                            "paused": bool(payload.get("paused"))}))
        elif kind == "rejected":
            frames.append(Frame(event.seq, {**head, "kind": "rejected",
                                            "seat": payload.get("seat"),
                                            "name": payload.get("mistake", ""),
                                            "text": payload.get("text", ""),
                                            "final": payload.get("final", True)}))
        elif kind == "result":
            winner = payload.get("winner")
            cause = payload.get("cause")
            result = {"winner": winner,
                      "winnerName": names[winner] if isinstance(winner, int)
                      and 0 <= winner < len(names) else None,
                      "reason": payload.get("reason", ""),
                      "scores": list(payload.get("scores") or []), "cause": cause,
                      "violationSeat": violation_seat if cause else None}
            frames.append(Frame(event.seq, {**head, "kind": "result", "result": result,
                                            "state": state}))
        elif kind == "closed":
            frames.append(Frame(event.seq, {**head, "kind": "closed"}))
    return frames
