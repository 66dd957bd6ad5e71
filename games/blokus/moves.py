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

from typing import Any

from games.blokus.shapes import COLOR_INDEX, ROTATION_INDEX, SHAPE_INDEX, Cell, transform

# Positions further away than this can never be legal; refusing them keeps garbage
# input (huge ints from a peer) from costing anything.
_MAX_COORDINATE = 1_000_000


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


class SetMove:
    """Place `kind` of `color`, rotated then flipped, with its bounding box's top-left at (x, y).

    Immutable and hashable. `cells` may lie off the board (such a move is illegal).

    >>> SetMove("BLUE", "PENTO_U", x=17, y=0)
    SetMove('BLUE', 'PENTO_U', rotation='NONE', flipped=False, x=17, y=0)
    """

    __slots__ = ("_cells", "_hash", "color", "flipped", "kind", "rotation", "x", "y")

    color: str
    kind: str
    rotation: str
    flipped: bool
    x: int
    y: int
    _cells: frozenset[Cell] | None
    _hash: int | None

    def __init__(
        self,
        color: str,
        kind: str,
        rotation: str = "NONE",
        flipped: bool = False,
        x: int = 0,
        y: int = 0,
    ) -> None:
        _check_color(color)
        if not isinstance(kind, str) or kind not in SHAPE_INDEX:
            raise ValueError(f"unknown shape {kind!r}")
        if not isinstance(rotation, str) or rotation not in ROTATION_INDEX:
            raise ValueError(f"unknown rotation {rotation!r}")
        if not isinstance(flipped, bool):
            raise TypeError(f"flipped must be a bool, not {type(flipped).__name__}")
        _check_coordinate("x", x)
        _check_coordinate("y", y)
        self._init(color, kind, rotation, flipped, x, y, None)

    def _init(
        self,
        color: str,
        kind: str,
        rotation: str,
        flipped: bool,
        x: int,
        y: int,
        cells: frozenset[Cell] | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "color", color)
        setter(self, "kind", kind)
        setter(self, "rotation", rotation)
        setter(self, "flipped", flipped)
        setter(self, "x", x)
        setter(self, "y", y)
        setter(self, "_cells", cells)
        setter(self, "_hash", None)

    @classmethod
    def _trusted(
        cls,
        color: str,
        kind: str,
        rotation: str,
        flipped: bool,
        x: int,
        y: int,
        cells: frozenset[Cell] | None = None,
    ) -> SetMove:
        """Build without checking the arguments (for the engine's own move tables)."""
        move = cls.__new__(cls)
        move._init(color, kind, rotation, flipped, x, y, cells)
        return move

    @property
    def cells(self) -> frozenset[Cell]:
        """The board cells this placement covers."""
        cells = self._cells
        if cells is None:
            x, y = self.x, self.y
            cells = frozenset(
                (x + dx, y + dy) for dx, dy in transform(self.kind, self.rotation, self.flipped)
            )
            object.__setattr__(self, "_cells", cells)
        return cells

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, SetMove):
            return self.color == other.color and self.cells == other.cells
        return NotImplemented

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash((self.color, self.cells))
            object.__setattr__(self, "_hash", value)
        return value

    def __repr__(self) -> str:
        return (
            f"SetMove({self.color!r}, {self.kind!r}, rotation={self.rotation!r}, "
            f"flipped={self.flipped!r}, x={self.x!r}, y={self.y!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (SetMove, (self.color, self.kind, self.rotation, self.flipped, self.x, self.y))


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
