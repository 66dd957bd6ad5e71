"""A Hearth bot that plays a stored match's answers again: the file named by
GAUNTLET_REPLAY_MOVES lists them ({"seat", "move": [kind, entity, target, position,
cards]}, as the event log stores them) in order; each seat plays its own, in turn."""

import json
import os

from bots.hearth import Bot, run
from games.hearth import Action, Kind


class ReplayBot(Bot):
    def __init__(self) -> None:
        with open(os.environ["GAUNTLET_REPLAY_MOVES"], encoding="utf-8") as file:
            self.answers = json.load(file)
        self.mine: list[Action] = []

    def on_start(self, player):  # type: ignore[no-untyped-def]
        self.mine = [_action(a["move"]) for a in self.answers if a["seat"] == player - 1]

    def mulligan(self, state, choices):  # type: ignore[no-untyped-def]
        return list(self._next(Kind.MULLIGAN).cards)

    def choose(self, state, choices, count_min, count_max):  # type: ignore[no-untyped-def]
        return list(self._next(Kind.CHOOSE).cards)

    def act(self, state, options):  # type: ignore[no-untyped-def]
        wanted = self._next(None)
        found = [o for o in options if (o.kind, o.entity, o.target, o.position)
                 == (wanted.kind, wanted.entity, wanted.target, wanted.position)]
        if not found:
            raise RuntimeError(f"stored answer {wanted} is not among {options}")
        return found[0]

    def _next(self, kind):  # type: ignore[no-untyped-def]
        action = self.mine.pop(0)
        if kind is not None and action.kind != kind:
            raise RuntimeError(f"stored answer {action} is not a {kind.name}")
        return action


def _action(move):  # type: ignore[no-untyped-def]
    kind, entity, target, position, cards = move
    return Action(Kind(kind), entity, target, position, tuple(cards))


if __name__ == "__main__":
    run(ReplayBot())
