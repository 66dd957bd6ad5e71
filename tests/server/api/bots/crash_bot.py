"""A Blokus bot that plays two moves, then dies with exit code 3 (a crash mid-game)."""

import os
import sys

from bots.blokus import RandomBot, run


class CrashBot(RandomBot):
    moves = 0

    def move(self, state):  # type: ignore[no-untyped-def]
        self.moves += 1
        if self.moves > 2:
            sys.stderr.write("crash_bot: giving up\n")
            sys.stderr.flush()
            os._exit(3)
        return super().move(state)


if __name__ == "__main__":
    run(CrashBot(seed=1))
