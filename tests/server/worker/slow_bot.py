"""A random Blokus bot that thinks 15 ms a move: the kill test needs a game that lasts
(bundled bots play one in about 0.3 s, which can end between a look and the kill)."""

from __future__ import annotations

import time

from bots.blokus import RandomBot
from games.blokus import Move, State


class SlowRandom(RandomBot):
    def move(self, state: State) -> Move:
        time.sleep(0.015)
        return super().move(state)
