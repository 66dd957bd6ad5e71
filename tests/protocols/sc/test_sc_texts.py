"""The official texts: move descriptions, mistakes, result reasons, errorpackets."""

from __future__ import annotations

import pytest

from games.blokus import IllegalMove, Mistake, SetMove, SkipMove, State, new_game
from protocols.sc import texts


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        (SetMove("BLUE", "PENTO_U", x=17, y=0), "Setze PENTO_U(Farbe Blau)[17,0]"),
        (
            SetMove("YELLOW", "PENTO_U", rotation="RIGHT", x=18, y=17),
            "Setze PENTO_U(Farbe Gelb, gedreht um 90°)[18,17]",
        ),
        (
            SetMove("RED", "TETRO_L", rotation="MIRROR", flipped=True, x=0, y=18),
            "Setze TETRO_L(Farbe Rot, gedreht um 180°, gespiegelt)[0,18]",
        ),
        (
            SetMove("GREEN", "PENTO_U", rotation="LEFT", x=-1, y=-2),
            "Setze PENTO_U(Farbe Grün, gedreht um 270°)[-1,-2]",
        ),
        (SetMove("GREEN", "PENTO_U", flipped=True), "Setze PENTO_U(Farbe Grün, gespiegelt)[0,0]"),
        (SkipMove("BLUE"), "Farbe Blau setzt aus"),
        (SkipMove("YELLOW"), "Farbe Gelb setzt aus"),
    ],
)
def test_move_text_is_the_official_to_string(move: SetMove | SkipMove, expected: str) -> None:
    assert texts.move_text(move) == expected


def illegal(state: State, move: SetMove | SkipMove) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        state.apply(move)
    return caught.value


def test_engine_mistakes_become_the_official_exception_texts() -> None:
    """The reference §6 vectors (start PENTO_U, empty board), through the engine."""
    state = new_game(start_piece="PENTO_U")
    wrong_color = illegal(state, SetMove("RED", "MONO"))
    assert texts.illegal_move_text(wrong_color) == (
        "Nur eigene Spielfiguren können gezogen werden bei 'Setze MONO(Farbe Rot)[0,0]'"
    )
    # WRONG_SHAPE and DUPLICATE_SHAPE are thrown without the move: no " bei '...'".
    assert texts.illegal_move_text(illegal(state, SetMove("BLUE", "PENTO_S"))) == (
        "Der erste Zug muss den festgelegten Spielstein setzen"
    )
    assert texts.illegal_move_text(illegal(state, SkipMove("BLUE"))) == (
        "Der erste Zug muss einen Stein setzen bei 'Farbe Blau setzt aus'"
    )
    assert texts.illegal_move_text(illegal(state, SetMove("BLUE", "PENTO_U", x=-1, y=-1))) == (
        "Der Spielstein passt nicht vollständig auf das Spielfeld "
        "bei 'Setze PENTO_U(Farbe Blau)[-1,-1]'"
    )
    assert texts.illegal_move_text(illegal(state, SetMove("BLUE", "PENTO_U", x=10, y=10))) == (
        "Der erste Zug muss an den Rand gesetzt werden bei 'Setze PENTO_U(Farbe Blau)[10,10]'"
    )


def test_duplicate_shape_has_no_move_suffix() -> None:
    state = new_game(start_piece="PENTO_I")
    piece = SetMove("BLUE", "PENTO_I", rotation="RIGHT", flipped=True, x=0, y=0)
    state.apply(piece)
    state.apply(SetMove("YELLOW", "PENTO_I", x=19, y=15))
    state.apply(SetMove("RED", "PENTO_I", rotation="RIGHT", x=0, y=19))
    state.apply(SetMove("GREEN", "PENTO_I", x=19, y=0))
    error = illegal(state, SetMove("BLUE", "PENTO_I", rotation="RIGHT", x=5, y=1))
    assert error.mistake is Mistake.DUPLICATE_SHAPE
    assert texts.illegal_move_text(error) == "Der gewählte Stein wurde bereits gesetzt"


def test_room_error_message_layout() -> None:
    assert (
        texts.invalid_move_message("Alice", "x bei 'y'")
        == "Ungueltiger Zug von 'Alice'.\nx bei 'y'"
    )


def test_result_reasons() -> None:
    assert texts.regular_win_reason("ONE") == "ONE hat am meisten Punkte erzielt."
    assert texts.TIE_REASON == "Beide Spieler sind gleichauf"
    assert (
        texts.left_reason("Bob", "PROTOCOL_ERROR") == "Bob hat das Spiel verlassen: PROTOCOL_ERROR"
    )
    assert texts.rule_violation_reason("rad", "kalkül", "TestZug") == (
        "Regelverletzung von rad: kalkül bei 'TestZug'"
    )
    assert texts.process_violation_reason("Bob", "Move from TWO(Bob) has not been requested.") == (
        "Missachtung des Spielablaufs von Bob: Move from TWO(Bob) has not been requested."
    )
    assert texts.soft_timeout_reason(texts.ALL_PLAYERS) == (
        "Alle Spieler hat fuer die Antwort auf die Zugaufforderung laenger als 2 Sekunden "
        "gebraucht."
    )
    # Sic: the official hard timeout text prints the soft timeout's 2 seconds.
    assert texts.hard_timeout_reason("Bob") == (
        "Bob hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet."
    )


def test_errorpacket_messages_are_java_throwable_strings() -> None:
    assert texts.unknown_reservation() == (
        "sc.server.gaming.UnknownReservationException: "
        "Couldn't find a reservation for the provided token."
    )
    assert (
        texts.room_full("R")
        == "sc.api.plugins.exceptions.GameRoomException: Room R is already full!"
    )
    assert texts.room_not_found("X") == (
        "sc.api.plugins.exceptions.GameRoomException: Couldn't find a room with id X"
    )
    assert texts.authentication_failed() == (
        "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator"
    )
    assert texts.non_move_packet("R", "memento").startswith(
        "sc.api.plugins.exceptions.GameRoomException: Received non-move packet: "
    )
    assert texts.unauthenticated("observe").endswith("requires authentication")
