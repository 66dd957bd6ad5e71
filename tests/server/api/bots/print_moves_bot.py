"""A Blokus bot that prints "move K" on stderr at its K-th decision, then plays at random."""

import sys

from bots.blokus import RandomBot, run


class PrintingBot(RandomBot):
    moves = 0

    def move(self, state):  # type: ignore[no-untyped-def]
        self.moves += 1
        print(f"move {self.moves}", file=sys.stderr, flush=True)
        return super().move(state)


if __name__ == "__main__":
    print("starting up", file=sys.stderr, flush=True)
    run(PrintingBot(seed=5))
