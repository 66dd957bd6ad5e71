"""A Blokus bot whose first move is a pass, which the rules forbid on a colour's first move."""

from bots.blokus import Bot, run
from games.blokus import SkipMove


class IllegalBot(Bot):
    def move(self, state):  # type: ignore[no-untyped-def]
        return SkipMove(state.current_color)


if __name__ == "__main__":
    run(IllegalBot())
