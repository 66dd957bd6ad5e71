"""Every human-readable text the official Software-Challenge server puts on the wire.

The texts are German (game) or English (lobby), spelled exactly as the official code
spells them, including its oddities: ``fuer``/``laenger`` without umlauts, the hard
timeout text that prints the *soft* timeout's 2 seconds, and the errorpacket messages
that are Java's ``Throwable.toString()`` (``fully.qualified.Class: text``).

>>> move_text(SetMove("BLUE", "PENTO_U", rotation="RIGHT", flipped=True, x=3, y=4))
'Setze PENTO_U(Farbe Blau, gedreht um 90°, gespiegelt)[3,4]'
>>> move_text(SkipMove("GREEN"))
'Farbe Grün setzt aus'
>>> rule_violation_reason("rad", "kalkül", "TestZug")
"Regelverletzung von rad: kalkül bei 'TestZug'"
"""

from __future__ import annotations

import math

from games.blokus import IllegalMove, Mistake, SetMove, SkipMove

__all__ = [
    "ALL_PLAYERS",
    "TIE_REASON",
    "authentication_failed",
    "color_name",
    "hard_timeout_reason",
    "illegal_move_text",
    "invalid_move_message",
    "invalid_move_text",
    "left_reason",
    "move_text",
    "non_move_packet",
    "process_violation_reason",
    "regular_win_reason",
    "room_full",
    "room_not_found",
    "rule_violation_reason",
    "soft_timeout_reason",
    "unauthenticated",
    "unknown_reservation",
]

_GERMAN_COLORS = {"BLUE": "Blau", "YELLOW": "Gelb", "RED": "Rot", "GREEN": "Grün"}
# `Rotation.toString()` is "gedreht um ${value * 90}°" with NONE=0, RIGHT=1, MIRROR=2,
# LEFT=3 quarter turns; `Piece.toString()` only prints it when the value is not 0.
_ROTATION_DEGREES = {"NONE": 0, "RIGHT": 90, "MIRROR": 180, "LEFT": 270}

TIE_REASON = "Beide Spieler sind gleichauf"
"""The winner reason of a regular draw (``<winner>`` then carries no team)."""

ALL_PLAYERS = "Alle Spieler"
"""Stands in for the violator's name when a violation has nobody to blame."""

# The soft timeout in seconds, as the official reason texts print it (see module doc).
_TIMEOUT_SECONDS = 2


def color_name(color: str) -> str:
    """``Color.toString()``: ``Farbe`` and the German colour name.

    >>> color_name("YELLOW")
    'Farbe Gelb'
    """
    return f"Farbe {_GERMAN_COLORS[color]}"


def move_text(move: SetMove | SkipMove) -> str:
    """``Move.toString()`` of the official server, as quoted in reasons and errors.

    >>> move_text(SetMove("RED", "MONO", x=0, y=19))
    'Setze MONO(Farbe Rot)[0,19]'
    >>> move_text(SetMove("BLUE", "DOMINO", rotation="LEFT", x=1, y=2))
    'Setze DOMINO(Farbe Blau, gedreht um 270°)[1,2]'
    """
    if isinstance(move, SkipMove):
        return f"{color_name(move.color)} setzt aus"
    degrees = _ROTATION_DEGREES[move.rotation]
    rotation = f", gedreht um {degrees}°" if degrees else ""
    flipped = ", gespiegelt" if move.flipped else ""
    return f"Setze {move.kind}({color_name(move.color)}{rotation}{flipped})[{move.x},{move.y}]"


def invalid_move_text(mistake_text: str, move_description: str | None = None) -> str:
    """``InvalidMoveException.message``: the mistake, then `` bei '<move>'`` if known.

    >>> invalid_move_text("Der erste Zug muss einen Stein setzen", "Farbe Blau setzt aus")
    "Der erste Zug muss einen Stein setzen bei 'Farbe Blau setzt aus'"
    """
    if move_description is None:
        return mistake_text
    return f"{mistake_text} bei '{move_description}'"


