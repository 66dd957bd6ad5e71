"""The Blokus (``swc_2027_blokus``) part of the SC codec: moves and the memento state.

Moves are the engine's ``SetMove``/``SkipMove``; the memento state is parsed into an
engine ``State`` through ``State.from_snapshot``. The XML layout is the official
server's (``ConverterTest`` of the 2027 plugin): attribute order ``class startTeam turn
startPiece round``, then ``lastMove`` (omitted before the first move), ``board`` (only
occupied fields, y-major, ``<board/>`` when empty), ``lastMoveMono``, the four shape lists
in enum order (``<blueShapes/>`` when empty) and ``validColors``.

>>> from protocols.sc.xmltree import render
>>> print(render(move_node("lastMove", SkipMove("BLUE"))))
<lastMove class="sc.plugin2027.SkipMove">
  <color>BLUE</color>
</lastMove>
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from lxml import etree

from games.blokus import COLORS, ROTATIONS, SHAPES, TEAMS, SetMove, SkipMove
from protocols.base import ProtocolError
from protocols.sc.xmltree import Node

if TYPE_CHECKING:
    from games.blokus import State

__all__ = [
    "MOVE_CLASSES",
    "SET_MOVE_CLASS",
    "SKIP_MOVE_CLASS",
    "move_from_element",
    "move_node",
    "parse_bool",
    "parse_int",
    "state_from_element",
    "state_key",
    "state_node",
    "state_text",
]

SET_MOVE_CLASS = "sc.plugin2027.SetMove"
SKIP_MOVE_CLASS = "sc.plugin2027.SkipMove"

# The official server only resolves the fully-qualified names (the `@XStreamAlias`es are
# never registered); we also accept the aliases and the bare class names.
MOVE_CLASSES: dict[str, str] = {
    SET_MOVE_CLASS: "set",
    "setmove": "set",
    "SetMove": "set",
    SKIP_MOVE_CLASS: "skip",
    "skipmove": "skip",
    "SkipMove": "skip",
}

# The memento's shape lists, in writing order.
_SHAPE_LISTS = (
    ("blueShapes", "BLUE"),
    ("yellowShapes", "YELLOW"),
    ("redShapes", "RED"),
    ("greenShapes", "GREEN"),
)
_COLOR_SET = frozenset(COLORS)
SHAPE_INDEX = {name: index for index, name in enumerate(SHAPES)}
_SHAPE_SET = frozenset(SHAPES)
_ROTATION_SET = frozenset(ROTATIONS)
_BOARD_SIZE = 20
# A Java int: what the official server can parse at all.
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_JAVA_INT_TEXT = re.compile(r"[+-]?[0-9]{1,10}")


# --- small parsing helpers shared with the generic codec -------------------------------


def children(element: etree._Element) -> list[etree._Element]:
    """Child elements only (comments and PIs are removed by the parser anyway)."""
    return [child for child in element if isinstance(child.tag, str)]


def require(element: etree._Element, name: str) -> str:
    """A required attribute."""
    value = element.get(name)
    if value is None:
        raise ProtocolError(f"<{element.tag}> lacks the attribute {name}")
    return value


def parse_bool(value: str, what: str) -> bool:
    """XStream's boolean: ``true``/``false`` (we also accept surrounding blanks)."""
    text = value.strip()
    if text == "true":
        return True
    if text == "false":
        return False
    raise ProtocolError(f"{what} must be true or false, not {value[:40]!r}")


def parse_int(value: str, what: str) -> int:
    """A decimal Java ``int``."""
    if len(value) < 10 and value.isdigit() and value.isascii():
        return int(value)  # the common case: a small non-negative number
    text = value.strip()
    if _JAVA_INT_TEXT.fullmatch(text) is None:
        raise ProtocolError(f"{what} must be an integer, not {value[:40]!r}")
    number = int(text)
    if not _INT_MIN <= number <= _INT_MAX:
        raise ProtocolError(f"{what} is out of range: {value[:40]!r}")
    return number


