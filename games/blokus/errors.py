"""Why a move is illegal: the official mistake kinds with their exact German texts."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.blokus.moves import Move


class Mistake(enum.Enum):
    """The mistakes the official 2027 server reports, in the words it reports them.

    >>> Mistake.NOT_ON_BORDER.text
    'Der erste Zug muss an den Rand gesetzt werden'
    """

    # The sdk's MoveMistake text: the 2027 plugin never uses its own WRONG_COLOR text.
    WRONG_COLOR = "Nur eigene Spielfiguren können gezogen werden"
    WRONG_SHAPE = "Der erste Zug muss den festgelegten Spielstein setzen"
    DUPLICATE_SHAPE = "Der gewählte Stein wurde bereits gesetzt"
    OUT_OF_BOUNDS = "Der Spielstein passt nicht vollständig auf das Spielfeld"
    OBSTRUCTED = "Der Spielstein würde eine andere Farbe überlagern"
    TOUCHES_SAME_COLOR = "Der Spielstein berührt ein Feld gleicher Farbe"
    NOT_ON_BORDER = "Der erste Zug muss an den Rand gesetzt werden"
    NO_SHARED_CORNER = (
        "Alle Teile müssen ein vorheriges Teil gleicher Farbe über mindestens eine Ecke berühren"
    )
    SKIP_FIRST_TURN = "Der erste Zug muss einen Stein setzen"
    # Not an official mistake: the official server never asks for a move once the game is
    # over, but an engine driven by hand can be asked to apply one.
    GAME_OVER = "Das Spiel ist bereits beendet"

    @property
    def text(self) -> str:
        """The exact German text of the official server."""
        return self.value


class IllegalMove(ValueError):
    """A move the rules forbid; `.mistake` says why and `.move` is the offending move."""

    def __init__(self, mistake: Mistake, move: Move) -> None:
        super().__init__(f"{mistake.text}: {move!r}")
        self.mistake = mistake
        self.move = move

    @property
    def text(self) -> str:
        """The exact German text of the mistake (without the move)."""
        return self.mistake.text
