"""The stored log of a Blokus match: moves, not states.

A stored Blokus state event holds its move, not the state: a state is a pure function of
the start piece and the moves, and writing a whole state (an 8 KB memento, a 1.5 KB
spectator frame) per move was most of what recording a match cost. The replay's mementos
and the spectators' frames are rebuilt from the moves when somebody reads them. A state
told without a move having made it (the first state of a match started from a position,
issue #29) also carries every move from the start (`"moves"`), so a reader can begin there.
"""

from __future__ import annotations

import json
from typing import Any

from games import blokus
from server.rooms.events import StateChanged

KEY = "blokus"
"""The stored payload's field that holds a state event's record."""


def record(state: blokus.State, think: float | None) -> dict[str, Any]:
    """What a stored state event holds: the start piece, the turn, the move that led here
    (None: the first state) in the engine's spelling, and the mover's think time
    (`record_text`, read back).

    >>> s = blokus.new_game("PENTO_L"); s.apply(blokus.SetMove("BLUE", "PENTO_L", x=0, y=0))
    >>> record(s, 0.25)
    {'start': 'PENTO_L', 'turn': 1, 'move': ['BLUE', 'PENTO_L', 'NONE', False, 0, 0], 'think': 0.25}
    """
    found: dict[str, Any] = json.loads(record_text(state, think))
    return found


def _move_text(last: blokus.Move) -> str:
    if isinstance(last, blokus.SetMove):
        flipped = "true" if last.flipped else "false"
        return (f'["{last.color}","{last.kind}","{last.rotation}",{flipped},'
                f'{int(last.x)},{int(last.y)}]')
    return f'["{last.color}"]'  # a skip


def record_text(state: blokus.State, think: float | None, position: bool = False) -> str:
    """A stored state event's record (`record`) as compact JSON text, written directly: the
    store's writer thread writes one per move, and building a dict to encode cost about
    four times as much. Every name in it is an engine identifier, which JSON never escapes.

    >>> s = blokus.new_game("PENTO_L"); s.apply(blokus.SetMove("BLUE", "PENTO_L", x=0, y=0))
    >>> record_text(s, 0.25)
    '{"start":"PENTO_L","turn":1,"move":["BLUE","PENTO_L","NONE",false,0,0],"think":0.25}'
    """
    last = state.last_move
    move = "null" if last is None else _move_text(last)
    seconds = "null" if think is None else float.__repr__(float(think))
    # `position`: the record also carries every move from the start ("moves"), so that a
    # reader can begin at it: the first state of a match started from a position.
    moves = "" if not position or last is None else \
        ',"moves":[' + ",".join(_move_text(m) for m in state.moves()) + "]"
    return (f'{{"start":"{state.start_piece}","turn":{int(state.turn)},"move":{move},'
            f'"think":{seconds}{moves}}}')


class BadRecord(ValueError):
    """A stored record that does not continue the game rebuilt so far."""


def rebuild(state: blokus.State | None, found: Any) -> blokus.State:
    """The state a record describes, from the state of the record before it (None: none).

    Raises `BadRecord` when the record does not follow (a gap in the log, another game).

    >>> s = rebuild(None, {"start": "PENTO_L", "turn": 0, "move": None})
    >>> s = rebuild(s, {"start": "PENTO_L", "turn": 1,
    ...                 "move": ["BLUE", "PENTO_L", "NONE", False, 0, 0]})
    >>> s.turn, s.last_move
    (1, SetMove('BLUE', 'PENTO_L', rotation='NONE', flipped=False, x=0, y=0))
    """
    if not isinstance(found, dict):
        raise BadRecord(f"not a record: {found!r}")
    move = found.get("move")
    if state is not None and found.get("turn") == state.turn \
            and record(state, None)["move"] == move:
        return state  # the same state told again (after a pause, to a late observer)
    if move is None:
        state = blokus.new_game(str(found.get("start")))
    elif isinstance(found.get("moves"), list):
        # A position's record (`record_text(position=True)`): rebuilt from the start.
        state = blokus.new_game(str(found.get("start")))
        for each in found["moves"]:
            state = _applied(state, each)
    else:
        if state is None:
            raise BadRecord("a move without the states before it")
        state = _applied(state.clone(), move)
    if state.turn != found.get("turn"):
        raise BadRecord(f"turn {state.turn} rebuilt, {found.get('turn')!r} stored")
    return state


def _applied(state: blokus.State, move: Any) -> blokus.State:
    """`state` (changed) after `move` in the record's spelling; `BadRecord` if it fails."""
    try:
        state.apply(blokus.SetMove(move[0], move[1], rotation=move[2], flipped=move[3],
                                   x=move[4], y=move[5]) if len(move) == 6
                    else blokus.SkipMove(move[0]))
    except (blokus.IllegalMove, TypeError, ValueError, IndexError, KeyError) as exc:
        raise BadRecord(f"move {move!r} does not apply: {exc}") from exc
    return state


class MoveRecording:
    """The plugin's `recording` (`server.games.registry.Recording`): a state as its move."""

    key = KEY

    def record_text(self, event: StateChanged) -> str:
        # News that no answer made, after moves: the first state of a match started from a
        # position (or the same state told again after a pause): it carries the moves.
        state = event.views.public
        return record_text(state, event.think,
                           position=event.answer is None and state.last_move is not None)
