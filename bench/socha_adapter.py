"""Translate between our engine and the official Python client `socha` 5.1.0 (Rust core).

The one home of this conversion: `bench.blokus_engine` builds its socha positions with it
and the differential tests in tests/blokus check our engine against socha through it.
It needs `socha` installed (the test environment and `.venv-bench` have it).

socha's `Piece.coordinates()` and the set-returning methods fail (its Coordinate is not
hashable), so cells are always computed with our transform from kind, rotation, flip and
position. socha's `perform_move` does not eliminate colours; the official server calls
`removeInvalidColors` after each move, so `play()` does too.
"""

from __future__ import annotations

import socha

from games import blokus
from games.blokus import COLORS, ROTATIONS, SHAPES, SetMove, SkipMove, State

SHAPE_TO = dict(zip(SHAPES, socha.PieceShape.all(), strict=True))
SHAPE_FROM = {str(value): name for name, value in SHAPE_TO.items()}
ROTATION_TO = dict(zip(ROTATIONS, socha.Rotation.all(), strict=True))
ROTATION_FROM = {str(value): name for name, value in ROTATION_TO.items()}
_SOCHA_COLORS = (socha.Color.BLUE, socha.Color.YELLOW, socha.Color.RED, socha.Color.GREEN)
COLOR_TO = dict(zip(COLORS, _SOCHA_COLORS, strict=True))
COLOR_FROM = {str(value): name for name, value in COLOR_TO.items()}
_CONTENT = (
    socha.FieldContent.BLUE,
    socha.FieldContent.YELLOW,
    socha.FieldContent.RED,
    socha.FieldContent.GREEN,
)
CONTENT_TO = dict(zip(COLORS, _CONTENT, strict=True))
MISTAKE_FROM = {
    "WrongColor": "WRONG_COLOR",
    "WrongShape": "WRONG_SHAPE",
    "DuplicateShape": "DUPLICATE_SHAPE",
    "OutOfBounds": "OUT_OF_BOUNDS",
    "Obstructed": "OBSTRUCTED",
    "TouchesSameColor": "TOUCHES_SAME_COLOR",
    "NotOnBorder": "NOT_ON_BORDER",
    "NoSharedCorner": "NO_SHARED_CORNER",
    "SkipFirstTurn": "SKIP_FIRST_TURN",
}


def move_from_piece(piece: socha.Piece) -> SetMove:
    return SetMove(
        COLOR_FROM[str(piece.color)],
        SHAPE_FROM[str(piece.kind)],
        ROTATION_FROM[str(piece.rotation)],
        piece.is_flipped,
        piece.position.x,
        piece.position.y,
    )


def piece_of(move: SetMove) -> socha.Piece:
    return socha.Piece(
        COLOR_TO[move.color],
        SHAPE_TO[move.kind],
        ROTATION_TO[move.rotation],
        move.flipped,
        socha.Coordinate(move.x, move.y),
    )


def socha_move(move: blokus.Move) -> socha.Move:
    if isinstance(move, SkipMove):
        return socha.Move.skip_move(COLOR_TO[move.color])
    return socha.Move.set_move(piece_of(move))


def socha_legal_pieces(theirs: socha.GameState) -> list[socha.Piece]:
    """socha's placements for the colour to move (its start moves on that colour's first)."""
    if len(theirs.undeployed_piece_shapes(theirs.current_color())) == len(SHAPES):
        return socha.GameRuleLogic.get_possible_start_moves(theirs, False)
    return socha.GameRuleLogic.get_possible_moves(theirs)


def new_socha_game(start_piece: str) -> socha.GameState:
    return socha.GameState(turn=0, start_piece=SHAPE_TO[start_piece])


def socha_state_of(state: State) -> socha.GameState:
    """A socha GameState with the same board, shapes, turn and valid colours as `state`."""
    board = socha.Board(None)
    for x, y, color in state.fields():
        board.set_content(socha.Coordinate(x, y), CONTENT_TO[color])
    theirs = socha.GameState(
        turn=0,
        board=board,
        start_piece=SHAPE_TO[state.start_piece],
        last_move_mono={COLOR_TO[c]: mono for c, mono in state.last_move_mono.items()},
    )
    for color in COLORS:
        left = set(state.undeployed(color))
        for name in SHAPES:
            if name not in left:
                theirs.remove_undeployed_piece(COLOR_TO[color], SHAPE_TO[name])
        if color not in state.valid_colors:
            # socha has no setter for the valid colours: remove each one while it is current.
            theirs.turn = COLORS.index(color)
            theirs.remove_active_color()
    theirs.turn = state.turn
    return theirs


def socha_placements(theirs: socha.GameState, first_move: bool) -> list[SetMove]:
    """Every placement socha generates for the current colour (start moves if first)."""
    if first_move:
        pieces = socha.GameRuleLogic.get_possible_start_moves(theirs, False)
    else:
        pieces = socha.GameRuleLogic.get_possible_moves(theirs)
    return [move_from_piece(piece) for piece in pieces]


def socha_mistake(theirs: socha.GameState, move: SetMove) -> str | None:
    """The mistake socha reports for `move`, by our Mistake name, or None if it is valid."""
    try:
        socha.GameRuleLogic.validate_set_move(theirs, piece_of(move))
    except Exception as error:
        return MISTAKE_FROM[type(error).__name__]
    return None


def socha_skip_mistake(theirs: socha.GameState, move: SkipMove) -> str | None:
    """The mistake socha reports for a SkipMove (colour first, then the first-move rule)."""
    try:
        socha.GameRuleLogic.validate_move_color(theirs, socha_move(move))
        socha.GameRuleLogic.validate_skip_move(theirs)
    except Exception as error:
        return MISTAKE_FROM[type(error).__name__]
    return None


def play(theirs: socha.GameState, move: blokus.Move) -> None:
    """Apply `move` the way the official server does: perform, then eliminate colours."""
    socha.GameRuleLogic.perform_move(theirs, socha_move(move))
    socha.GameRuleLogic.remove_invalid_colors(theirs)
