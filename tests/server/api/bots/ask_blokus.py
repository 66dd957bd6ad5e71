"""Blokus kit bots for the ask-again tests: the bundled greedy bot, recording every byte it
receives (to a file of its own in `$ASK_RECORD_DIR`, when set), and one that plays like it
except at its decision `CHANGED_AT`."""

from __future__ import annotations

import os
from pathlib import Path

from bots.blokus import kit
from bots.blokus.bundled import GreedyBot
from games.blokus import SetMove, SkipMove, State

CHANGED_AT = 3
"""The changed bot's own decision (0 = its first) at which it plays another move."""

_receive = kit.BotSession.receive_data


def _recording(self: kit.BotSession, data: bytes) -> bytes:
    folder = os.environ.get("ASK_RECORD_DIR")
    if folder:
        with open(Path(folder) / f"{os.getpid()}.bytes", "ab") as out:
            out.write(data)
    return _receive(self, data)


kit.BotSession.receive_data = _recording  # type: ignore[method-assign]


class RecordingGreedy(GreedyBot):
    """The bundled greedy bot (its bytes recorded by the session above)."""


class ChangedGreedy(GreedyBot):
    """Greedy, except at its decision `CHANGED_AT`: another legal move then (the greedy
    one is still computed, so that its seeded tie-breaks stay in step)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def move(self, state: State) -> SetMove | SkipMove:
        chosen = super().move(state)
        self.decisions += 1
        if self.decisions - 1 != CHANGED_AT:
            return chosen
        return next(m for m in state.legal_moves() if m != chosen)
