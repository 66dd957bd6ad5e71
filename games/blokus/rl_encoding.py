"""Blokus as numbers: the action index of a move and back, the legal-action mask, the observation.

Pure functions of a `games.blokus.State` (and a team), shared by the learning environments
of `games.blokus.env` and by anything on the bot side that wants the same numbers for the
same position (a policy playing on the server sees exactly what it saw in training).

Actions: one index per distinct placement, whatever colour plays it, and one for passing.
Index `a < PLACEMENT_COUNT` is placement `a` of the engine's table (`games.blokus.tables`):
shapes in the official enum order, within a shape its distinct orientations in the official
variant order, within an orientation every top-left position (x, y) where it fits, y-major.
`SKIP_ACTION = PLACEMENT_COUNT` passes. A symmetric piece has fewer distinct orientations
than the eight (rotation, flip) spellings, and each placement has exactly one index: there
is no second index for the same cells, so `action_of(move_of(a, state)) == a` for every a.

>>> from games import blokus
>>> state = blokus.new_game(start_piece="PENTO_U")
>>> move = blokus.SetMove("BLUE", "PENTO_U", x=17, y=0)
>>> a = action_of(move)
>>> move_of(a, state) == move, action_of(move_of(a, state)) == a
(True, True)
>>> int(action_mask(state)[a]), int(action_mask(state)[SKIP_ACTION])  # no pass on a first move
(1, 0)
>>> action_fields(a)
('PENTO_U', 'NONE', False, 17, 0)
>>> obs = observe(state, "ONE")
>>> obs.shape, obs.dtype.name, int(obs[ROUND])
((1719,), 'uint8', 1)
"""

from __future__ import annotations

import operator
from typing import Final

import numpy as np
import numpy.typing as npt

from games.blokus import tables as T
from games.blokus.bitboard import SIZE, STRIDE
from games.blokus.moves import Move, SetMove, SkipMove
from games.blokus.shapes import COLORS, SHAPE_SIZE, SHAPES, TEAMS
from games.blokus.state import ALL_SHAPES, ROUND_LIMIT, State, _move_of

# -- actions ------------------------------------------------------------------------------

PLACEMENT_COUNT: Final = T.PLACEMENT_COUNT
SKIP_ACTION: Final = PLACEMENT_COUNT
ACTION_COUNT: Final = PLACEMENT_COUNT + 1

# A placement's cells name it: two different shapes never cover the same cell set, and one
# shape's distinct orientations never do either.
_ACTION_OF_MASK: dict[int, int] = {mask: pid for pid, mask in enumerate(T.P_MASK)}
# The first placement index of each shape (placements are numbered shape by shape).
SHAPE_FIRST_ACTION: tuple[int, ...] = tuple(T.P_SHAPE.index(s) for s in range(len(SHAPES)))
_SKIPS = tuple(SkipMove(color) for color in COLORS)


def action_of(move: Move) -> int:
    """The action index of `move` (its colour is not part of it: the colour to move plays it).

    Any (rotation, flipped) spelling of a placement gives its one index. ValueError for a
    placement that does not fit on the board.

    >>> from games.blokus import SetMove, SkipMove
    >>> a = SetMove("RED", "DOMINO", x=3, y=4)
    >>> action_of(a) == action_of(SetMove("BLUE", "DOMINO", "MIRROR", True, x=3, y=4))
    True
    >>> action_of(SkipMove("GREEN")) == SKIP_ACTION
    True
    """
    if isinstance(move, SkipMove):
        return SKIP_ACTION
    if not isinstance(move, SetMove):
        raise TypeError(f"not a Blokus move: {move!r}")
    action = _ACTION_OF_MASK.get(move.mask)
    if action is None:
        raise ValueError(f"{move!r} does not fit on the board: it has no action index")
    return action


