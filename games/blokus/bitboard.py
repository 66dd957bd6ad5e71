"""Bitboards: a set of board cells as one Python int, and the neighbour helpers on them.

Bit `y * STRIDE + x` is the cell (x, y). Each row has one spare bit (x = 20) that is never
part of a board, so shifting by one cell to the left or right lands in that padding
instead of wrapping into the neighbouring row; masking with `FULL` removes it again. The
engine, its move tables and the bundled bots all use this one layout.

>>> own = cell_bit(0, 0)
>>> sorted(mask_to_cells(edge_neighbours(own)))
[(0, 1), (1, 0)]
>>> sorted(mask_to_cells(corner_neighbours(own)))
[(1, 1)]
>>> sorted(mask_to_cells(attach_corners(own, occupied=own)))
[(1, 1)]
>>> cells_to_mask([(19, 19)]) == cell_bit(19, 19), cells_to_mask([(20, 0)])
(True, None)
"""

from __future__ import annotations

from collections.abc import Iterable

SIZE = 20
STRIDE = SIZE + 1

FULL = 0
for _y in range(SIZE):
    FULL |= ((1 << SIZE) - 1) << (_y * STRIDE)

BORDER = 0
for _i in range(SIZE):
    for _x, _y in ((_i, 0), (_i, SIZE - 1), (0, _i), (SIZE - 1, _i)):
        BORDER |= 1 << (_y * STRIDE + _x)


def cell_bit(x: int, y: int) -> int:
    """The mask of the cell (x, y), which must be on the board."""
    return 1 << (y * STRIDE + x)


def edge_neighbours(board: int) -> int:
    """Cells sharing an edge with a cell of `board` (may include `board` itself)."""
    return ((board << 1) | (board >> 1) | (board << STRIDE) | (board >> STRIDE)) & FULL


def corner_neighbours(board: int) -> int:
    """Cells sharing a corner with a cell of `board` (may include `board` itself)."""
    return (
        (board << (STRIDE + 1))
        | (board << (STRIDE - 1))
        | (board >> (STRIDE + 1))
        | (board >> (STRIDE - 1))
    ) & FULL


def attach_corners(own: int, occupied: int) -> int:
    """Free cells where the colour of `own` may attach its next piece.

    They touch `own` at a corner and nowhere along an edge, and are not in `occupied`
    (all colours' cells, `own` included): the anchors of move generation.
    """
    return corner_neighbours(own) & ~(edge_neighbours(own) | occupied)


def cells_to_mask(cells: Iterable[tuple[int, int]]) -> int | None:
    """The mask of an iterable of (x, y) cells, or None if one is off the board."""
    mask = 0
    for x, y in cells:
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return None
        mask |= 1 << (y * STRIDE + x)
    return mask


def mask_to_cells(mask: int) -> frozenset[tuple[int, int]]:
    """The (x, y) cells of a board mask."""
    cells = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        cells.append((index % STRIDE, index // STRIDE))
        mask ^= low
    return frozenset(cells)