def element_text(element: etree._Element) -> str:
    """The text of a leaf element such as ``<color>BLUE</color>``."""
    if children(element):
        raise ProtocolError(f"<{element.tag}> must contain text only")
    return (element.text or "").strip()


def _enum(value: str, allowed: frozenset[str], what: str) -> str:
    text = value.strip()
    if text not in allowed:
        raise ProtocolError(f"unknown {what} {value[:40]!r}")
    return text


def _only_children(element: etree._Element, allowed: Iterable[str]) -> dict[str, etree._Element]:
    """Map of child tag -> element; unknown or repeated children are protocol errors."""
    allowed_set = frozenset(allowed)
    found: dict[str, etree._Element] = {}
    for child in children(element):
        if child.tag not in allowed_set:
            raise ProtocolError(f"unknown element <{child.tag}> in <{element.tag}>")
        if child.tag in found:
            raise ProtocolError(f"repeated element <{child.tag}> in <{element.tag}>")
        found[child.tag] = child
    return found


# --- moves -------------------------------------------------------------------------------


def move_node(tag: str, move: SetMove | SkipMove) -> Node:
    """``<tag class="sc.plugin2027.SetMove"><piece ...><position .../></piece></tag>``."""
    if isinstance(move, SkipMove):
        return Node(tag, [("class", SKIP_MOVE_CLASS)], [Node("color", text=move.color)])
    piece = Node(
        "piece",
        [
            ("color", move.color),
            ("kind", move.kind),
            ("rotation", move.rotation),
            ("isFlipped", "true" if move.flipped else "false"),
        ],
        [Node("position", [("x", str(move.x)), ("y", str(move.y))])],
    )
    return Node(tag, [("class", SET_MOVE_CLASS)], [piece])


def move_from_element(element: etree._Element, kind: str) -> SetMove | SkipMove:
    """Parse the body of a move element whose class resolved to ``kind`` (set/skip)."""
    if kind == "skip":
        parts = _only_children(element, ("color",))
        if "color" not in parts:
            raise ProtocolError("SkipMove without <color>")
        return SkipMove(_enum(element_text(parts["color"]), _COLOR_SET, "colour"))
    parts = _only_children(element, ("piece",))
    piece = parts.get("piece")
    if piece is None:
        raise ProtocolError("SetMove without <piece>")
    color = _enum(require(piece, "color"), _COLOR_SET, "colour")
    shape = _enum(require(piece, "kind"), _SHAPE_SET, "shape")
    # Tolerance: a missing rotation or isFlipped means the default (NONE, false).
    rotation = _enum(piece.get("rotation", "NONE"), _ROTATION_SET, "rotation")
    flipped = parse_bool(piece.get("isFlipped", "false"), "isFlipped")
    position = _only_children(piece, ("position",)).get("position")
    if position is None:
        raise ProtocolError("<piece> without <position>")
    if children(position):
        raise ProtocolError("<position> must be empty")
    x = parse_int(require(position, "x"), "x")
    y = parse_int(require(position, "y"), "y")
    try:
        return SetMove(color, shape, rotation=rotation, flipped=flipped, x=x, y=y)
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"bad SetMove: {exc}") from None


def move_class_kind(class_name: str | None) -> str | None:
    """``set``/``skip`` for a move class attribute, None for anything else."""
    if class_name is None:
        return None
    return MOVE_CLASSES.get(class_name.strip())


# --- the memento state -------------------------------------------------------------------


_FIELD_LEAVES: dict[tuple[int, int, str], Node] = {}
_SHAPE_LEAVES: dict[str, Node] = {}


def _field_leaf(x: int, y: int, color: str) -> Node:
    leaf = _FIELD_LEAVES.get((x, y, color))
    if leaf is None:
        # Bounded: at most 20 x 20 x 4 distinct fields ever reach the writer from the engine.
        leaf = Node.leaf("field", [("x", str(x)), ("y", str(y)), ("content", str(color))])
        if len(_FIELD_LEAVES) < 4096:
            _FIELD_LEAVES[(x, y, color)] = leaf
    return leaf