def check_action(action: object) -> int:
    """`action` as a plain int index, or ValueError saying why it is none.

    Accepts Python and numpy integers (not bools, not floats).
    """
    if isinstance(action, bool | np.bool_):
        raise ValueError(f"action must be an integer index, not {action!r}")
    try:
        index = operator.index(action)  # type: ignore[arg-type]  # checked right here
    except TypeError:
        raise ValueError(
            f"action must be an integer index, not {type(action).__name__} {action!r}"
        ) from None
    if not 0 <= index < ACTION_COUNT:
        raise ValueError(f"action {index} is out of range: indices are 0..{ACTION_COUNT - 1}")
    return index


def move_of(action: int, state: State) -> Move:
    """The move of index `action` for the colour to move in `state` (legal or not).

    ValueError if `action` is no index of the action space. Whether the move is legal now
    is `action_mask(state)[action]` (or `state.is_legal(move)`).

    >>> from games import blokus
    >>> state = blokus.new_game("PENTO_X")
    >>> move_of(SKIP_ACTION, state), move_of(0, state)
    (SkipMove('BLUE'), SetMove('BLUE', 'MONO', rotation='NONE', flipped=False, x=0, y=0))
    """
    index = check_action(action)
    color = state._turn % 4
    if index == SKIP_ACTION:
        return _SKIPS[color]
    return _move_of(color, index)


def action_fields(action: int) -> tuple[str, str, bool, int, int]:
    """(shape, rotation, flipped, x, y) of a placement index: what `SetMove` takes.

    >>> action_fields(0), action_fields(SHAPE_FIRST_ACTION[SHAPES.index("DOMINO")] + 19)
    (('MONO', 'NONE', False, 0, 0), ('DOMINO', 'NONE', False, 0, 1))
    """
    index = check_action(action)
    if index == SKIP_ACTION:
        raise ValueError(f"action {index} passes: it has no placement fields")
    kind, rotation, flipped, x, y, _ = T.P_FIELDS[index]
    return (kind, rotation, flipped, x, y)


def legal_actions(state: State) -> list[int]:
    """The legal action indices now, in increasing order (the skip last, when allowed).

    The same moves as `state.legal_moves()`; empty once the game is over.
    """
    if state.is_over:
        return []
    color = state._turn % 4
    actions = sorted(state._placement_ids(color))
    if state._undeployed[color] != ALL_SHAPES:
        actions.append(SKIP_ACTION)
    return actions


def action_mask(state: State) -> npt.NDArray[np.int8]:
    """The legal actions now as an int8 array of 0/1 of length ACTION_COUNT (all 0 when over)."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if state.is_over:
        return mask
    color = state._turn % 4
    pids = state._placement_ids(color)
    if pids:
        mask[np.fromiter(pids, dtype=np.intp, count=len(pids))] = 1
    if state._undeployed[color] != ALL_SHAPES:
        mask[SKIP_ACTION] = 1
    return mask


# -- observations -------------------------------------------------------------------------

# The flat uint8 observation, in this order (the colour order is the observer's, see
# `perspective_color`: k = 0 the perspective colour, 1 the colour after it in turn order,
# an opponent, 2 its partner, 3 the other opponent):
BOARD: Final = slice(0, 4 * SIZE * SIZE)  # 4 planes of 20x20 cells (row y, column x), 0/1
PIECES: Final = slice(BOARD.stop, BOARD.stop + 4 * len(SHAPES))  # 4 x 21: 1 = not placed yet
IN_GAME: Final = slice(PIECES.stop, PIECES.stop + 4)  # 1 = the colour is still in the game
POINTS: Final = slice(IN_GAME.stop, IN_GAME.stop + 4)  # each colour's points so far, 0..109
PERSPECTIVE: Final = slice(POINTS.stop, POINTS.stop + 4)  # one-hot: BLUE, YELLOW, RED, GREEN
TO_MOVE: Final = PERSPECTIVE.stop  # 1 = the perspective colour is the colour to move now
ROUND: Final = TO_MOVE + 1  # the round, 1..25
START_PIECE: Final = slice(ROUND + 1, ROUND + 1 + len(SHAPES))  # one-hot over SHAPES
OBSERVATION_SIZE: Final = START_PIECE.stop

MAX_POINTS: Final = sum(SHAPE_SIZE.values()) + 15 + 5  # all 21 placed, the MONO last


def observation_high() -> npt.NDArray[np.uint8]:
    """The largest value of each observation entry (the lowest is 0 everywhere)."""
    high = np.ones(OBSERVATION_SIZE, dtype=np.uint8)
    high[POINTS] = MAX_POINTS
    high[ROUND] = ROUND_LIMIT
    return high


def board_planes(observation: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The board part of an observation (or of a batch of them) as (..., 4, 20, 20) planes.

    >>> from games import blokus
    >>> state = blokus.new_game("PENTO_U")
    >>> state.apply(blokus.SetMove("BLUE", "PENTO_U", x=17, y=0))
    >>> planes = board_planes(observe(state, "ONE"))
    >>> planes.shape, int(planes[0].sum()), int(planes[2, 0, 17])  # RED's view: BLUE is k=2
    ((4, 20, 20), 0, 1)
    """
    return observation[..., BOARD].reshape(*observation.shape[:-1], 4, SIZE, SIZE)


