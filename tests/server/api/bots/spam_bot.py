"""A Blokus bot that writes 8 MB to stderr before each of its first moves, then plays on."""

import sys

from bots.blokus import RandomBot, run

CHUNK = "x" * 1023 + "\n"


class SpamBot(RandomBot):
    moves = 0

    def move(self, state):  # type: ignore[no-untyped-def]
        self.moves += 1
        if self.moves <= 2:
            for _ in range(4096):
                sys.stderr.write(CHUNK)
            sys.stderr.flush()
        return super().move(state)


if __name__ == "__main__":
    run(SpamBot(seed=2))