# The official validation throws these two without the move (see `validateShape`).
_WITHOUT_MOVE = frozenset({Mistake.WRONG_SHAPE, Mistake.DUPLICATE_SHAPE})


def illegal_move_text(error: IllegalMove) -> str:
    """The official exception text for an engine ``IllegalMove``.

    >>> from games.blokus.errors import IllegalMove, Mistake
    >>> illegal_move_text(IllegalMove(Mistake.WRONG_SHAPE, SetMove("BLUE", "MONO")))
    'Der erste Zug muss den festgelegten Spielstein setzen'
    >>> illegal_move_text(IllegalMove(Mistake.NOT_ON_BORDER, SetMove("BLUE", "MONO", x=5, y=5)))
    "Der erste Zug muss an den Rand gesetzt werden bei 'Setze MONO(Farbe Blau)[5,5]'"
    """
    if error.mistake in _WITHOUT_MOVE:
        return invalid_move_text(error.mistake.text)
    return invalid_move_text(error.mistake.text, move_text(error.move))


def invalid_move_message(player_name: str, exception_text: str) -> str:
    """The ``message`` of the ``error`` room message sent for a rule-invalid move.

    >>> invalid_move_message("Alice", "kaputt")
    "Ungueltiger Zug von 'Alice'.\\nkaputt"
    """
    return f"Ungueltiger Zug von '{player_name}'.\n{exception_text}"


# --- result reasons (`%s` is the winner's name for regular ends, the violator's else) ---


def regular_win_reason(winner_name: str) -> str:
    """Regular end with a winner (name, or ``ONE``/``TWO`` when the name is blank)."""
    return f"{winner_name} hat am meisten Punkte erzielt."


def left_reason(violator_name: str, cause: str) -> str:
    """``Violation.LEFT``; ``cause`` is a ``DisconnectCause`` name such as
    ``LOST_CONNECTION``, ``RECEIVED_DISCONNECT``, ``PROTOCOL_ERROR``, ``NOT_CONNECTED``.

    >>> left_reason("Bob", "LOST_CONNECTION")
    'Bob hat das Spiel verlassen: LOST_CONNECTION'
    """
    return f"{violator_name} hat das Spiel verlassen: {cause}"


def rule_violation_reason(
    violator_name: str, mistake_text: str, move_description: str | None = None
) -> str:
    """``Violation.RULE_VIOLATION``: ``Regelverletzung von %s: <mistake>[ bei '<move>']``."""
    return (
        f"Regelverletzung von {violator_name}: {invalid_move_text(mistake_text, move_description)}"
    )


def process_violation_reason(violator_name: str, text: str) -> str:
    """``Violation.PROCESS_VIOLATION`` (a move out of turn, or one nobody asked for)."""
    return f"Missachtung des Spielablaufs von {violator_name}: {text}"


def not_your_turn(expected_label: str, got_label: str, move: SetMove | SkipMove) -> str:
    """The GameLogicException text for a move from the team whose turn it is not.

    Labels are ``Player.toString()``-like: ``ONE(Alice)``.

    >>> not_your_turn("ONE(Alice)", "TWO(Bob)", SkipMove("YELLOW"))
    "It's not your turn yet; expected: ONE(Alice), got TWO(Bob) (msg was Farbe Gelb setzt aus)."
    """
    return (
        f"It's not your turn yet; expected: {expected_label}, got {got_label} "
        f"(msg was {move_text(move)})."
    )


def not_requested(label: str) -> str:
    """The GameLogicException text for a move nobody asked for (e.g. while paused)."""
    return f"Move from {label} has not been requested."


def soft_timeout_reason(violator_name: str) -> str:
    """``Violation.SOFT_TIMEOUT``: the move came, but after more than 2 seconds.

    >>> soft_timeout_reason("Bob")
    'Bob hat fuer die Antwort auf die Zugaufforderung laenger als 2 Sekunden gebraucht.'
    """
    return (
        f"{violator_name} hat fuer die Antwort auf die Zugaufforderung laenger als "
        f"{_TIMEOUT_SECONDS} Sekunden gebraucht."
    )