def team_index(team: str) -> int:
    """0 for team ONE (BLUE, RED), 1 for team TWO (YELLOW, GREEN); also takes agent names."""
    index = _TEAM_INDEX.get(team)
    if index is None:
        raise ValueError(f"unknown team {team!r}: use ONE, TWO, {AGENTS[0]} or {AGENTS[1]}")
    return index


# The environments' agent names (PettingZoo's `<descriptor>_<number>` style), team by team.
AGENTS: Final = ("team_1", "team_2")
_TEAM_INDEX = {**{team: i for i, team in enumerate(TEAMS)},
               **{agent: i for i, agent in enumerate(AGENTS)}}


def perspective_color(state: State, team: str) -> int:
    """The colour index whose point of view `observe(state, team)` takes.

    The colour to move if it is `team`'s; otherwise the colour after it in turn order, which
    is always one of `team`'s (the colours alternate between the teams).
    """
    current = state._turn % 4
    return current if current % 2 == team_index(team) else (current + 1) % 4


# Where each entry of the bit part comes from, in one buffer per observation: the 4 boards
# (53 bytes each: 420 bits of the bitboard layout, rows of STRIDE bits), then 4 undeployed
# shape sets (3 bytes each), then a 4-bit in-game set, a 4-bit perspective one-hot and the
# to-move flag (1 byte each), then the start piece's one-hot (3 bytes).
_BOARD_BYTES = (SIZE * STRIDE + 7) // 8
_OFFSET_PIECES = 4 * _BOARD_BYTES * 8
_OFFSET_FLAGS = _OFFSET_PIECES + 4 * 24
_OFFSET_START = _OFFSET_FLAGS + 3 * 8
_SOURCE = np.zeros(OBSERVATION_SIZE, dtype=np.intp)  # points and round: overwritten
_SOURCE[BOARD] = [k * _BOARD_BYTES * 8 + y * STRIDE + x for k in range(4) for y in range(SIZE)
                  for x in range(SIZE)]
_SOURCE[PIECES] = [_OFFSET_PIECES + k * 24 + s for k in range(4) for s in range(len(SHAPES))]
_SOURCE[IN_GAME] = [_OFFSET_FLAGS + k for k in range(4)]
_SOURCE[PERSPECTIVE] = [_OFFSET_FLAGS + 8 + k for k in range(4)]
_SOURCE[TO_MOVE] = _OFFSET_FLAGS + 16
_SOURCE[START_PIECE] = range(_OFFSET_START, _OFFSET_START + len(SHAPES))
# Points from an undeployed set: all squares minus those not placed, byte by byte.
_SIZES = [SHAPE_SIZE[name] for name in SHAPES]
_LEFT_SQUARES = tuple(
    tuple(sum(_SIZES[8 * b + i] for i in range(8) if v >> i & 1 and 8 * b + i < len(SHAPES))
          for v in range(256))
    for b in range(3)
)
_ALL_SQUARES = sum(_SIZES)


def _points(undeployed: int, mono: bool | None) -> int:
    if not undeployed:
        return _ALL_SQUARES + 15 + (5 if mono else 0)
    left = _LEFT_SQUARES
    return _ALL_SQUARES - (left[0][undeployed & 0xFF] + left[1][undeployed >> 8 & 0xFF]
                           + left[2][undeployed >> 16])


