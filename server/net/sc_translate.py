"""Room events and lobby errors in Software-Challenge words (messages and official texts).

Used by the SC session (what each seat and observer receives) and by the replay writer, so
both say exactly the same thing. The Software-Challenge scoring (2/1/0 win points, a
violator's parts zeroed) lives here too: the room only knows the game's `Outcome`.
"""

from __future__ import annotations

from typing import Any

from protocols.sc import messages as m
from protocols.sc import texts
from server.rooms import (
    Cause,
    DecisionRequested,
    Entry,
    GameOver,
    LobbyError,
    LobbyErrorKind,
    MatchResult,
    MoveRejected,
    PauseChanged,
    Room,
    RoomClosed,
    StateChanged,
    Violation,
    Welcome,
)
from server.rooms.room import NOT_YOUR_TURN

TEAMS = m.TEAMS

# The official validation reports these two without the move ("bei '...'" suffix).
_MISTAKES_WITHOUT_MOVE = frozenset({"WRONG_SHAPE", "DUPLICATE_SHAPE"})


def player_name(room: Room, seat: int) -> str:
    """The display name, or the team name when it is blank (as the official reasons do)."""
    return room.display_name(seat) or TEAMS[seat]


def player_label(room: Room, seat: int) -> str:
    """`Player.toString()`-like label used in process-violation texts: `ONE(Alice)`."""
    return f"{TEAMS[seat]}({room.display_name(seat)})"


def process_text(room: Room, seat: int, process: str, expected: int | None, move: Any) -> str:
    """The official GameLogicException texts for a move out of turn or not requested."""
    if process == NOT_YOUR_TURN and expected is not None:
        return texts.not_your_turn(player_label(room, expected), player_label(room, seat), move)
    return texts.not_requested(player_label(room, seat))


def rejected_message(room: Room, event: MoveRejected) -> m.RoomError:
    if event.rule:
        description = None if event.mistake_name in _MISTAKES_WITHOUT_MOVE \
            else texts.move_text(event.move)
        text = texts.invalid_move_message(
            player_name(room, event.seat),
            texts.invalid_move_text(event.mistake_text, description),
        )
    else:
        text = process_text(room, event.seat, event.process, event.expected_seat, event.move)
    return m.RoomError(room.id, text, event.move)


# A crashed match has no SC cause of its own; the official server would not finish it at all.
CRASH_REASON = "Das Spiel wurde wegen eines Serverfehlers abgebrochen."


