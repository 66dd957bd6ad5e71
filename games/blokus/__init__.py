"""Software-Challenge 2027 Blokus: 20x20 board, four colours, two teams, 21 pieces each.

Pure rules, no I/O. The behaviour is the official server's (docs/blokus-rules.md).

>>> from games import blokus
>>> state = blokus.new_game(start_piece="PENTO_L")
>>> state.current_color
'BLUE'
>>> moves = list(state.legal_moves())
>>> state.apply(moves[0])
>>> state.current_color, state.turn
('YELLOW', 1)
>>> try:
...     state.apply(blokus.SkipMove("YELLOW"))
... except blokus.IllegalMove as error:
...     print(error.mistake.name)
SKIP_FIRST_TURN
"""

from games.blokus.bitboard import (
    attach_corners,
    cell_bit,
    cells_to_mask,
    corner_neighbours,
    edge_neighbours,
    mask_to_cells,
)
from games.blokus.errors import IllegalMove, Mistake
from games.blokus.moves import Move, SetMove, SkipMove
from games.blokus.playout import random_playout
from games.blokus.shapes import (
    COLORS,
    PENTOMINOES,
    ROTATIONS,
    SHAPE_SIZE,
    SHAPES,
    TEAMS,
    team_of,
    transform,
    variants,
)
from games.blokus.state import GAME_TYPE, Result, State, new_game, win_points

__all__ = [
    "COLORS",
    "GAME_TYPE",
    "PENTOMINOES",
    "ROTATIONS",
    "SHAPES",
    "SHAPE_SIZE",
    "TEAMS",
    "IllegalMove",
    "Mistake",
    "Move",
    "Result",
    "SetMove",
    "SkipMove",
    "State",
    "attach_corners",
    "cell_bit",
    "cells_to_mask",
    "corner_neighbours",
    "edge_neighbours",
    "mask_to_cells",
    "new_game",
    "random_playout",
    "team_of",
    "transform",
    "variants",
    "win_points",
]
