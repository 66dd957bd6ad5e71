"""A random player built on the UNMODIFIED official Python client (socha 5.1.0).

Run as `python socha_bot.py --host 127.0.0.1 --port N [--reservation CODE]`, exactly like
the official starter convention. On game over it prints one line `RESULT {json}`.

It never places a colour's last piece (it skips instead, always allowed by then): socha
5.1.0 cannot read a memento once a colour has placed all its pieces. It looks for the
`lastMoveMono` keys as `<sc.plugin2027.Color>`, the official server writes `<color>`, as
ours does (the client's bug, `shared/reference/sc-protocol-and-blokus-rules.md` §2.5); a
random game that placed a whole colour made this test fail now and then.
"""

from __future__ import annotations

import json
import random

from socha import Move
from socha.api.networking.game_client import IClientHandler
from socha.starter import Starter


class RandomLogic(IClientHandler):
    def __init__(self) -> None:
        self.game_state = None

    def on_update(self, state) -> None:  # type: ignore[no-untyped-def]
        self.game_state = state

    def calculate_move(self):  # type: ignore[no-untyped-def]
        state = self.game_state
        color = state.current_color()
        if len(state.undeployed_piece_shapes(color)) == 1:
            return Move.skip_move(color)  # see the module docstring
        return random.choice(state.possible_moves())

    def on_game_over(self, roomMessage) -> None:  # type: ignore[no-untyped-def]
        winner = roomMessage.winner
        scores = [
            [int(part) for part in entry.score.part] for entry in roomMessage.scores.entry
        ]
        print("RESULT " + json.dumps({
            "team": winner.team, "regular": winner.regular, "reason": winner.reason,
            "scores": scores,
        }), flush=True)

    def on_error(self, logMessage: str) -> None:
        print("ERROR " + logMessage, flush=True)


if __name__ == "__main__":
    Starter(logic=RandomLogic())
