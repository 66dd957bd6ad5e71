"""A Blokus bot that never answers in time."""

import time

from bots.blokus import Bot, run


class SlowBot(Bot):
    def move(self, state):  # type: ignore[no-untyped-def]
        time.sleep(30)
        return next(iter(state.legal_moves()))


if __name__ == "__main__":
    run(SlowBot())
