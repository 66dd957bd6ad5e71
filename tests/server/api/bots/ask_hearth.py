"""Hearth kit bots for the ask-again tests: the bundled greedy bot, recording every byte it
receives (to a file of its own in `$ASK_RECORD_DIR`, when set), one that plays like it
except at its decision `CHANGED_AT`, and one that answers its mulligan only once the
opponent's is done (so the opponent's mulligan is always stored first)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from bots.hearth import kit
from bots.hearth.bundled import GreedyBot
from games.hearth import Action, State
from games.hearth.enums import MULLIGAN_STATE
from protocols.kettle import CHOICE_MULLIGAN, EntityChoices, HistoryBlock

MULLIGAN_DONE = 4  # hearthstone.enums.Mulligan.DONE

CHANGED_AT = 3
"""The changed bot's own decision (0 = its mulligan) at which it plays another action."""

_receive = kit.BotSession.receive_data


def _recording(self: kit.BotSession, data: bytes) -> bytes:
    folder = os.environ.get("ASK_RECORD_DIR")
    if folder:
        with open(Path(folder) / f"{os.getpid()}.bytes", "ab") as out:
            out.write(data)
    return _receive(self, data)


kit.BotSession.receive_data = _recording  # type: ignore[method-assign]

_handle = kit.BotSession._handle
_held: list[EntityChoices] = []


def _waiting(self: kit.BotSession, event: object) -> bytes:
    """`WaitingGreedy`'s mulligan request is held until the opponent's mulligan is done in
    the history: waits for that event, not for a time."""
    if not isinstance(self.bot, WaitingGreedy):
        return _handle(self, event)
    if isinstance(event, EntityChoices) and event.choice_type == CHOICE_MULLIGAN:
        _held.append(event)
        event = None
    out = _handle(self, event) if event is not None else b""
    opponent = 3 if self.player == 1 else 2
    if _held and isinstance(event, HistoryBlock | None) and opponent in self.tree \
            and self.tree[opponent][MULLIGAN_STATE] == MULLIGAN_DONE:
        out += _handle(self, _held.pop())
    return out


kit.BotSession._handle = _waiting  # type: ignore[method-assign]


class RecordingGreedy(GreedyBot):
    """The bundled greedy bot (its bytes recorded by the session above)."""


class ChangedGreedy(GreedyBot):
    """Greedy, except at its decision `CHANGED_AT` (an action with a choice of several):
    another option then; greedy's own pick is still made, so its tie-breaks stay in step."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def mulligan(self, state: State, choices: Sequence[int]) -> list[int]:
        self.decisions += 1
        return super().mulligan(state, choices)

    def choose(self, state: State, choices: Sequence[int], count_min: int,
               count_max: int) -> list[int]:
        self.decisions += 1
        return super().choose(state, choices, count_min, count_max)

    def act(self, state: State, options: Sequence[Action]) -> Action:
        chosen = super().act(state, options)
        self.decisions += 1
        if self.decisions - 1 != CHANGED_AT:
            return chosen
        return next((o for o in options if o != chosen), chosen)


class WaitingGreedy(GreedyBot):
    """Greedy, its mulligan answered after the opponent's (see `_waiting`)."""
