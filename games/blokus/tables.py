"""Bitboard geometry and the placement tables, built once at import.

A board is a Python int: bit `y * STRIDE + x` is the cell (x, y). Each row has one spare
bit (x = 20) that is never part of a board, so shifting by one cell to the left or right
lands in that padding instead of wrapping into the neighbouring row; masking with `FULL`
removes it again.

A *placement* is one distinct orientation of one shape at one position that fits on the
board. Placements are numbered (`pid`); `BY_CELL[cell][shape]` lists `(mask, pid)` for
every placement of `shape` that covers `cell`, which is what move generation walks.
"""

from __future__ import annotations

from games.blokus.shapes import SHAPES, variants

SIZE = 20
STRIDE = SIZE + 1
CELL_COUNT = SIZE * STRIDE

FULL = 0
for _y in range(SIZE):
    FULL |= ((1 << SIZE) - 1) << (_y * STRIDE)

BORDER = 0
for _i in range(SIZE):
    for _x, _y in ((_i, 0), (_i, SIZE - 1), (0, _i), (SIZE - 1, _i)):
        BORDER |= 1 << (_y * STRIDE + _x)


def bit(x: int, y: int) -> int:
    """The mask of the cell (x, y), which must be on the board."""
    return 1 << (y * STRIDE + x)


def cell_of(index: int) -> tuple[int, int]:
    """The (x, y) of a bit index."""
    return index % STRIDE, index // STRIDE


def edge_neighbours(board: int) -> int:
    """Cells sharing an edge with a cell of `board` (may include `board` itself)."""
    return ((board << 1) | (board >> 1) | (board << STRIDE) | (board >> STRIDE)) & FULL


def corner_neighbours(board: int) -> int:
    """Cells sharing only a corner with a cell of `board` (may include `board` itself)."""
    return (
        (board << (STRIDE + 1))
        | (board << (STRIDE - 1))
        | (board >> (STRIDE + 1))
        | (board >> (STRIDE - 1))
    ) & FULL


def cells_to_mask(cells: object) -> int | None:
    """The mask of an iterable of (x, y) cells, or None if one is off the board."""
    mask = 0
    for x, y in cells:  # type: ignore[attr-defined]
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return None
        mask |= 1 << (y * STRIDE + x)
    return mask


# Per placement id: shape index, rotation, flipped, x, y, mask.
P_SHAPE: list[int] = []
P_ROTATION: list[str] = []
P_FLIPPED: list[bool] = []
P_X: list[int] = []
P_Y: list[int] = []
P_MASK: list[int] = []
# Cells of each placement id, as (x, y) tuples (to build move objects without transforming).
P_CELLS: list[frozenset[tuple[int, int]]] = []
# Placement id of a (shape, rotation, flipped, x, y) that is the first of its orientation.
PID_OF: dict[tuple[int, str, bool, int, int], int] = {}
# Placement id by (shape index, mask): every legal placement's canonical id.
PID_BY_MASK: list[dict[int, int]] = [{} for _ in SHAPES]

_by_cell: list[list[list[tuple[int, int]]]] = [[[] for _ in SHAPES] for _ in range(CELL_COUNT)]

for _shape, _name in enumerate(SHAPES):
    for _rotation, _flipped, _cells in variants(_name):
        _width = 1 + max(cx for cx, _ in _cells)
        _height = 1 + max(cy for _, cy in _cells)
        _offsets = tuple(cy * STRIDE + cx for cx, cy in _cells)
        _base = 0
        for _offset in _offsets:
            _base |= 1 << _offset
        for _py in range(SIZE - _height + 1):
            for _px in range(SIZE - _width + 1):
                _origin = _py * STRIDE + _px
                _mask = _base << _origin
                _pid = len(P_MASK)
                P_SHAPE.append(_shape)
                P_ROTATION.append(_rotation)
                P_FLIPPED.append(_flipped)
                P_X.append(_px)
                P_Y.append(_py)
                P_MASK.append(_mask)
                P_CELLS.append(frozenset((_px + cx, _py + cy) for cx, cy in _cells))
                PID_OF[(_shape, _rotation, _flipped, _px, _py)] = _pid
                PID_BY_MASK[_shape][_mask] = _pid
                _entry = (_mask, _pid)
                for _offset in _offsets:
                    _by_cell[_origin + _offset][_shape].append(_entry)

PLACEMENT_COUNT = len(P_MASK)
BY_CELL: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple(entries) for entries in per_shape) for per_shape in _by_cell
)
del _by_cell
