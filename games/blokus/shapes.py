"""The 21 Blokus shapes, the four rotations, the flip, and the official transform.

Names are spelled exactly as the Software-Challenge XML spells them, and the canonical
coordinates are those of the official `PieceShape.kt` (x to the right, y downwards).

>>> transform("TRIO_L", "NONE", True)
((1, 0), (1, 1), (0, 1))
>>> [variant[:2] for variant in variants("DOMINO")]
[('NONE', False), ('RIGHT', False)]
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]

COLORS: tuple[str, ...] = ("BLUE", "YELLOW", "RED", "GREEN")
TEAMS: tuple[str, ...] = ("ONE", "TWO")
ROTATIONS: tuple[str, ...] = ("NONE", "RIGHT", "MIRROR", "LEFT")

# Enum order of the official `PieceShape`; the XML shape lists use this order too.
CANONICAL: dict[str, tuple[Cell, ...]] = {
    "MONO": ((0, 0),),
    "DOMINO": ((0, 0), (1, 0)),
    "TRIO_L": ((0, 0), (0, 1), (1, 1)),
    "TRIO_I": ((0, 0), (0, 1), (0, 2)),
    "TETRO_O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "TETRO_T": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "TETRO_I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "TETRO_L": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "TETRO_Z": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "PENTO_L": ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3)),
    "PENTO_T": ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "PENTO_V": ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2)),
    "PENTO_S": ((1, 0), (2, 0), (3, 0), (0, 1), (1, 1)),
    "PENTO_Z": ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)),
    "PENTO_I": ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)),
    "PENTO_P": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "PENTO_W": ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2)),
    "PENTO_U": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 0)),
    "PENTO_R": ((0, 1), (1, 1), (1, 2), (2, 1), (2, 0)),
    "PENTO_X": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "PENTO_Y": ((0, 1), (1, 0), (1, 1), (1, 2), (1, 3)),
}

SHAPES: tuple[str, ...] = tuple(CANONICAL)
SHAPE_INDEX: dict[str, int] = {name: index for index, name in enumerate(SHAPES)}
SHAPE_SIZE: dict[str, int] = {name: len(cells) for name, cells in CANONICAL.items()}
PENTOMINOES: tuple[str, ...] = tuple(name for name in SHAPES if SHAPE_SIZE[name] == 5)
COLOR_INDEX: dict[str, int] = {name: index for index, name in enumerate(COLORS)}
ROTATION_INDEX: dict[str, int] = {name: index for index, name in enumerate(ROTATIONS)}
# Every colour owns one of each shape: 1 + 2 + 2*3 + 5*4 + 12*5.
TOTAL_SQUARES = sum(SHAPE_SIZE.values())


def team_of(color: str) -> str:
    """The team playing `color`: BLUE and RED are team ONE, YELLOW and GREEN team TWO.

    >>> team_of("RED")
    'ONE'
    """
    return TEAMS[COLOR_INDEX[color] % 2]


def rotation_sum(first: str, second: str) -> str:
    """The rotation equal to `first` followed by `second` (quarter turns add up).

    >>> rotation_sum("LEFT", "LEFT")
    'MIRROR'
    """
    return ROTATIONS[(ROTATION_INDEX[first] + ROTATION_INDEX[second]) % 4]


def align(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Shift `cells` so that the bounding box starts at (0, 0); keeps the order."""
    cells = tuple(cells)
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return tuple((x - min_x, y - min_y) for x, y in cells)


def rotate(cells: Iterable[Cell], rotation: str) -> tuple[Cell, ...]:
    """Rotate clockwise on screen (y grows downwards) and align, as the official code does.

    MIRROR is the half turn, not a reflection, despite its name.
    """
    if rotation == "NONE":
        turned = tuple(cells)
    elif rotation == "RIGHT":
        turned = tuple((-y, x) for x, y in cells)
    elif rotation == "MIRROR":
        turned = tuple((-x, -y) for x, y in cells)
    elif rotation == "LEFT":
        turned = tuple((y, -x) for x, y in cells)
    else:
        raise ValueError(f"unknown rotation {rotation!r}")
    return align(turned)


def flip(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Mirror left to right (on the vertical axis) and align."""
    return align((-x, y) for x, y in cells)


def transform(kind: str, rotation: str = "NONE", flipped: bool = False) -> tuple[Cell, ...]:
    """The cells of `kind` rotated, then flipped if asked, each step aligned to (0, 0).

    This is the official order: rotation first, the flip after it.

    >>> sorted(transform("TETRO_L", "RIGHT"))
    [(0, 0), (0, 1), (1, 0), (2, 0)]
    """
    cells = rotate(CANONICAL[kind], rotation)
    return flip(cells) if flipped else cells


def variants(kind: str) -> tuple[tuple[str, bool, frozenset[Cell]], ...]:
    """The distinct orientations of `kind` as (rotation, flipped, cells).

    Candidates are tried rotation by rotation, unflipped before flipped (the order of the
    official `PieceShape.variants`); the first transform giving a cell set wins.

    >>> [(rotation, flipped) for rotation, flipped, _ in variants("TRIO_L")]
    [('NONE', False), ('NONE', True), ('RIGHT', False), ('RIGHT', True)]
    """
    seen: dict[frozenset[Cell], tuple[str, bool]] = {}
    for rotation in ROTATIONS:
        for flipped in (False, True):
            cells = frozenset(transform(kind, rotation, flipped))
            seen.setdefault(cells, (rotation, flipped))
    return tuple((rotation, flipped, cells) for cells, (rotation, flipped) in seen.items())


def _java_bucket(cell: Cell) -> int:
    """The bucket of `cell` in a fresh java.util.HashSet (16 buckets).

    The official `Coordinates` is a Kotlin data class, so its hash is `31 * x + y` as a
    32-bit int, which HashMap spreads with `h ^ (h >>> 16)` before masking.
    """
    h = (31 * cell[0] + cell[1]) & 0xFFFFFFFF
    return (h ^ (h >> 16)) & 15


def _java_hash_set(cells: Iterable[Cell]) -> list[Cell]:
    """The iteration order of a java.util.HashSet filled with `cells` in this order.

    Buckets come in index order; within a bucket, entries keep their insertion order.
    """
    unique = list(dict.fromkeys(cells))
    return sorted(unique, key=_java_bucket)


def _java_align(cells: Iterable[Cell]) -> list[Cell]:
    cells = list(cells)
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return _java_hash_set((x - min_x, y - min_y) for x, y in cells)


def official_cell_order(kind: str, rotation: str, flipped: bool, x: int, y: int) -> list[Cell]:
    """The board cells of a placement in the order the official server checks them.

    The official code builds every intermediate shape as a `java.util.HashSet`, so when
    several cells of one move are wrong, the mistake reported is the first cell's in this
    order. Replaying the same set operations gives the same order.

    >>> official_cell_order("DOMINO", "NONE", False, 3, 4)
    [(4, 4), (3, 4)]
    """
    cells = _java_align(CANONICAL[kind])
    if rotation == "RIGHT":
        cells = _java_align(_java_hash_set((-cy, cx) for cx, cy in cells))
    elif rotation == "MIRROR":
        cells = _java_align(_java_hash_set((-cx, -cy) for cx, cy in cells))
    elif rotation == "LEFT":
        cells = _java_align(_java_hash_set((cy, -cx) for cx, cy in cells))
    if flipped:
        cells = _java_align([(-cx, cy) for cx, cy in cells])
    return _java_hash_set((x + cx, y + cy) for cx, cy in cells)