def sc_scores(result: MatchResult) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Win points and game points per seat, the Software-Challenge way.

    A regular end (or an admin's cancel) gives the winner 2 win points and the others 0, or
    everyone 1 when nobody won (the official 2/1/0), beside the game points; a violator gets
    zero for both parts and everyone else 2 plus their real points; a violation of every
    player (all seats failed: a loss for each) or a crash zeroes all.

    >>> from server.rooms import Outcome, Violation
    >>> sc_scores(MatchResult(Outcome(0, "regular", (30, 12))))
    ((2, 0), (30, 12))
    >>> sc_scores(MatchResult.broken(Violation(Cause.HARD_TIMEOUT, 0), (30, 12)))
    ((0, 2), (0, 12))
    """
    points = result.scores
    violation = result.violation
    if violation is None:
        winner = result.winner
        wins = tuple(1 if winner is None else 2 if seat == winner else 0
                     for seat in range(len(points)))
        return wins, points
    wins = tuple(0 if violation.seat in (None, seat) else 2 for seat in range(len(points)))
    kept = tuple(0 if violation.seat in (None, seat) else p for seat, p in enumerate(points))
    return wins, kept


def reason(room: Room, result: MatchResult) -> str:
    violation = result.violation
    if violation is None:
        if result.winner is None:
            return texts.TIE_REASON
        return texts.regular_win_reason(player_name(room, result.winner))
    return violation_reason(room, violation)


def violation_reason(room: Room, v: Violation) -> str:
    name = texts.ALL_PLAYERS if v.seat is None else player_name(room, v.seat)
    match v.cause:
        case Cause.LEFT:
            cause = v.left_cause.value if v.left_cause is not None else "UNKNOWN"
            return texts.left_reason(name, cause)
        case Cause.RULE_VIOLATION:
            description = None if v.mistake_name in _MISTAKES_WITHOUT_MOVE or v.move is None \
                else texts.move_text(v.move)  # type: ignore[arg-type]
            return texts.rule_violation_reason(name, v.mistake_text, description)
        case Cause.PROCESS_VIOLATION:
            assert v.seat is not None
            return texts.process_violation_reason(
                name, process_text(room, v.seat, v.process, v.expected_seat, v.move))
        case Cause.SOFT_TIMEOUT:
            return texts.soft_timeout_reason(name)
        case Cause.HARD_TIMEOUT:
            return texts.hard_timeout_reason(name)
        case Cause.CRASHED:
            return CRASH_REASON
    return texts.left_reason(name, "UNKNOWN")


def result_message(room: Room, result: MatchResult) -> m.Result:
    wins, points = sc_scores(result)
    scores = tuple(
        m.PlayerScore(TEAMS[seat], (wins[seat], points[seat]), room.display_name(seat))
        for seat in range(len(points))
    )
    team = None if result.winner is None else TEAMS[result.winner]
    return m.Result(room.id, scores, m.Winner(reason(room, result), result.regular, team))


def room_event_messages(room: Room, entry: Entry, seat: int | None) -> list[m.ServerMessage]:
    """The SC messages for one log entry, for `seat` (None = an observer)."""
    event = entry.event
    match event:
        case Welcome(seat=welcome_seat):
            return [m.Welcome(room.id, TEAMS[welcome_seat])]
        case StateChanged(views=views):
            return [m.Memento(room.id, views.of(seat))]
        case DecisionRequested():
            return [m.MoveRequest(room.id)]
        case MoveRejected():
            return [rejected_message(room, event)]
        case PauseChanged(paused=paused):
            return [m.Paused(room.id, paused)]
        case GameOver(result=result):
            return [result_message(room, result)]
        case RoomClosed():
            return [m.Left(room.id)]
    return []


def error_packet(error: LobbyError, request: Any) -> m.ErrorPacket:
    """The errorpacket answering a refused request (the connection stays open)."""
    kind = error.kind
    if kind is LobbyErrorKind.ROOM_NOT_FOUND:
        text = texts.room_not_found(str(error.subject))
    elif kind is LobbyErrorKind.ROOM_FULL:
        text = texts.room_full(str(error.subject))
    elif kind is LobbyErrorKind.RESERVATION_NOT_FOUND:
        text = texts.unknown_reservation()
    elif kind is LobbyErrorKind.NON_MOVE:
        room_id = getattr(request, "room_id", "")
        class_name = getattr(error.subject, "class_name", type(error.subject).__name__)
        text = texts.non_move_packet(room_id, class_name)
    elif kind is LobbyErrorKind.AUTH_FAILED:
        text = texts.authentication_failed()
    elif kind is LobbyErrorKind.AUTH_LOCKED:
        text = error.detail
    elif kind is LobbyErrorKind.UNAUTHENTICATED:
        text = texts.unauthenticated(request_description(request))
    elif kind is LobbyErrorKind.NOT_A_MEMBER:
        text = texts.game_room_error(f"Not a player in room {error.subject}")
    else:
        # Gauntlet's own limits and bad requests (the official server has none).
        text = texts.game_room_error(error.detail or kind.value)
    return m.ErrorPacket(text, request)


def request_description(request: Any) -> str:
    """How the official server names a request in "Request … requires authentication".

    It prints the request object; we print its element name, which is what a reader needs.
    """
    names = {
        m.Prepare: "prepare", m.Observe: "observe", m.Pause: "pause", m.Step: "step",
        m.Cancel: "cancel",
    }
    return names.get(type(request), type(request).__name__)


def end_of_stream(conn: Any) -> bytes:
    """The codec's closing `</protocol>` bytes (empty when already ended)."""
    if getattr(conn, "send_closed", False):
        return b""
    for name in ("end", "close"):
        method = getattr(conn, name, None)
        if callable(method):
            data = method()
            return data if isinstance(data, bytes) else b""
    return b"</protocol>"
