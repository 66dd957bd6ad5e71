"""A Blokus bot that plays a stored match's moves again: the file named by
GAUNTLET_REPLAY_MOVES maps each turn (the state's, before the move) to the move in the
stored record's spelling ([colour, kind, rotation, flipped, x, y] or [colour])."""

import json
import os

from bots.blokus import Bot, run
from games.blokus import SetMove, SkipMove


class ReplayBot(Bot):
    def __init__(self) -> None:
        with open(os.environ["GAUNTLET_REPLAY_MOVES"], encoding="utf-8") as file:
            self.moves = json.load(file)

    def move(self, state):  # type: ignore[no-untyped-def]
        m = self.moves[str(state.turn)]
        if len(m) == 1:
            return SkipMove(m[0])
        return SetMove(m[0], m[1], rotation=m[2], flipped=m[3], x=m[4], y=m[5])


if __name__ == "__main__":
    run(ReplayBot())
