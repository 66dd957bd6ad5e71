"""The Blokus game state: whose turn it is, the board, the pieces left, the score.

Rules and bookkeeping follow the official Software-Challenge 2027 code (see
docs/blokus-rules.md for every choice made where the code and the rules page differ).

>>> state = new_game(start_piece="PENTO_U")
>>> state.current_color, state.round
('BLUE', 1)
>>> state.apply(SetMove("BLUE", "PENTO_U", x=17, y=0))
>>> state.current_color, sorted(state.fields())[:2]
('YELLOW', [(17, 0, 'BLUE'), (17, 1, 'BLUE')])
>>> len(list(new_game("PENTO_W").legal_moves()))
272
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, NoReturn

from games.blokus import bitboard as B
from games.blokus import tables as T
from games.blokus.errors import IllegalMove, Mistake
from games.blokus.moves import Move, SetMove, SkipMove
from games.blokus.shapes import (
    COLOR_INDEX,
    COLORS,
    PENTOMINOES,
    SHAPE_INDEX,
    SHAPE_SIZE,
    SHAPES,
    TEAMS,
    TOTAL_SQUARES,
    official_cell_order,
)

# The official plugin's game type id (the `gameType` of a join request, the room's game).
GAME_TYPE = "swc_2027_blokus"
ROUND_LIMIT = 25
TURN_LIMIT = (ROUND_LIMIT - 1) * 4  # round >= 25 <=> turn >= 96
ALL_SHAPES = (1 << len(SHAPES)) - 1
ALL_COLORS = (1 << len(COLORS)) - 1
MONO = SHAPE_INDEX["MONO"]
_SIZES = tuple(SHAPE_SIZE[name] for name in SHAPES)
_TEAM_OF_INDEX = tuple(TEAMS[index % 2] for index in range(len(COLORS)))
# Bonus for a colour that placed all its shapes, and the extra bonus if the last was MONO.
ALL_PLACED_BONUS = 15
MONO_LAST_BONUS = 5
# Snapshots come from the network: refuse absurd turn numbers before doing any work.
_MAX_TURN = 10_000

# Move objects per colour and placement id, made on first use and then shared: moves are
# immutable, and reusing them keeps `legal_moves()` from allocating in search loops.
_MOVES: tuple[list[SetMove | None], ...] = tuple([None] * T.PLACEMENT_COUNT for _ in COLORS)


_SKIPS = tuple(SkipMove(color) for color in COLORS)
_SKIP_ONLY = tuple((skip,) for skip in _SKIPS)


def _color_index(color: str) -> int:
    index = COLOR_INDEX.get(color) if isinstance(color, str) else None
    if index is None:
        raise ValueError(f"unknown colour {color!r}")
    return index


def _move_of(color: int, pid: int, _new: Any = tuple.__new__, _fields: Any = T.P_FIELDS) -> SetMove:
    """The shared SetMove of placement `pid` for colour index `color` (made on first use)."""
    move: SetMove | None = _MOVES[color][pid]
    if move is None:
        move = _new(SetMove, (COLORS[color], *_fields[pid]))
        _MOVES[color][pid] = move
    return move


# The same moves per colour, anchor cell and relative placement (see tables.RELATIVE):
# generation reads them through the anchor, which keeps the memory it touches small.
_MOVES_AT: tuple[list[list[SetMove | None] | None], ...] = tuple(
    [None] * T.CELL_COUNT for _ in COLORS
)


def _moves_at(color: int, cell: int) -> list[SetMove | None]:
    """The (lazily filled) move list of anchor `cell` for colour index `color`."""
    at = _MOVES_AT[color][cell]
    if at is None:
        at = [None] * T.RELATIVE_COUNT
        _MOVES_AT[color][cell] = at
    return at


def _move_at(color: int, cell: int, r: int) -> SetMove:
    """The shared SetMove of relative placement `r` seen from anchor `cell`."""
    move = _move_of(color, T.PID_AT[cell][r])
    _moves_at(color, cell)[r] = move
    return move


def win_points(points: Sequence[int]) -> tuple[int, ...]:
    """The win points (2 win, 1 tie, 0 loss) per team from its game points, in order.

    The single leader gets 2 and everyone else 0; a shared lead gives everyone 1 (the
    official scoring). The winner is the index holding 2, if any.

    >>> win_points((104, 87)), win_points((60, 60))
    ((2, 0), (1, 1))
    """
    best = max(points)
    if sum(1 for p in points if p == best) > 1:
        return tuple(1 for _ in points)
    return tuple(2 if p == best else 0 for p in points)


@dataclass(frozen=True)
class Result:
    """The outcome: `points` and `win_points` (2 win, 1 tie, 0 loss) per team, `winner`.

    `winner` is a team name, or None on a tie.
    """

    points: dict[str, int]
    win_points: dict[str, int]
    winner: str | None


class State:
    """A Blokus position with the official turn bookkeeping.

    Build one with `new_game()` or `State.from_snapshot()`. `apply()` validates;
    `push()` trusts its caller (for moves straight from `legal_moves()`), and `pop()`
    undoes either.
    """

    __slots__ = (
        "_boards",
        "_gen",
        "_last_move",
        "_mono",
        "_occupied",
        "_stack",
        "_start",
        "_turn",
        "_undeployed",
        "_valid",
        "_version",
    )

    _boards: list[int]
    _occupied: int
    _undeployed: list[int]
    _valid: int
    _turn: int
    _start: int
    _last_move: Move | None
    _mono: list[bool | None]
    # Undo records as a linked list of (record, rest) pairs: a clone shares it, so cloning
    # costs the same at any depth, and nobody can change a shared tail.
    _stack: tuple[Any, ...] | None
    # The generation masks of one colour on this board (see `_masks`), or None.
    _gen: tuple[int, int, int, int, int] | None
    # Counts the changes of the position, so a `legal_moves()` view knows whether the list
    # it made is still the position's.
    _version: int

    def __init__(self, start_piece: str) -> None:
        if start_piece not in SHAPE_INDEX:
            raise ValueError(f"unknown start piece {start_piece!r}")
        self._boards = [0, 0, 0, 0]
        self._occupied = 0
        self._undeployed = [ALL_SHAPES] * 4
        self._valid = ALL_COLORS
        self._turn = 0
        self._start = SHAPE_INDEX[start_piece]
        self._last_move = None
        self._mono = [None, None, None, None]
        self._stack = None
        self._gen = None
        self._version = 0

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_snapshot(
        cls,
        *,
        turn: int,
        start_piece: str,
        fields: Iterable[tuple[int, int, str]],
        undeployed: Mapping[str, Iterable[str]],
        valid_colors: Iterable[str],
        last_move: Move | None = None,
        last_move_mono: Mapping[str, bool] | None = None,
    ) -> State:
        """Rebuild a state from what a memento carries; raises ValueError on nonsense.

        Nothing is recomputed: colours are not eliminated here, the state is taken as given.

        >>> s = State.from_snapshot(turn=5, start_piece="PENTO_X",
        ...     fields=[(0, 0, "RED")], undeployed={c: SHAPES for c in COLORS},
        ...     valid_colors=["BLUE", "RED"])
        >>> s.current_color, s.color_at(0, 0), s.valid_colors
        ('YELLOW', 'RED', ('BLUE', 'RED'))
        """
        try:
            return cls._from_snapshot(
                turn, start_piece, fields, undeployed, valid_colors, last_move, last_move_mono
            )
        except TypeError as error:  # wrong container types, unhashable names, ...
            raise ValueError(f"bad snapshot: {error}") from None

    @classmethod
    def _from_snapshot(
        cls,
        turn: int,
        start_piece: str,
        fields: Iterable[tuple[int, int, str]],
        undeployed: Mapping[str, Iterable[str]],
        valid_colors: Iterable[str],
        last_move: Move | None,
        last_move_mono: Mapping[str, bool] | None,
    ) -> State:
        if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn <= _MAX_TURN:
            raise ValueError(f"bad turn {turn!r}")
        if not isinstance(start_piece, str) or start_piece not in SHAPE_INDEX:
            raise ValueError(f"unknown start piece {start_piece!r}")
        state = cls(start_piece)
        state._turn = turn
        for field in fields:
            try:
                x, y, color = field
            except (TypeError, ValueError):
                raise ValueError(f"bad field {field!r}") from None
            if not isinstance(x, int) or not isinstance(y, int) or isinstance(x | y, bool):
                raise ValueError(f"bad field {field!r}")
            if not (0 <= x < B.SIZE and 0 <= y < B.SIZE):
                raise ValueError(f"field off the board: {field!r}")
            if color not in COLOR_INDEX:
                raise ValueError(f"bad field colour: {field!r}")
            mask = B.cell_bit(x, y)
            if state._occupied & mask:
                raise ValueError(f"field given twice: {field!r}")
            state._occupied |= mask
            state._boards[COLOR_INDEX[color]] |= mask
        if not isinstance(undeployed, Mapping) or set(undeployed) != set(COLORS):
            raise ValueError("undeployed must map each of the four colours to its shapes")
        for color, shapes in undeployed.items():
            bits = 0
            for name in shapes:
                if not isinstance(name, str) or name not in SHAPE_INDEX:
                    raise ValueError(f"unknown shape {name!r}")
                bits |= 1 << SHAPE_INDEX[name]
            state._undeployed[COLOR_INDEX[color]] = bits
        valid = 0
        for color in valid_colors:
            if not isinstance(color, str) or color not in COLOR_INDEX:
                raise ValueError(f"unknown colour {color!r}")
            valid |= 1 << COLOR_INDEX[color]
        state._valid = valid
        if last_move is not None and not isinstance(last_move, SetMove | SkipMove):
            raise ValueError(f"bad last move {last_move!r}")
        state._last_move = last_move
        if last_move_mono is not None and not isinstance(last_move_mono, Mapping):
            raise ValueError("lastMoveMono must map colours to bools")
        for color, mono in (last_move_mono or {}).items():
            if not isinstance(color, str) or color not in COLOR_INDEX:
                raise ValueError(f"unknown colour {color!r}")
            if not isinstance(mono, bool):
                raise ValueError(f"lastMoveMono of {color} must be a bool")
            state._mono[COLOR_INDEX[color]] = mono
        return state

    def clone(self) -> State:
        """An independent copy (the undo stack included, shared: it is immutable)."""
        other = State.__new__(State)
        other._boards = self._boards[:]
        other._occupied = self._occupied
        other._undeployed = self._undeployed[:]
        other._valid = self._valid
        other._turn = self._turn
        other._start = self._start
        other._last_move = self._last_move
        other._mono = self._mono[:]
        other._stack = self._stack
        other._gen = self._gen
        other._version = self._version
        return other

    __copy__ = clone

    # -- reading ------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Colour slots played so far, skipped and eliminated colours included."""
        return self._turn

    @property
    def round(self) -> int:
        return 1 + self._turn // 4

    @property
    def start_piece(self) -> str:
        return SHAPES[self._start]

    @property
    def current_color(self) -> str:
        return COLORS[self._turn % 4]

    @property
    def current_team(self) -> str:
        return _TEAM_OF_INDEX[self._turn % 4]

    @property
    def valid_colors(self) -> tuple[str, ...]:
        """Colours still in the game, in colour order."""
        return tuple(color for index, color in enumerate(COLORS) if self._valid >> index & 1)

    @property
    def last_move(self) -> Move | None:
        return self._last_move

    def moves(self) -> list[Move]:
        """Every move applied since the start, in order (from the undo stack): what a state
        is rebuilt from (a match started from a position stores them). A state made by
        `from_snapshot()` has none before it; `pop()` takes moves off.

        >>> s = new_game("PENTO_L"); s.apply(SetMove("BLUE", "PENTO_L", x=0, y=0))
        >>> s.moves()
        [SetMove('BLUE', 'PENTO_L', rotation='NONE', flipped=False, x=0, y=0)]
        """
        found: list[Move] = []
        last = self._last_move
        stack = self._stack
        while stack is not None:
            record, stack = stack
            assert last is not None, "an undo record follows a move"
            found.append(last)
            last = record[2]  # the move before the one this record undoes
        found.reverse()
        return found

    @property
    def last_move_mono(self) -> dict[str, bool]:
        """For each colour that placed all 21 shapes: was the last one the MONO?"""
        return {COLORS[i]: mono for i, mono in enumerate(self._mono) if mono is not None}

    def undeployed(self, color: str) -> tuple[str, ...]:
        """Shapes `color` has not placed yet, in enum order."""
        bits = self._undeployed[_color_index(color)]
        return tuple(name for index, name in enumerate(SHAPES) if bits >> index & 1)

    def fields(self) -> list[tuple[int, int, str]]:
        """Occupied cells as (x, y, colour), y-major then x (the memento's order)."""
        result = []
        boards = self._boards
        occupied = self._occupied
        while occupied:
            low = occupied & -occupied
            index = low.bit_length() - 1
            occupied ^= low
            color = 0
            while not boards[color] & low:
                color += 1
            result.append((index % B.STRIDE, index // B.STRIDE, COLORS[color]))
        return result

    def board(self, color: str) -> int:
        """The cells of `color` as a bitboard (layout: `games.blokus.bitboard`).

        >>> from games.blokus.bitboard import mask_to_cells
        >>> s = new_game("DOMINO"); s.apply(SetMove("BLUE", "DOMINO", x=0, y=0))
        >>> sorted(mask_to_cells(s.board("BLUE"))), s.occupied == s.board("BLUE")
        ([(0, 0), (1, 0)], True)
        """
        return self._boards[_color_index(color)]

    @property
    def occupied(self) -> int:
        """Every occupied cell, all colours, as a bitboard."""
        return self._occupied

    def color_at(self, x: int, y: int) -> str | None:
        """The colour on (x, y), or None if empty or off the board."""
        if not (0 <= x < B.SIZE and 0 <= y < B.SIZE):
            return None
        mask = B.cell_bit(x, y)
        for index, board in enumerate(self._boards):
            if board & mask:
                return COLORS[index]
        return None

    @property
    def is_over(self) -> bool:
        return not self._valid or self._turn >= TURN_LIMIT

    def points(self, color: str) -> int:
        """+1 per placed square; all 21 placed: 89 + 15, + 5 more if the MONO came last."""
        index = _color_index(color)
        bits = self._undeployed[index]
        if not bits:
            return TOTAL_SQUARES + ALL_PLACED_BONUS + (MONO_LAST_BONUS if self._mono[index] else 0)
        return TOTAL_SQUARES - sum(size for i, size in enumerate(_SIZES) if bits >> i & 1)

    def team_points(self, team: str) -> int:
        if team not in TEAMS:
            raise ValueError(f"unknown team {team!r}")
        first = TEAMS.index(team)
        return self.points(COLORS[first]) + self.points(COLORS[first + 2])

    def result(self) -> Result:
        """Points and win points (2/1/0) from the current position (final or not)."""
        points = tuple(self.team_points(team) for team in TEAMS)
        wins = win_points(points)
        return Result(
            points=dict(zip(TEAMS, points, strict=True)),
            win_points=dict(zip(TEAMS, wins, strict=True)),
            winner=TEAMS[wins.index(2)] if 2 in wins else None,
        )

    # -- move generation ----------------------------------------------------------------

    def _masks(self, color: int) -> tuple[int, int, int, int, int]:
        """(color, forbidden, anchors, shifted forbidden, deployed) for `color` on this board.

        The forbidden cells are the occupied ones and those edge-adjacent to the colour;
        shifted left by `T.LOCAL_SHIFT`, `shifted >> cell & T.LOCAL_MASK` is the window
        around anchor `cell`. The anchors are its attach corners (free cells touching it
        only at a corner); `deployed` holds the local shape bits of the shapes it has
        already placed. Only meaningful after the colour's first move.

        Kept until the board changes (`push`/`pop` drop them): the elimination check at
        the end of a move computes them for the next colour, and that colour's listing
        and the validation of its move start from the same masks.
        """
        masks = self._gen
        if masks is None or masks[0] != color:
            own = self._boards[color]
            forbidden = self._occupied | B.edge_neighbours(own)
            masks = (
                color,
                forbidden,
                B.corner_neighbours(own) & ~forbidden,
                forbidden << T.LOCAL_SHIFT,
                T.local_shape_bits(ALL_SHAPES ^ self._undeployed[color]),
            )
            self._gen = masks
        return masks

    def _anchor_candidates(self, color: int) -> list[tuple[Any, int, int]]:
        """(candidates, local forbidden, cell) per anchor, for `color` after its first move.

        Work is proportional to the anchors: each anchor cuts the 9x9 window around it out
        of the forbidden cells and looks up the placements through it that fit the blocked
        pattern next to it; a candidate `(mask, r)` is legal iff `not mask & local`, and
        `r` names it relative to `cell`. After an anchor is done it joins the forbidden
        cells, so a placement covering several anchors is produced once, by the first.
        Built in one go: the listing then checks every candidate in one comprehension.
        """
        _, _, anchors, shifted, deployed = self._masks(color)
        by_pattern = T.BY_PATTERN
        local_mask = T.LOCAL_MASK
        window = T.WINDOW
        pattern_shift = T.PATTERN_SHIFT
        anchors <<= T.LOCAL_SHIFT
        low_bit = T.LOCAL_SHIFT + 1
        out = []
        while anchors:
            low = anchors & -anchors
            cell = low.bit_length() - low_bit
            local = (shifted >> cell) & local_mask
            pattern = (local >> pattern_shift) & window
            found = by_pattern[cell].get(pattern)
            if found is None:
                found = T.candidates(cell, pattern)
            out.append((found, local | deployed, cell))
            shifted |= low
            anchors ^= low
        return out

    def _placement_ids(self, color: int) -> list[int]:
        """Ids of every legal placement of `color` on this board (ignoring whose turn it is)."""
        bits = self._undeployed[color]
        if bits == ALL_SHAPES:
            occupied = self._occupied
            return [pid for mask, pid in T.start_placements(self._start) if not mask & occupied]
        if not bits:
            return []
        pid_at = T.PID_AT
        return [
            pid_at[cell][r]
            for found, local, cell in self._anchor_candidates(color)
            for mask, r in found
            if not mask & local
        ]

    def _has_placement(self, color: int) -> bool:
        """Whether `color` can place anything; stops at the first legal candidate."""
        bits = self._undeployed[color]
        if bits == ALL_SHAPES:
            occupied = self._occupied
            return any(not mask & occupied for mask, _ in T.start_placements(self._start))
        if not bits:
            return False
        # The anchor walk of `_anchor_candidates`, one anchor at a time: the first anchor
        # almost always has a placement, and this runs after every move.
        _, _, anchors, shifted, deployed = self._masks(color)
        by_pattern = T.BY_PATTERN
        local_mask = T.LOCAL_MASK
        anchors <<= T.LOCAL_SHIFT
        low_bit = T.LOCAL_SHIFT + 1
        while anchors:
            low = anchors & -anchors
            cell = low.bit_length() - low_bit
            local = (shifted >> cell) & local_mask
            pattern = (local >> T.PATTERN_SHIFT) & T.WINDOW
            found = by_pattern[cell].get(pattern)
            if found is None:
                found = T.candidates(cell, pattern)
            local |= deployed
            for mask, _ in found:
                if not mask & local:
                    return True
            shifted |= low
            anchors ^= low
        return False

    def legal_moves(self) -> LegalMoveGenerator:
        """Every distinct legal placement of the current colour once, then SkipMove if allowed.

        A small live view, as python-chess's `board.legal_moves`: iterating it is lazy
        (one anchor, an attach corner, at a time), `len()` and `list()` list the position
        once, `move in ...` checks that move alone, and truthiness stops at the first
        legal move. Nothing once the game is over. Each placement carries the first
        (rotation, flipped) of the official variant order that gives its cells. It is not a
        sequence: `list(state.legal_moves())[0]`, not `state.legal_moves()[0]`.

        >>> state = new_game("PENTO_W")
        >>> moves = state.legal_moves()
        >>> len(moves), bool(moves), SetMove("BLUE", "PENTO_W", x=0, y=0) in moves
        (272, True, True)
        >>> next(iter(moves)).kind, list(moves)[0].kind
        ('PENTO_W', 'PENTO_W')
        """
        return LegalMoveGenerator(self)

    def _legal_list(self) -> list[Move]:
        """The moves of `legal_moves()` as one new list."""
        if not self._valid or self._turn >= TURN_LIMIT:
            return []
        color = self._turn % 4
        bits = self._undeployed[color]
        if bits == ALL_SHAPES:
            moves = _MOVES[color]
            occupied = self._occupied
            return [
                moves[pid] or _move_of(color, pid)
                for mask, pid in T.start_placements(self._start)
                if not mask & occupied
            ]  # no skipping on a colour's first move
        if not bits:
            return [_SKIPS[color]]
        moves_at = _MOVES_AT[color]
        # One comprehension over every anchor's candidates: a comprehension per anchor
        # (and a generator resumed per anchor) costs more than the anchor's own work.
        # (`for at in [x]` is a plain assignment inside a comprehension since Python 3.9.)
        out: list[Move] = [
            at[r] or _move_at(color, cell, r)
            for found, local, cell in self._anchor_candidates(color)
            for at in [moves_at[cell] or _moves_at(color, cell)]
            for mask, r in found
            if not mask & local
        ]
        out.append(_SKIPS[color])
        return out

    def _move_lists(self) -> Iterator[Iterable[Move]]:
        """The moves of `legal_moves()` as one list per anchor (start: one list), lazily."""
        if not self._valid or self._turn >= TURN_LIMIT:
            return
        color = self._turn % 4
        bits = self._undeployed[color]
        if bits == ALL_SHAPES:
            yield self._legal_list()
            return
        if bits:
            moves_at = _MOVES_AT[color]
            for found, local, cell in self._anchor_candidates(color):
                at = moves_at[cell] or _moves_at(color, cell)
                yield [
                    at[r] or _move_at(color, cell, r) for mask, r in found if not mask & local
                ]
        yield _SKIP_ONLY[color]

    def legal_placement_count(self) -> int:
        """How many placements the current colour has (SkipMove not counted)."""
        if self.is_over:
            return 0
        return len(self._placement_ids(self._turn % 4))

    # -- validation ---------------------------------------------------------------------

    def validate(self, move: Move) -> None:
        """Raise IllegalMove if `move` is not legal now; checks in the official order.

        A legal placement costs a few ANDs against the masks the position's listing uses
        (kept until the next push/pop), so re-checking a move from `legal_moves()` is
        cheap; only an illegal one takes the official cell-by-cell path for its mistake.
        """
        if not isinstance(move, (SetMove, SkipMove)):  # a tuple is faster
            raise TypeError(f"not a Blokus move: {move!r}")
        if not self._valid or self._turn >= TURN_LIMIT:
            raise IllegalMove(Mistake.GAME_OVER, move)
        color = self._turn % 4
        if move.color != COLORS[color]:
            raise IllegalMove(Mistake.WRONG_COLOR, move)
        bits = self._undeployed[color]
        first = bits == ALL_SHAPES
        if isinstance(move, SkipMove):
            if first:
                raise IllegalMove(Mistake.SKIP_FIRST_TURN, move)
            return
        shape = SHAPE_INDEX[move[1]]
        if first:
            if shape != self._start:
                raise IllegalMove(Mistake.WRONG_SHAPE, move)
            # (A snapshot may give a colour cells before its first move: they count.)
            forbidden = self._occupied | B.edge_neighbours(self._boards[color])
            anchors = 0
        else:
            if not bits >> shape & 1:
                raise IllegalMove(Mistake.DUPLICATE_SHAPE, move)
            _, forbidden, anchors, _, _ = self._masks(color)
        mask: int = move[6]
        if mask < 0 or mask & forbidden:
            # Some cell is wrong: find the first one the official loop would report. It
            # checks one cell at a time, all three checks per cell, in hash-set order.
            occupied = self._occupied
            touching = B.edge_neighbours(self._boards[color])
            cells = official_cell_order(move.kind, move.rotation, move.flipped, move.x, move.y)
            for x, y in cells:
                if not (0 <= x < B.SIZE and 0 <= y < B.SIZE):
                    raise IllegalMove(Mistake.OUT_OF_BOUNDS, move)
                cell = B.cell_bit(x, y)
                if occupied & cell:
                    raise IllegalMove(Mistake.OBSTRUCTED, move)
                if touching & cell:
                    raise IllegalMove(Mistake.TOUCHES_SAME_COLOR, move)
        if first:
            if not mask & B.BORDER:
                raise IllegalMove(Mistake.NOT_ON_BORDER, move)
        elif not mask & anchors:
            # The cells are free and touch no edge of the colour, so the attach corners
            # are exactly the corner neighbours that could be shared.
            raise IllegalMove(Mistake.NO_SHARED_CORNER, move)

    def is_legal(self, move: object) -> bool:
        """Whether `move` may be applied now (False for anything that is not a move)."""
        if not isinstance(move, (SetMove, SkipMove)):  # a tuple is faster
            return False
        try:
            self.validate(move)
        except IllegalMove:
            return False
        return True

    # -- playing ------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Validate and play `move`; on IllegalMove the state is unchanged.

        Then the official bookkeeping: next colour still in the game, and colours that
        cannot place anything when their turn comes are eliminated, recursively.
        """
        self.validate(move)
        self.push(move)

    def push(self, move: Move) -> None:
        """Play `move` WITHOUT validating it: only for moves from `legal_moves()`.

        A bad move corrupts the state; use `apply()` for anything from outside.
        """
        turn = self._turn
        color = turn % 4
        boards = self._boards
        undeployed = self._undeployed
        valid = self._valid
        record = (
            turn,
            valid,
            self._last_move,
            color,
            boards[color],
            undeployed[color],
            self._mono[color],
            self._occupied,
        )
        self._stack = (record, self._stack)
        self._gen = None
        self._version += 1
        if isinstance(move, SetMove):
            mask: int = move[6]
            boards[color] |= mask
            self._occupied |= mask
            kind = move[1]
            bits = undeployed[color] & ~(1 << SHAPE_INDEX[kind])
            undeployed[color] = bits
            if not bits:
                self._mono[color] = kind == "MONO"
        self._last_move = move
        # `_advance()` and the first round of `_remove_invalid_colors()`, inlined: this
        # runs once per move of every search.
        if not valid:
            return
        turn += 1
        while not valid >> (turn % 4) & 1:
            turn += 1
        self._turn = turn
        if not self._has_placement(turn % 4):
            self._remove_active_color()
            self._remove_invalid_colors()

    def pop(self) -> Move:
        """Undo the last `push()`/`apply()` and return its move (IndexError if none)."""
        if self._stack is None:
            raise IndexError("pop from a state without moves to undo")
        move = self._last_move
        record, self._stack = self._stack
        self._gen = None
        self._version += 1
        (
            self._turn,
            self._valid,
            self._last_move,
            color,
            self._boards[color],
            self._undeployed[color],
            self._mono[color],
            self._occupied,
        ) = record
        assert move is not None
        return move

    def _advance(self, turns: int = 1) -> None:
        """Move on `turns` slots, then on to the next colour still in the game.

        With no colour left the turn stays where it is (the official `advance` returns
        early), so the last elimination does not count as a slot.
        """
        valid = self._valid
        if not valid:
            return
        self._turn += turns
        while not valid >> (self._turn % 4) & 1:
            self._turn += 1

    def _remove_active_color(self) -> None:
        self._valid &= ~(1 << (self._turn % 4))
        self._advance()

    def _remove_invalid_colors(self) -> None:
        """Eliminate the current colour while it has no legal placement (official order)."""
        while self._valid and not self._has_placement(self._turn % 4):
            self._remove_active_color()

    # -- comparing and printing ---------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self._turn,
            self._start,
            tuple(self._boards),
            tuple(self._undeployed),
            self._valid,
            self._last_move,
            tuple(self._mono),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable (as list is)

    def __repr__(self) -> str:
        return (
            f"<blokus.State turn={self._turn} round={self.round} "
            f"current={self.current_color} valid={','.join(self.valid_colors) or '-'} "
            f"start={self.start_piece}>"
        )

    def board_text(self) -> str:
        """The board as 20 lines of B Y R G and '.' (row 0 first)."""
        letters = {color: color[0] for color in COLORS}
        grid = [["."] * B.SIZE for _ in range(B.SIZE)]
        for x, y, color in self.fields():
            grid[y][x] = letters[color]
        return "\n".join("".join(row) for row in grid)


class LegalMoveGenerator:
    """The legal moves of a state's current position, as python-chess's `board.legal_moves`.

    A live view: it always speaks of the position the state is in now. Iterating is lazy
    (one anchor at a time); `len()` lists the position once and keeps that list until the
    state changes, so `list(...)` (which asks for the length first) lists it only once;
    `move in ...` checks that one move; truthiness stops at the first legal move.

    >>> state = new_game("PENTO_U")
    >>> moves = state.legal_moves()
    >>> len(moves), moves.count(), SkipMove("BLUE") in moves
    (280, 280, False)
    >>> state.apply(next(iter(moves)))
    >>> len(moves), state.current_color   # the same view, now of YELLOW's first move
    (264, 'YELLOW')
    >>> moves
    <LegalMoveGenerator at ... (264 moves of YELLOW)>
    >>> moves[0]
    Traceback (most recent call last):
    TypeError: legal_moves() is a live view, not a sequence: take list(state.legal_moves())[0]
    """

    __slots__ = ("_moves", "_state", "_version")

    def __getitem__(self, index: object) -> NoReturn:
        # Python's own message ("not subscriptable") does not say what to do instead.
        raise TypeError("legal_moves() is a live view, not a sequence: take "
                        f"list(state.legal_moves())[{index!r}]")

    def __init__(self, state: State) -> None:
        self._state = state
        self._moves: list[Move] | None = None
        self._version = -1

    def _list(self) -> list[Move]:
        state = self._state
        moves = self._moves
        if moves is None or self._version != state._version:
            moves = self._moves = state._legal_list()
            self._version = state._version
        return moves

    def __iter__(self) -> Iterator[Move]:
        # The generator makes one list per anchor and `chain` hands out their items from
        # C: resuming a generator once per move would cost about a third of the listing.
        return chain.from_iterable(self._lists())

    def _lists(self) -> Iterator[Iterable[Move]]:
        # This runs at the first next(), not in __iter__: `list(view)` takes the iterator
        # first and asks `len()` next, so by now the whole list may be there already.
        state = self._state
        moves = self._moves
        if moves is not None and self._version == state._version:
            yield moves
        else:
            yield from state._move_lists()

    def __len__(self) -> int:
        return len(self._list())

    def count(self) -> int:
        """How many legal moves (SkipMove included), as `len()`."""
        return len(self._list())

    def __bool__(self) -> bool:
        moves = self._moves
        if moves is not None and self._version == self._state._version:
            return bool(moves)
        state = self._state
        if state.is_over:
            return False
        color = state._turn % 4
        # After its first move a colour may always skip.
        return state._undeployed[color] != ALL_SHAPES or state._has_placement(color)

    def __contains__(self, move: object) -> bool:
        return self._state.is_legal(move)

    def __repr__(self) -> str:
        return (
            f"<LegalMoveGenerator at {id(self):#x} "
            f"({len(self)} moves of {self._state.current_color})>"
        )


def new_game(start_piece: str | None = None, seed: int | None = None) -> State:
    """A new game; without `start_piece`, one of the 12 pentominoes drawn with `seed`.

    >>> new_game(seed=7).start_piece == new_game(seed=7).start_piece
    True
    >>> new_game("PENTO_W").start_piece
    'PENTO_W'
    """
    if start_piece is None:
        start_piece = random.Random(seed).choice(PENTOMINOES)
    elif not isinstance(start_piece, str) or start_piece not in SHAPE_INDEX:
        raise ValueError(f"unknown start piece {start_piece!r}")
    return State(start_piece)
