"""Bitboard geometry and the placement tables behind move generation.

A board is a Python int: bit `y * STRIDE + x` is the cell (x, y). Each row has one spare
bit (x = 20) that is never part of a board, so shifting by one cell to the left or right
lands in that padding instead of wrapping into the neighbouring row; masking with `FULL`
removes it again.

A *placement* is one distinct orientation of one shape at one position that fits on the
board. Placements are numbered (`pid`) once at import. Generation asks, for an anchor cell
(an attach corner of the colour to move), which placements cover it; the answer is
narrowed by the pattern of blocked cells around the anchor (see `candidates`), which
throws away most placements with one dictionary lookup.
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

# Each generation mask also carries one bit for its shape, above the board. Putting the
# bits of the shapes a colour may not use into `forbidden` filters shapes with the same
# single AND that checks the board.
SHAPE_BIT_BASE = CELL_COUNT + STRIDE + 8


def shape_bits(shapes: int) -> int:
    """The forbidden-mask bits for a set of shape indices given as a 21-bit mask."""
    return shapes << SHAPE_BIT_BASE


def bit(x: int, y: int) -> int:
    """The mask of the cell (x, y), which must be on the board."""
    return 1 << (y * STRIDE + x)


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


def mask_to_cells(mask: int) -> frozenset[tuple[int, int]]:
    """The (x, y) cells of a board mask."""
    cells = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        cells.append((index % STRIDE, index // STRIDE))
        mask ^= low
    return frozenset(cells)


# Per placement id: shape index, board mask, and the fields of its move after the colour
# (kind, rotation, flipped, x, y, mask), ready to become a SetMove in one step.
P_SHAPE: list[int] = []
P_MASK: list[int] = []
P_FIELDS: list[tuple[str, str, bool, int, int, int]] = []

# Per cell: every placement covering it, as (board mask | shape bit, pid).
_covering: list[list[tuple[int, int]]] = [[] for _ in range(CELL_COUNT)]

for _shape, _name in enumerate(SHAPES):
    _shape_bit = 1 << (SHAPE_BIT_BASE + _shape)
    for _rotation, _flipped, _cells in variants(_name):
        _width = 1 + max(cx for cx, _ in _cells)
        _height = 1 + max(cy for _, cy in _cells)
        _offsets = tuple(cy * STRIDE + cx for cx, cy in _cells)
        _base = sum(1 << offset for offset in _offsets)
        for _py in range(SIZE - _height + 1):
            for _px in range(SIZE - _width + 1):
                _origin = _py * STRIDE + _px
                _mask = _base << _origin
                _entry = (_mask | _shape_bit, len(P_MASK))
                P_SHAPE.append(_shape)
                P_MASK.append(_mask)
                P_FIELDS.append((_name, _rotation, _flipped, _px, _py, _mask))
                for _offset in _offsets:
                    _covering[_origin + _offset].append(_entry)

PLACEMENT_COUNT = len(P_MASK)
COVERING: tuple[tuple[tuple[int, int], ...], ...] = tuple(map(tuple, _covering))
del _covering

# The 3x3 window around a cell, read from `forbidden << WINDOW_SHIFT >> cell` (the shift
# keeps cells in the top row from needing a negative shift).
WINDOW_SHIFT = STRIDE + 1
WINDOW = 0b111 | 0b111 << STRIDE | 0b111 << (2 * STRIDE)

# Per anchor cell: window pattern -> the covering placements that avoid every blocked cell
# of the window. Filled on demand: only the patterns real games produce ever exist (random
# games settle at a few thousand entries in all; the bound is 256 patterns per cell, as an
# anchor is never blocked itself).
_BY_PATTERN: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple(
    {} for _ in range(CELL_COUNT)
)


def candidates(cell: int, pattern: int) -> tuple[tuple[int, int], ...]:
    """Placements covering `cell` that avoid the blocked cells of its 3x3 `pattern`.

    `pattern` is `(forbidden << WINDOW_SHIFT >> cell) & WINDOW`. Blocked cells around an
    anchor rule out most placements through it (on random positions about six in seven),
    so the caller's exact check runs on far fewer masks.
    """
    blocked = (pattern << cell) >> WINDOW_SHIFT
    found = tuple(entry for entry in COVERING[cell] if not entry[0] & blocked)
    _BY_PATTERN[cell][pattern] = found
    return found


BY_PATTERN = _BY_PATTERN


_START: dict[int, tuple[tuple[int, int], ...]] = {}


def start_placements(shape: int) -> tuple[tuple[int, int], ...]:
    """Every placement of `shape` touching the border, as (board mask, pid).

    A colour's first move must use the start piece and touch the border, so its
    candidates do not depend on anchors at all.
    """
    found = _START.get(shape)
    if found is None:
        found = tuple(
            (P_MASK[pid], pid)
            for pid in range(PLACEMENT_COUNT)
            if P_SHAPE[pid] == shape and P_MASK[pid] & BORDER
        )
        _START[shape] = found
    return found
