"""The placement tables behind move generation.

Boards are bitboards in the layout of `games.blokus.bitboard`.

A *placement* is one distinct orientation of one shape at one position that fits on the
board. Placements are numbered (`pid`) once at import. Generation asks, for an anchor cell
(an attach corner of the colour to move), which placements cover it; the answer is
narrowed by the pattern of blocked cells around the anchor (see `candidates`), which
throws away most placements with one dictionary lookup. The rest are checked against the
9x9 window around the anchor, as small masks shared by every cell (see `LOCAL_SHIFT`).
"""

from __future__ import annotations

from games.blokus.bitboard import BORDER, SIZE, STRIDE
from games.blokus.shapes import SHAPES, variants

CELL_COUNT = SIZE * STRIDE


# Per placement id: shape index, board mask, and the fields of its move after the colour
# (kind, rotation, flipped, x, y, mask), ready to become a SetMove in one step.
P_SHAPE: list[int] = []
P_MASK: list[int] = []
P_FIELDS: list[tuple[str, str, bool, int, int, int]] = []

# Generation looks at the board through a window around each anchor cell: `local(shifted,
# cell)` with `shifted = forbidden << LOCAL_SHIFT` puts the anchor at bit LOCAL_SHIFT and
# keeps the 9x9 cells around it (a piece covering the anchor reaches at most 4 cells away),
# still in rows of STRIDE bits. A placement seen from one of its cells is then the same
# small int wherever that cell is on the board, so all the candidate lists share a few
# hundred entries instead of holding one ~450-bit mask each: listing unrelated positions
# one after another touches little memory and stays in the CPU caches.
REACH = 4
LOCAL_SHIFT = REACH * STRIDE + REACH
LOCAL_MASK = 0
for _y in range(2 * REACH + 1):
    LOCAL_MASK |= ((1 << (2 * REACH + 1)) - 1) << (_y * STRIDE)
# Above the window, one bit per shape: the shapes a colour has placed go into its local
# forbidden mask, so one AND checks both the cells and the shape.
LOCAL_SHAPE_BASE = LOCAL_MASK.bit_length()


def local_shape_bits(shapes: int) -> int:
    """The local forbidden bits for a set of shape indices given as a 21-bit mask."""
    return shapes << LOCAL_SHAPE_BASE


# A *relative placement* is a placement seen from one of its cells: (local mask | shape
# bit, r), numbered `r` in order of first appearance. PID_AT[cell][r] is the placement it
# stands for when that cell is `cell` (-1 where it does not fit on the board).
RELATIVE: list[tuple[int, int]] = []
_relative_of: dict[int, tuple[int, int]] = {}
# Per cell: every placement covering it, as its relative entry, in placement-id order.
_covering: list[list[tuple[int, int]]] = [[] for _ in range(CELL_COUNT)]
# (Sized generously here and trimmed below: the count is only known at the end.)
_pid_at: list[list[int]] = [[-1] * 1024 for _ in range(CELL_COUNT)]

for _shape, _name in enumerate(SHAPES):
    _shape_bit = 1 << (LOCAL_SHAPE_BASE + _shape)
    for _rotation, _flipped, _cells in variants(_name):
        _width = 1 + max(cx for cx, _ in _cells)
        _height = 1 + max(cy for _, cy in _cells)
        _offsets = tuple(cy * STRIDE + cx for cx, cy in _cells)
        _base = sum(1 << offset for offset in _offsets)
        for _py in range(SIZE - _height + 1):
            for _px in range(SIZE - _width + 1):
                _origin = _py * STRIDE + _px
                _mask = _base << _origin
                _pid = len(P_MASK)
                P_SHAPE.append(_shape)
                P_MASK.append(_mask)
                P_FIELDS.append((_name, _rotation, _flipped, _px, _py, _mask))
                for _offset in _offsets:
                    _cell = _origin + _offset
                    _local = (_mask << LOCAL_SHIFT >> _cell) | _shape_bit
                    _entry = _relative_of.get(_local)
                    if _entry is None:
                        _entry = (_local, len(RELATIVE))
                        RELATIVE.append(_entry)
                        _relative_of[_local] = _entry
                    _covering[_cell].append(_entry)
                    _pid_at[_cell][_entry[1]] = _pid

PLACEMENT_COUNT = len(P_MASK)
RELATIVE_COUNT = len(RELATIVE)
COVERING: tuple[tuple[tuple[int, int], ...], ...] = tuple(map(tuple, _covering))
PID_AT: tuple[tuple[int, ...], ...] = tuple(tuple(pids[:RELATIVE_COUNT]) for pids in _pid_at)
del _covering, _pid_at, _relative_of

# The 3x3 window around the anchor inside a local mask: `pattern(local)` is
# `local >> PATTERN_SHIFT & WINDOW`.
PATTERN_SHIFT = (REACH - 1) * STRIDE + REACH - 1
WINDOW = 0b111 | 0b111 << STRIDE | 0b111 << (2 * STRIDE)

# Per anchor cell: window pattern -> the covering placements that avoid every blocked cell
# of the window. Filled on demand: only the patterns real games produce ever exist (random
# games settle at a few thousand entries in all; the bound is 256 patterns per cell, as an
# anchor is never blocked itself).
_BY_PATTERN: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple(
    {} for _ in range(CELL_COUNT)
)


def candidates(cell: int, pattern: int) -> tuple[tuple[int, int], ...]:
    """Relative placements covering `cell` that avoid the blocked cells of its 3x3 `pattern`.

    `pattern` is `local >> PATTERN_SHIFT & WINDOW` for the anchor's local forbidden mask.
    Blocked cells around an anchor rule out most placements through it (on random
    positions about six in seven), so the caller's exact check runs on far fewer masks.
    """
    blocked = pattern << PATTERN_SHIFT
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
