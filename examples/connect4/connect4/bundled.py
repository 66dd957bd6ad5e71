"""The bots that come with Connect Four, as a server registers them (`GamePlugin.bundled`):
in-process, each a `play(view, payload) -> column` function and no command line.

The server calls `play` in a worker thread with `view` the seat's view (a `Board` copy,
`connect4.game.Connect4Game.view`) and `payload` the decision's (the tuple of legal
columns). Calls may overlap (several matches at once): each makes its own bot, seeded from
the player's own seed sequence, so that no search state is shared.

>>> from connect4.board import Board
>>> play = Player("negamax", lambda seed: NegamaxBot(4, seed), seed=1)
>>> board = Board.from_moves("445566")
>>> play(board, tuple(board.legal_moves))  # X completes the bottom row
2
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from connect4.board import Board
from connect4.bots import NegamaxBot, RandomBot
from server.games.registry import BundledBot

Bot = RandomBot | NegamaxBot
NAMES = ("connect4-random", "connect4-negamax")


class Player:
    """A bundled bot's `play`: `make(seed)` builds a fresh bot for each call."""

    def __init__(self, name: str, make: Callable[[int], Bot], seed: int | None = None) -> None:
        self.name = name
        self.make = make
        self._seeds = random.Random(seed)
        self._lock = threading.Lock()

    def __call__(self, view: Any, payload: Any) -> int:
        board = view if isinstance(view, Board) else None
        if board is None:
            raise TypeError(f"{self.name}: the view is no Board: {type(view).__name__}")
        with self._lock:
            seed = self._seeds.getrandbits(64)
        column = self.make(seed).choose(board.copy())
        if payload is not None and column not in payload:
            # The view and the decision disagree: a server bug; the seat fails loudly.
            raise ValueError(f"{self.name}: column {column} is not among {payload!r}")
        return column

    def __repr__(self) -> str:
        return f"Player({self.name!r})"


def has_play_field() -> bool:
    """Whether this server's `BundledBot` can carry a `play` function (an older server's
    cannot: the package still loads there, without bots)."""
    return "play" in getattr(BundledBot, "__dataclass_fields__", {})


def bundled() -> tuple[BundledBot, ...]:
    """`connect4-random` and `connect4-negamax` (depth 6); nothing on a server whose
    `BundledBot` has no `play` (it could not seat them)."""
    if not has_play_field():
        return ()
    return (BundledBot(NAMES[0], (), play=Player(NAMES[0], RandomBot)),
            BundledBot(NAMES[1], (), play=Player(NAMES[1], lambda seed: NegamaxBot(6, seed))))
