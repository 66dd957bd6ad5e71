"""The "moves" replay format: a stored match's final position as Pons' move string."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from connect4.board import Board
from connect4.plugin import PLUGIN
from connect4.replay import MOVES, moves_document

from server.games.registry import ReplayFormat


def event(seq: int, kind: str, payload: Any) -> Any:
    return SimpleNamespace(seq=seq, kind=kind, payload=payload)


def test_the_document_is_the_last_state_events_moves() -> None:
    events = [event(0, "welcome", {"seat": 0}),
              event(1, "state", {"public": {"moves": "", "turn": 0}}),
              event(2, "decision", {"seat": 0}),
              event(3, "state", {"public": {"moves": "4", "turn": 1}}),
              event(4, "state", {"public": {"moves": "45", "turn": 0}, "spectate": {}}),
              event(5, "result", {"winner": None, "reason": "stopped"}),
              event(6, "closed", {})]
    text = moves_document("abc-123", events)
    assert text == "# connect4 abc-123\n45\n"
    assert text is not None and Board.from_moves(text.splitlines()[1]).moves == (3, 4)


def test_no_state_event_no_document() -> None:
    assert moves_document("m", []) is None
    assert moves_document("m", [event(0, "welcome", {}), event(1, "result", {})]) is None
    # a state event whose payload is no news of ours (stored before news were plain)
    assert moves_document("m", [event(1, "state", {"xml": ["<room/>"]}),
                                event(2, "state", None)]) is None


def test_an_empty_game_and_a_bad_last_event() -> None:
    assert moves_document("m", [event(1, "state", {"public": {"moves": ""}})]) \
        == "# connect4 m\n\n"
    # a malformed later event does not hide the good one before it
    events = [event(1, "state", {"public": {"moves": "4455"}}),
              event(2, "state", {"public": {"moves": "44x"}})]
    assert moves_document("m", events) == "# connect4 m\n4455\n"


def test_the_format_is_registered() -> None:
    assert ReplayFormat("moves", "text/plain; charset=utf-8", "{id}.connect4.txt",
                                 moves_document) == MOVES
    assert PLUGIN.replays == (MOVES,) and PLUGIN.replay_format(None) is MOVES
    assert PLUGIN.replay_format("moves") is MOVES and PLUGIN.replay_format("sc-xml") is None
    assert MOVES.filename.format(id="m7") == "m7.connect4.txt"