def hard_timeout_reason(violator_name: str) -> str:
    """``Violation.HARD_TIMEOUT``: no move at all. Sic: says 2 seconds although the
    hard timeout is 10 (the official server passes the soft value).

    >>> hard_timeout_reason("Bob")
    'Bob hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet.'
    """
    return (
        f"{violator_name} hat innerhalb von {_TIMEOUT_SECONDS} Sekunden nach Aufforderung "
        "keinen Zug gesendet."
    )


# --- errorpacket messages (`Throwable.toString()` of the official exceptions) ----------

_GAME_ROOM_EXCEPTION = "sc.api.plugins.exceptions.GameRoomException"


def game_room_error(text: str) -> str:
    """An errorpacket text for a room-level refusal (Gauntlet's own limits, non-members)."""
    return f"{_GAME_ROOM_EXCEPTION}: {text}"


def unknown_reservation() -> str:
    """``joinPrepared`` with a code that matches no open reservation."""
    return (
        "sc.server.gaming.UnknownReservationException: "
        "Couldn't find a reservation for the provided token."
    )


def room_full(room_id: str) -> str:
    """``joinRoom`` on a room without a free unreserved slot."""
    return f"{_GAME_ROOM_EXCEPTION}: Room {room_id} is already full!"


def room_not_found(room_id: str) -> str:
    """Any request naming a room that does not exist (also a move after the game ended)."""
    return f"{_GAME_ROOM_EXCEPTION}: Couldn't find a room with id {room_id}"


def non_move_packet(room_id: str, class_name: str) -> str:
    """A ``<room>`` packet whose ``<data>`` is not a move.

    The official text embeds Kotlin's ``RoomPacket.toString()``, whose ``data`` part is
    a JVM object identity; we print the data's class name instead.

    >>> non_move_packet("r", "moveRequest").split(": ", 1)[1]
    'Received non-move packet: RoomPacket(roomId=r, data=moveRequest)'
    """
    return (
        f"{_GAME_ROOM_EXCEPTION}: Received non-move packet: "
        f"RoomPacket(roomId={room_id}, data={class_name})"
    )


def authentication_failed() -> str:
    """``authenticate`` with a wrong password."""
    return (
        "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator"
    )


def authentication_locked(attempts: int, seconds: float) -> str:
    """Gauntlet's own: ``authenticate`` from an address locked out after wrong passwords.

    The official server's exception, so that a client that matches on it still sees a
    failed login, with why and for how long.

    >>> authentication_locked(5, 299.2).split(": ", 2)[2]
    '5 wrong passwords from this address, locked out for 300 s'
    """
    return (
        f"{authentication_failed()}: {attempts} wrong passwords from this address, "
        f"locked out for {math.ceil(seconds)} s"
    )


def unauthenticated(request_description: str) -> str:
    """An administrator request from a client that did not authenticate.

    >>> unauthenticated("prepare")
    'sc.server.network.UnauthenticatedException: Request prepare requires authentication'
    """
    return (
        "sc.server.network.UnauthenticatedException: "
        f"Request {request_description} requires authentication"
    )


def rate_limited(per_second: float) -> str:
    """Gauntlet's own: a client sent messages faster than the server accepts (then it closes).

    The official server has no rate limit; the text follows its exception-name style.

    >>> rate_limited(200.0)
    'sc.server.network.RateLimitException: More than 200 messages per second'
    """
    return f"sc.server.network.RateLimitException: More than {per_second:g} messages per second"


def refused(reason: str, detail: str) -> str:
    """Gauntlet's own: the server turns a connection away (then it closes): the server is
    full, the address has too many connections, or nothing was joined in time.

    >>> refused("server_full", "1000 connections")
    'sc.server.network.ConnectionRefusedException: server_full: 1000 connections'
    """
    return f"sc.server.network.ConnectionRefusedException: {reason}: {detail}"
