"""Moves: placing a piece (`SetMove`) or passing (`SkipMove`).

Two placements are equal when they have the same colour and cover the same cells, however
they were rotated or flipped, exactly as the official `SetMove`/`Piece` equality.

>>> a = SetMove("BLUE", "DOMINO", x=3, y=4)
>>> b = SetMove("BLUE", "DOMINO", rotation="MIRROR", flipped=True, x=3, y=4)
>>> a == b, sorted(a.cells)
(True, [(3, 4), (4, 4)])
>>> SkipMove("RED").cells
frozenset()
"""

from __future__ import annotations

import functools
from operator import itemgetter
from typing import Any

from games.blokus.bitboard import SIZE, STRIDE, cells_to_mask, mask_to_cells
from games.blokus.shapes import COLOR_INDEX, ROTATION_INDEX, SHAPE_INDEX, Cell, transform

# Positions further away than this can never be legal; refusing them keeps garbage
# input (huge ints from a peer) from costing anything.
_MAX_COORDINATE = 1_000_000


@functools.cache
def _at_origin(kind: str, rotation: str, flipped: bool) -> tuple[int, int, int]:
    """The mask of `kind` so transformed and placed at (0, 0), its width and height (a
    move is built for every move a bot sends: the transform is worked out once)."""
    cells = transform(kind, rotation, flipped)
    mask = cells_to_mask(cells)
    assert mask is not None, "an aligned shape fits the board"
    return (mask, 1 + max(x for x, _ in cells), 1 + max(y for _, y in cells))


def _check_color(color: object) -> str:
    if not isinstance(color, str) or color not in COLOR_INDEX:
        raise ValueError(f"unknown colour {color!r}")
    return color


def _check_coordinate(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not -_MAX_COORDINATE <= value <= _MAX_COORDINATE:
        raise ValueError(f"{name}={value} is out of range")
    return value


class SetMove(tuple[Any, ...]):
    """Place `kind` of `color`, rotated then flipped, with its bounding box's top-left at (x, y).

    Immutable and hashable. `cells` may lie off the board (such a move is illegal).
    Equality and hash go by (colour, cells), as the official code does; the rotation,
    flip and position that spell a placement do not matter.

    >>> SetMove("BLUE", "PENTO_U", x=17, y=0)
    SetMove('BLUE', 'PENTO_U', rotation='NONE', flipped=False, x=17, y=0)
    """

    # A tuple underneath: (colour, kind, rotation, flipped, x, y, board mask), with the
    # bitboard of the cells in the games.blokus.tables layout (-1 when a cell lies off the
    # board). Moves are made by the hundred thousand in searches, and a tuple is the
    # cheapest immutable object Python builds.
    __slots__ = ()

    # The fields are itemgetter properties (read in C); mypy would call each a `property`,
    # so each ignore declares the type a read returns instead.
    color: str = property(itemgetter(0))  # type: ignore[assignment]  # read as its value
    kind: str = property(itemgetter(1))  # type: ignore[assignment]  # read as its value
    rotation: str = property(itemgetter(2))  # type: ignore[assignment]  # read as its value
    flipped: bool = property(itemgetter(3))  # type: ignore[assignment]  # read as its value
    x: int = property(itemgetter(4))  # type: ignore[assignment]  # read as its value
    y: int = property(itemgetter(5))  # type: ignore[assignment]  # read as its value

    def __new__(
        cls,
        color: str,
        kind: str,
        rotation: str = "NONE",
        flipped: bool = False,
        x: int = 0,
        y: int = 0,
    ) -> SetMove:
        _check_color(color)
        if not isinstance(kind, str) or kind not in SHAPE_INDEX:
            raise ValueError(f"unknown shape {kind!r}")
        if not isinstance(rotation, str) or rotation not in ROTATION_INDEX:
            raise ValueError(f"unknown rotation {rotation!r}")
        if not isinstance(flipped, bool):
            raise TypeError(f"flipped must be a bool, not {type(flipped).__name__}")
        _check_coordinate("x", x)
        _check_coordinate("y", y)
        origin, width, height = _at_origin(kind, rotation, flipped)
        # The shape is aligned to (0, 0): it is on the board iff its bounding box is.
        on_board = 0 <= x <= SIZE - width and 0 <= y <= SIZE - height
        mask = origin << (y * STRIDE + x) if on_board else -1
        return _new_tuple(cls, (color, kind, rotation, flipped, x, y, mask))

    @classmethod
    def _trusted(
        cls, color: str, kind: str, rotation: str, flipped: bool, x: int, y: int, mask: int
    ) -> SetMove:
        """Build without checking the arguments (for the engine's own move tables)."""
        return _new_tuple(cls, (color, kind, rotation, flipped, x, y, mask))

    @property
    def mask(self) -> int:
        """The cells as a bitboard (`games.blokus.bitboard`), or -1 if one is off the board.

        >>> SetMove("BLUE", "DOMINO", x=0, y=0).mask == 0b11, SetMove("RED", "MONO", x=20).mask
        (True, -1)
        """
        mask: int = self[6]
        return mask

    @property
    def cells(self) -> frozenset[Cell]:
        """The board cells this placement covers."""
        mask = self[6]
        if mask >= 0:
            return _cells_on_board(mask)
        x, y = self[4], self[5]
        return frozenset((x + dx, y + dy) for dx, dy in transform(self[1], self[2], self[3]))

    def _board_mask(self) -> int:
        """The bitboard of the cells, or -1 if a cell lies off the board."""
        mask: int = self[6]
        return mask

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if not isinstance(other, SetMove):
            return NotImplemented
        if self[0] != other[0]:
            return False
        mine, theirs = self[6], other[6]
        if mine >= 0 or theirs >= 0:
            # On the board the bitboard is the cell set.
            return bool(mine == theirs)
        return self.cells == other.cells

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        mask = self[6]
        if mask >= 0:
            return hash((self[0], mask))
        return hash((self[0], self.cells))

    def __repr__(self) -> str:
        return (
            f"SetMove({self[0]!r}, {self[1]!r}, rotation={self[2]!r}, "
            f"flipped={self[3]!r}, x={self[4]!r}, y={self[5]!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (SetMove, tuple(self[:6]))


_new_tuple = tuple.__new__
# There are 30,433 placements on the board: remembering all their cell sets is cheap.
_cells_on_board = functools.lru_cache(maxsize=1 << 15)(mask_to_cells)


class SkipMove:
    """Pass with `color` (allowed on every move of a colour except its first).

    >>> SkipMove("BLUE") == SkipMove("BLUE")
    True
    """

    __slots__ = ("color",)

    color: str
    cells: frozenset[Cell] = frozenset()

    def __init__(self, color: str) -> None:
        object.__setattr__(self, "color", _check_color(color))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SkipMove is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("SkipMove is immutable")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SkipMove):
            return self.color == other.color
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("SkipMove", self.color))

    def __repr__(self) -> str:
        return f"SkipMove({self.color!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (SkipMove, (self.color,))


Move = SetMove | SkipMove