def team_points(state: State) -> tuple[int, int]:
    """(team ONE's points, team TWO's points), as `state.team_points` gives them."""
    undeployed = state._undeployed
    mono = state._mono
    return (_points(undeployed[0], mono[0]) + _points(undeployed[2], mono[2]),
            _points(undeployed[1], mono[1]) + _points(undeployed[3], mono[3]))


def _raw(state: State, me: int) -> tuple[bytes, list[int]]:
    """The bit part of an observation as bytes (see `_BIT_SOURCE`), and the four points."""
    order = (me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4)
    boards = state._boards
    undeployed = state._undeployed
    valid = state._valid
    mono = state._mono
    in_game = ((valid >> me & 1) | (valid >> order[1] & 1) << 1 | (valid >> order[2] & 1) << 2
               | (valid >> order[3] & 1) << 3)
    raw = b"".join((
        boards[me].to_bytes(_BOARD_BYTES, "little"),
        boards[order[1]].to_bytes(_BOARD_BYTES, "little"),
        boards[order[2]].to_bytes(_BOARD_BYTES, "little"),
        boards[order[3]].to_bytes(_BOARD_BYTES, "little"),
        (undeployed[me] | undeployed[order[1]] << 24 | undeployed[order[2]] << 48
         | undeployed[order[3]] << 72 | in_game << 96 | 1 << (104 + me)
         | int(state._turn % 4 == me) << 112 | 1 << (120 + state._start)).to_bytes(
             _TAIL_BYTES, "little"),
    ))
    return raw, [_points(undeployed[c], mono[c]) for c in order]


_TAIL_BYTES = (_OFFSET_START - _OFFSET_PIECES) // 8 + 3


def observe(state: State, team: str) -> npt.NDArray[np.uint8]:
    """What `team` ("ONE"/"TWO", or the agent names "team_1"/"team_2") sees: a flat uint8 array.

    OBSERVATION_SIZE entries, laid out as the slices above say: the board planes, the
    pieces left, which colours are still in, their points, the perspective colour, whether
    it moves now, the round and the start piece. Colours come in the observer's order,
    starting from `perspective_color(state, team)`; Blokus hides nothing, so the two teams'
    observations differ only in that order.
    """
    raw, points = _raw(state, perspective_color(state, team))
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    out = bits[_SOURCE]
    out[POINTS] = points
    out[ROUND] = min(state.round, ROUND_LIMIT)
    return out


def observe_many(states: list[State], teams: list[int]) -> npt.NDArray[np.uint8]:
    """`observe(states[i], TEAMS[teams[i]])` for every i, as one (n, OBSERVATION_SIZE) array."""
    raws = []
    points = []
    rounds = []
    for state, team in zip(states, teams, strict=True):
        current = state._turn % 4
        raw, four = _raw(state, current if current % 2 == team else (current + 1) % 4)
        raws.append(raw)
        points.append(four)
        rounds.append(min(state.round, ROUND_LIMIT))
    n = len(raws)
    bits = np.unpackbits(np.frombuffer(b"".join(raws), dtype=np.uint8), bitorder="little")
    out = bits.reshape(n, -1)[:, _SOURCE]
    out[:, POINTS] = points
    out[:, ROUND] = rounds
    return out


__all__ = [
    "ACTION_COUNT",
    "AGENTS",
    "BOARD",
    "IN_GAME",
    "OBSERVATION_SIZE",
    "PERSPECTIVE",
    "PIECES",
    "PLACEMENT_COUNT",
    "POINTS",
    "ROUND",
    "SHAPE_FIRST_ACTION",
    "SKIP_ACTION",
    "START_PIECE",
    "TO_MOVE",
    "action_fields",
    "action_mask",
    "action_of",
    "board_planes",
    "check_action",
    "legal_actions",
    "move_of",
    "observation_high",
    "observe",
    "observe_many",
    "perspective_color",
    "team_index",
    "team_points",
]
