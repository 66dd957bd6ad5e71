"""Connect Four for spectators: the plugin's `spectating` (`server.games.registry.Spectating`)
and the renderer of a room's frames (`server.spectate.render.Renderer`).

A state is plain JSON: ``grid``, six strings of seven ``X``/``O``/``.``, the top row first;
``turn`` (the seat to move, None once over), ``last`` (the last disc's ``column`` 0..6 and
``row`` 0..5 counted from the bottom as `Board.cell` counts, with ``thinkMs`` when the room
timed it; None before the first move), ``over``, ``winner``, ``moves`` (Pons' notation) and
``ply``. No hidden information: admins see the same.

>>> state = render_state(Board.from_moves("4453"))
>>> state["grid"][-2:], state["last"], state["turn"]
(['...O...', '..OXX..'], {'column': 2, 'row': 0}, 0)
"""

from __future__ import annotations

import logging
from typing import Any

from connect4.board import HEIGHT, PLAYER_SYMBOLS, WIDTH, Board
from server.rooms.events import Entry, StateChanged
from server.spectate.frames import Frame, stored_with

log = logging.getLogger(__name__)


def grid(board: Board) -> list[str]:
    """The board as six strings of seven cells, the top row first (`Board.rows`)."""
    return board.rows()


def render_state(board: Board, think: float | None = None) -> dict[str, Any]:
    """The spectators' state of `board`; `think`: the seconds the last move's seat thought
    (None: not known, not sent)."""
    moves = board.moves
    last: dict[str, Any] | None = None
    if moves:
        column = moves[-1]
        row = sum(1 for r in range(HEIGHT) if board.cell(column, r) is not None) - 1
        last = {"column": column, "row": row}
        if think is not None:
            last["thinkMs"] = round(think * 1000)
    over = board.is_over
    return {"grid": grid(board), "turn": None if over else board.turn, "last": last,
            "over": over, "winner": board.winner, "moves": board.notation(),
            "ply": board.ply}


def board_of(news: Any) -> Board | None:
    """The board a state event's public news stands for (`connect4.game.news_of`'s dict,
    or a `Board`); None when it is neither."""
    if isinstance(news, Board):
        return news
    if isinstance(news, dict) and isinstance(news.get("moves"), str):
        try:
            return Board.from_moves(news["moves"])
        except ValueError as exc:  # InvalidMoveString, IllegalMove
            log.error("connect4 news with bad moves %r: %s", news["moves"], exc)
    return None


def meta(names: list[str]) -> dict[str, Any]:
    return {"columns": WIDTH, "rows": HEIGHT, "players": list(names),
            "symbols": list(PLAYER_SYMBOLS)}


class Connect4Renderer:
    """A room's renderer: a state event is rendered from its own news (a late spectator
    renders the whole log), anything else from the game's board as it is now."""

    hidden_information = False
    from_entries = True

    def __init__(self, game: Any, names: list[str] | None = None) -> None:
        self.game = game
        self.names = list(names or [])
        self._think: float | None = None  # the latest move's (the result shows it too)

    def meta(self) -> dict[str, Any]:
        return meta(self.names)

    def state(self, entry: Entry | None, full: bool) -> dict[str, Any]:
        if entry is not None and isinstance(entry.event, StateChanged):
            event = entry.event
            board = board_of(event.views.public)
            if board is not None:
                self._think = event.think
                return render_state(board, event.think)
        return render_state(self.game.board, self._think)


class Connect4Spectating:
    """How spectators watch Connect Four. The frames are stored beside the events, so a
    stored match's frames are those (`stored_with`)."""

    def renderer(self, game: Any, names: list[str]) -> Connect4Renderer:
        return Connect4Renderer(game, names)

    def meta(self, names: list[str]) -> dict[str, Any]:
        return meta(names)

    def stored_frames(self, match_id: str, events: list[Any], names: list[str],
                      violation_seat: int | None) -> list[Frame]:
        return stored_with(events)
