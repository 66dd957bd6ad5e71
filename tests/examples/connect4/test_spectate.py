"""The spectators' side: the renderer's states (live and from log entries), the plugin's
`Spectating` (meta, stored frames) and the viewer files the package ships."""

from __future__ import annotations

import re
import tomllib
from types import SimpleNamespace
from typing import Any

from connect4.board import Board
from connect4.game import Connect4Game
from connect4.spectate import Connect4Renderer, Connect4Spectating, board_of, grid, render_state

from server.games.registry import Spectating
from server.rooms.events import Entry, GameOver, PauseChanged, StateChanged
from server.rooms.game import Views
from server.rooms.result import MatchResult, Outcome
from server.spectate.frames import Frame
from server.spectate.render import Renderer

from .conftest import PACKAGE_ROOT
from .test_board import DRAW

EMPTY = "......."


def state_entry(seq: int, moves: str, think: float | None = None) -> Entry:
    board = Board.from_moves(moves)
    news = {"moves": moves, "turn": None if board.is_over else board.turn,
            "winner": board.winner, "over": board.is_over}
    return Entry(seq, StateChanged(Views(news), think), frozenset({0, 1}), True)


def test_the_start() -> None:
    state = Connect4Renderer(Connect4Game()).state(None, False)
    assert state == {"grid": [EMPTY] * 6, "turn": 0, "last": None, "over": False,
                     "winner": None, "moves": "", "ply": 0}


def test_a_position_cell_by_cell() -> None:
    # X plays columns 4, 5, 4, 4 and O 4, 3, 6 (1..7): the grid, top row first
    board = Board.from_moves("4453464")
    rows = grid(board)
    assert rows == [EMPTY, EMPTY,
                    "...X...",
                    "...X...",
                    "...O...",
                    "..OXXO."]
    for r, line in enumerate(rows):
        for column, char in enumerate(line):
            owner = board.cell(column, 5 - r)
            assert char == ("." if owner is None else "XO"[owner]), (r, column)
    state = render_state(board)
    assert state["last"] == {"column": 3, "row": 3}
    assert state["turn"] == 1 and not state["over"] and state["winner"] is None
    assert state["moves"] == "4453464" and state["ply"] == 7


def test_a_win_and_a_draw() -> None:
    state = render_state(Board.from_moves("4455667"))
    assert state["grid"] == [EMPTY] * 4 + ["...OOO.", "...XXXX"]
    assert state["last"] == {"column": 6, "row": 0}
    assert state["over"] and state["winner"] == 0 and state["turn"] is None
    # O wins vertically in column 1, its disc on top of its three
    state = render_state(Board.from_moves("21212131"))
    assert state["winner"] == 1 and state["last"] == {"column": 0, "row": 3}
    assert [line[0] for line in state["grid"]] == [".", ".", "O", "O", "O", "O"]
    drawn = render_state(Board.from_moves(DRAW))
    assert drawn["over"] and drawn["winner"] is None and "." not in "".join(drawn["grid"])
    assert drawn["last"] is not None and drawn["last"]["row"] == 5


def test_entries_are_rendered_from_their_news_not_the_live_board() -> None:
    game = Connect4Game()
    for column in (3, 3, 4):
        game.apply(game.board.turn, column)
    renderer = Connect4Renderer(game, ["ann", "bob"])
    early = renderer.state(state_entry(1, "4", think=0.0123), False)
    assert early["grid"][-1] == "...X..." and early["moves"] == "4" and early["turn"] == 1
    assert early["last"] == {"column": 3, "row": 0, "thinkMs": 12}
    assert renderer.state(state_entry(1, "4"), True) == renderer.state(state_entry(1, "4"), False)
    # Not a state entry (the result's frame): the live board, with the last think time
    over = renderer.state(Entry(9, GameOver(MatchResult(Outcome(None, "stopped", (0, 0)))),
                                frozenset(), True), True)
    assert over["moves"] == "445" and over["grid"][-2:] == ["...O...", "...XX.."]
    assert renderer.state(None, False)["moves"] == "445"
    paused = Entry(3, PauseChanged(True), frozenset(), True)
    assert renderer.state(paused, False) == renderer.state(None, False)
    assert renderer.meta() == {"columns": 7, "rows": 6, "players": ["ann", "bob"],
                               "symbols": ["X", "O"]}


def test_bad_news_falls_back_to_the_live_board() -> None:
    assert board_of({"moves": "48"}) is None and board_of({"moves": "4444444"}) is None
    assert board_of({"grid": []}) is None and board_of(None) is None
    board = Board.from_moves("12")
    assert board_of(board) is board and board_of({"moves": "12"}) == board
    game = Connect4Game()
    game.apply(0, 6)
    bad = Entry(1, StateChanged(Views({"moves": "9"})), frozenset(), True)
    assert Connect4Renderer(game).state(bad, False)["moves"] == "7"


def test_the_spectating_protocol_and_stored_frames() -> None:
    spectating: Spectating = Connect4Spectating()  # mypy checks the protocols
    renderer: Renderer = spectating.renderer(Connect4Game(), ["a", "b"])
    assert renderer.hidden_information is False and renderer.from_entries is True
    assert spectating.meta(["a", "b"])["players"] == ["a", "b"] == renderer.meta()["players"]
    neutral = {"type": "event", "seq": 2, "kind": "state", "state": render_state(Board())}
    events: list[Any] = [
        SimpleNamespace(seq=1, kind="welcome", payload={"seat": 0}),
        SimpleNamespace(seq=2, kind="state",
                        payload={"public": {"moves": ""}, "spectate": neutral}),
        SimpleNamespace(seq=3, kind="decision", payload={"seat": 0}),
        SimpleNamespace(seq=4, kind="result", payload={"spectate": {"kind": "result"}}),
        SimpleNamespace(seq=5, kind="closed", payload=None),
    ]
    frames = spectating.stored_frames("m1", events, ["a", "b"], None)
    assert [f.seq for f in frames] == [2, 4] and all(isinstance(f, Frame) for f in frames)
    assert frames[0].neutral == neutral and frames[0].full is None
    assert frames[1].kind == "result"
    assert spectating.stored_frames("m1", events[:1], [], None) == []


def test_the_viewer_files_ship_with_the_package() -> None:
    folder = PACKAGE_ROOT / "connect4"
    script = (folder / "viewer.js").read_text()
    style = (folder / "viewer.css").read_text()
    assert 'import { el } from "/dom.js";' in script
    assert "export function render(root, meta, state, info)" in script
    for field in ("state.grid", "state.last", "state.turn", "state.winner", "state.over"):
        assert field in script, field
    selectors = re.sub(r"\{[^}]*\}", " ", re.sub(r"/\*.*?\*/", "", style, flags=re.S))
    classes = set(re.findall(r"\.([A-Za-z_][\w-]*)", selectors))
    assert {"c4-board", "c4-cell", "c4-X", "c4-O", "c4-last"} <= classes
    assert all(c.startswith("c4-") for c in classes), classes
    used = set(re.findall(r"c4-[\w-]+", script)) - {"c4-"}
    assert used and used <= classes, used - classes  # c4-${c}: c4-X, c4-O
    assert "c4-last" in script and ".c4-last" in style
    with (PACKAGE_ROOT / "pyproject.toml").open("rb") as file:
        data = tomllib.load(file)["tool"]["setuptools"]["package-data"]["connect4"]
    assert {"viewer.js", "viewer.css", "py.typed"} <= set(data)