def _shape_leaf(shape: str) -> Node:
    leaf = _SHAPE_LEAVES.get(shape)
    if leaf is None:
        leaf = Node.leaf("shape", text=shape)
        if len(_SHAPE_LEAVES) < 64:
            _SHAPE_LEAVES[shape] = leaf
    return leaf


def state_node(state: State) -> Node:
    """``<state class="state" startTeam="ONE" turn=".." startPiece=".." round="..">``."""
    turn = int(state.turn)
    attrs = [
        ("class", "state"),
        ("startTeam", TEAMS[0]),
        ("turn", str(turn)),
        ("startPiece", str(state.start_piece)),
        ("round", str(1 + turn // 4)),
    ]
    body: list[Node] = []
    if state.last_move is not None:
        body.append(move_node("lastMove", state.last_move))
    fields = sorted(state.fields(), key=lambda field: (field[1], field[0]))
    body.append(
        Node(
            "board",
            children=[_field_leaf(x, y, color) for x, y, color in fields],
        )
    )
    mono = _mono_map(state)
    body.append(
        Node(
            "lastMoveMono",
            children=[
                Node(
                    "entry",
                    children=[
                        Node("color", text=color),
                        Node("boolean", text="true" if mono[color] else "false"),
                    ],
                )
                for color in COLORS
                if color in mono
            ],
        )
    )
    for tag, color in _SHAPE_LISTS:
        shapes = sorted(state.undeployed(color), key=SHAPE_INDEX.__getitem__)
        body.append(Node(tag, children=[_shape_leaf(shape) for shape in shapes]))
    body.append(
        Node("validColors", children=[Node("color", text=color) for color in state.valid_colors])
    )
    return Node("state", attrs, body)


def _mono_map(state: State) -> Mapping[str, bool]:
    mono = state.last_move_mono
    return mono if mono is not None else {}


_STATE_CHILDREN = (
    "lastMove",
    "board",
    "lastMoveMono",
    *(tag for tag, _ in _SHAPE_LISTS),
    "validColors",
)


_SMALL_INTS = {str(number): number for number in range(_BOARD_SIZE)}


def _leaf_enum(element: etree._Element, allowed: frozenset[str], what: str) -> str:
    text = element.text
    if text in allowed and len(element) == 0:
        return text  # the common, exact case
    return _enum(element_text(element), allowed, what)


def _board_fields(board: etree._Element) -> list[tuple[int, int, str]]:
    """The ``<field>``s of a ``<board>`` (a hot loop: up to 400 fields per memento).

    Duplicates are refused by ``State.from_snapshot``.
    """
    fields: list[tuple[int, int, str]] = []
    small = _SMALL_INTS.get
    for field in board:
        if field.tag != "field":
            raise ProtocolError(f"unknown element <{field.tag}> in <board>")
        get = field.get
        # A missing attribute (None) simply misses the table, like any other bad text.
        x = small(get("x"))  # type: ignore[arg-type]  # None is a fine key to miss
        y = small(get("y"))  # type: ignore[arg-type]  # (see above)
        content = get("content")
        if x is None or y is None or content not in _COLOR_SET or len(field):
            # The slow path finds out what exactly is wrong (or tolerates blanks).
            if len(field):
                raise ProtocolError("<field> must be empty")
            x = parse_int(require(field, "x"), "x")
            y = parse_int(require(field, "y"), "y")
            if not (0 <= x < _BOARD_SIZE and 0 <= y < _BOARD_SIZE):
                raise ProtocolError(f"field off the board: ({x}, {y})")
            content = _enum(require(field, "content"), _COLOR_SET, "colour")
        fields.append((x, y, content))
    return fields


def state_from_element(element: etree._Element) -> State:
    """Parse ``<state class="state" ...>`` into an engine ``State``."""
    from games.blokus import State

    turn = parse_int(require(element, "turn"), "turn")
    if not 0 <= turn <= 10_000:
        raise ProtocolError(f"turn out of range: {turn}")
    start_piece = _enum(require(element, "startPiece"), _SHAPE_SET, "shape")
    parts = _only_children(element, _STATE_CHILDREN)
    last_move = None
    if "lastMove" in parts:
        kind = move_class_kind(parts["lastMove"].get("class"))
        if kind is None:
            raise ProtocolError("lastMove of an unknown class")
        last_move = move_from_element(parts["lastMove"], kind)
    board = parts.get("board")
    if board is None:
        raise ProtocolError("<state> without <board>")
    fields = _board_fields(board)
    mono: dict[str, bool] = {}
    if "lastMoveMono" in parts:
        for entry in children(parts["lastMoveMono"]):
            if entry.tag != "entry":
                raise ProtocolError(f"unknown element <{entry.tag}> in <lastMoveMono>")
            items = children(entry)
            if len(items) != 2 or items[1].tag != "boolean":
                raise ProtocolError("bad <lastMoveMono> entry")
            color = _enum(element_text(items[0]), _COLOR_SET, "colour")
            mono[color] = parse_bool(element_text(items[1]), "boolean")
    undeployed: dict[str, tuple[str, ...]] = {}
    for tag, color in _SHAPE_LISTS:
        shapes: list[str] = []
        if tag in parts:
            for shape in children(parts[tag]):
                if shape.tag != "shape":
                    raise ProtocolError(f"unknown element <{shape.tag}> in <{tag}>")
                shapes.append(_leaf_enum(shape, _SHAPE_SET, "shape"))
        if len(set(shapes)) != len(shapes):
            raise ProtocolError(f"repeated shape in <{tag}>")
        undeployed[color] = tuple(shapes)
    valid: list[str] = []
    if "validColors" in parts:
        for color_element in children(parts["validColors"]):
            if color_element.tag != "color":
                raise ProtocolError(f"unknown element <{color_element.tag}> in <validColors>")
            valid.append(_leaf_enum(color_element, _COLOR_SET, "colour"))
    if len(set(valid)) != len(valid):
        raise ProtocolError("repeated colour in <validColors>")
    try:
        return State.from_snapshot(
            turn=turn,
            start_piece=start_piece,
            fields=fields,
            undeployed=undeployed,
            valid_colors=valid,
            last_move=last_move,
            last_move_mono=mono,
        )
    except (TypeError, ValueError, KeyError) as exc:
        raise ProtocolError(f"inconsistent state: {exc}") from None


def state_key(state: Any) -> tuple[Any, ...]:
    """Everything of a state that the memento carries, as a comparable tuple."""
    last = state.last_move
    if isinstance(last, SetMove):
        last_key: tuple[Any, ...] = (
            "set",
            last.color,
            last.kind,
            last.rotation,
            last.flipped,
            last.x,
            last.y,
        )
    elif isinstance(last, SkipMove):
        last_key = ("skip", last.color)
    else:
        last_key = ()
    mono = _mono_map(state)
    return (
        int(state.turn),
        str(state.start_piece),
        last_key,
        tuple(sorted(state.fields(), key=lambda field: (field[1], field[0]))),
        tuple(sorted(mono.items())),
        tuple(
            tuple(sorted(state.undeployed(color), key=SHAPE_INDEX.__getitem__)) for color in COLORS
        ),
        tuple(state.valid_colors),
    )


# --- the memento state, written straight from the engine's bitboards ---------------------
#
# `state_text(state, level)` is `render(state_node(state), level)` without building nodes:
# the board is written row by row from the colours' bitboards, each row's text cached by
# its contents, and the other parts cached by their (small) values. It is the server's
# hottest writer (one memento per move); `tests/protocols/sc` checks it byte for byte
# against `state_node` over whole games.

_STRIDE = _BOARD_SIZE + 1  # games.blokus.bitboard layout: one padding bit per row
_ROW_MASK = (1 << _BOARD_SIZE) - 1
_CACHE_LIMIT = 8192
_ROW_TEXT: dict[tuple[int, int], str] = {}  # (row key, level) -> text
_PART_TEXT: dict[tuple[Any, ...], str] = {}
# Boards seen last (level and the four colours' bitboards -> row texts): one per live game
# is what `_board_rows` needs.
_BOARD_LIMIT = 4096
_BOARD_ROWS: dict[tuple[int, ...], list[str]] = {}


def _indent(level: int) -> str:
    return "\n" + "  " * level


def _row_text(key: int, level: int) -> str:
    """The ``<field>`` lines of one board row; `key` packs the row number (5 bits) and
    each colour's 20 bits of that row, in colour order (see `state_text`).

    Runs for every row a move changes (about two a move, each new to the cache): it visits
    the row's occupied cells only, each line written once per (row, level).
    """
    y = key & 31
    c0, c1, c2, c3 = (key >> 5 & _ROW_MASK, key >> 25 & _ROW_MASK, key >> 45 & _ROW_MASK,
                      key >> 65 & _ROW_MASK)
    first, second, third, fourth = _field_lines(y, level)
    occupied = c0 | c1 | c2 | c3
    parts = []
    while occupied:
        low = occupied & -occupied
        x = low.bit_length() - 1
        parts.append(first[x] if c0 & low else second[x] if c1 & low
                     else third[x] if c2 & low else fourth[x])
        occupied ^= low
    text = "".join(parts)
    if len(_ROW_TEXT) >= _CACHE_LIMIT:
        _ROW_TEXT.clear()  # bounded; the live games' rows come back at once
    _ROW_TEXT[(key, level)] = text
    return text


@functools.cache
def _field_lines(y: int, level: int) -> tuple[tuple[str, ...], ...]:
    """Row `y`'s ``<field>`` lines at `level`, by colour index, then x."""
    inner = _indent(level)
    return tuple(tuple(f'{inner}<field x="{x}" y="{y}" content="{color}"/>'
                       for x in range(_BOARD_SIZE)) for color in COLORS)


def _board_rows(state: State, level: int) -> list[str]:
    """The board's row texts (empty for an empty row), kept by the four bitboards.

    Consecutive mementos of a game differ by one piece: the previous state's rows are
    found by taking the last move off its colour's board, and only the rows the piece
    covers are written again.
    """
    # The engine's own bitboards when it has them (the same values, no call per colour).
    own = getattr(state, "_boards", None)
    boards = tuple(own) if own is not None else tuple(state.board(color) for color in COLORS)
    key = (level, *boards)
    rows = _BOARD_ROWS.get(key)
    if rows is not None:
        return rows
    last = state.last_move
    before = None
    if isinstance(last, SetMove) and last.mask > 0:
        index = COLORS.index(last.color)
        previous = list(boards)
        previous[index] &= ~last.mask
        before = _BOARD_ROWS.get((level, *previous))
    if before is None:
        changed: Iterable[int] = range(_BOARD_SIZE)
        rows = [""] * _BOARD_SIZE
    else:
        mask = last.mask  # type: ignore[union-attr]  # a SetMove, as `before` was found
        changed = range((mask & -mask).bit_length() // _STRIDE,
                        (mask.bit_length() - 1) // _STRIDE + 1)
        rows = list(before)
    b0, b1, b2, b3 = boards
    occupied = b0 | b1 | b2 | b3
    get = _ROW_TEXT.get
    row_mask = _ROW_MASK
    for y in changed:
        shift = y * _STRIDE
        if (occupied >> shift) & row_mask:
            row = (y | ((b0 >> shift) & row_mask) << 5 | ((b1 >> shift) & row_mask) << 25
                   | ((b2 >> shift) & row_mask) << 45 | ((b3 >> shift) & row_mask) << 65)
            text = get((row, level))
            rows[y] = text if text is not None else _row_text(row, level)
    if len(_BOARD_ROWS) >= _BOARD_LIMIT:
        _BOARD_ROWS.clear()  # bounded; each live game is back after one full write
    _BOARD_ROWS[key] = rows
    return rows


def _part_text(key: tuple[Any, ...], node: Any, level: int) -> str:
    """A small part of the state (mono map, valid colours), rendered once."""
    text = _PART_TEXT.get(key)
    if text is None:
        from protocols.sc.xmltree import render

        text = _remember(key, _indent(level) + render(node(), level))
    return text


def _remember(key: tuple[Any, ...], text: str) -> str:
    """Keep a part's text (bounded: the live games' parts come back at once)."""
    if len(_PART_TEXT) >= _CACHE_LIMIT:
        _PART_TEXT.clear()
    _PART_TEXT[key] = text
    return text


def _shape_names(state: State, color: str, shapes: Any) -> list[str]:
    """`color`'s undeployed shapes in enum order; `shapes` is the engine's bitmask of
    them (bit i: `SHAPES[i]`) or already their names."""
    if not isinstance(shapes, int):
        return sorted(state.undeployed(color), key=SHAPE_INDEX.__getitem__)
    names = []
    while shapes:
        low = shapes & -shapes
        names.append(SHAPES[low.bit_length() - 1])
        shapes ^= low
    return names


def _shape_list_text(key: tuple[Any, ...], shapes: list[str], level: int) -> str:
    """A colour's ``<...Shapes>`` list at `level`, kept under `key` like the other parts
    (one changes with every move: written directly, not through a node tree)."""
    tag, inner = key[0], _indent(level + 1)
    if shapes:
        text = (f"{_indent(level)}<{tag}>"
                + "".join([f"{inner}<shape>{shape}</shape>" for shape in shapes])
                + f"{_indent(level)}</{tag}>")
    else:
        text = f"{_indent(level)}<{tag}/>"
    return _remember(key, text)


def _move_text(move: SetMove | SkipMove, level: int) -> str:
    inner, deeper = _indent(level + 1), _indent(level + 2)
    if isinstance(move, SkipMove):
        return (f'<lastMove class="{SKIP_MOVE_CLASS}">{inner}<color>{move.color}</color>'
                f"{_indent(level)}</lastMove>")
    return (
        f'<lastMove class="{SET_MOVE_CLASS}">{inner}<piece color="{move.color}" '
        f'kind="{move.kind}" rotation="{move.rotation}" '
        f'isFlipped="{"true" if move.flipped else "false"}">{deeper}<position x="{move.x}" '
        f'y="{move.y}"/>{inner}</piece>{_indent(level)}</lastMove>'
    )


def state_text(state: State, level: int = 0) -> str:
    """``render(state_node(state), level)``, written from the engine's bitboards.

    >>> from games.blokus import new_game
    >>> from protocols.sc.xmltree import render
    >>> state = new_game("PENTO_L"); state.apply(SetMove("BLUE", "PENTO_L", x=0, y=0))
    >>> state_text(state, 3) == render(state_node(state), 3)
    True
    """
    turn = int(state.turn)
    child = _indent(level + 1)
    parts = [
        f'<state class="state" startTeam="{TEAMS[0]}" turn="{turn}" '
        f'startPiece="{state.start_piece}" round="{1 + turn // 4}">'
    ]
    last = state.last_move
    if last is not None:
        parts.append(child)
        parts.append(_move_text(last, level + 1))
    parts.append(child)
    if state.occupied:
        parts.append("<board>")
        parts.extend(_board_rows(state, level + 2))
        parts.append(child + "</board>")
    else:
        parts.append("<board/>")
    mono = _mono_map(state)
    mono_key = tuple((color, mono[color]) for color in COLORS if color in mono)
    parts.append(_part_text(("mono", level, mono_key), lambda: Node(
        "lastMoveMono",
        children=[
            Node("entry", children=[Node("color", text=color),
                                    Node("boolean", text="true" if value else "false")])
            for color, value in mono_key
        ],
    ), level + 1))
    # The engine's undeployed bitmasks when it has them (a cheap key); else the names.
    masks: Any = getattr(state, "_undeployed", None)
    for index, (tag, color) in enumerate(_SHAPE_LISTS):
        shapes: Any = masks[index] if masks is not None else state.undeployed(color)
        text = _PART_TEXT.get((tag, level, shapes))
        parts.append(text if text is not None else _shape_list_text(
            (tag, level, shapes), _shape_names(state, color, shapes), level + 1))
    valid = tuple(state.valid_colors)
    parts.append(_part_text(("valid", level, valid), lambda: Node(
        "validColors", children=[Node("color", text=color) for color in valid]), level + 1))
    parts.append(_indent(level) + "</state>")
    return "".join(parts)
