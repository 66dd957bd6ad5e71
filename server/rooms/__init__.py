"""Rooms: lobby, matches, seats, clocks, admin control — no wire formats here.

`Lobby` places clients in `Room`s; a room runs one match in its own task and reports
everything through its `MatchLog` to `PlayerLink`s and `ObserverLink`s (protocol sessions).
"""

from server.rooms.errors import LobbyError, LobbyErrorKind
from server.rooms.events import (
    Entry,
    GameOver,
    MatchLog,
    MoveRejected,
    MoveRequested,
    PauseChanged,
    RoomClosed,
    RoomEvent,
    StateChanged,
    Welcome,
)
from server.rooms.game import BLOKUS_GAME_TYPE, BlokusGame, Game, RuleViolation, UnknownGameType
from server.rooms.lobby import AdminLink, Lobby, Seating, SlotRequest
from server.rooms.result import Cause, LeftCause, MatchResult, Violation
from server.rooms.room import Clocks, ObserverLink, PlayerLink, Room, ServerStats, Slot

__all__ = [
    "BLOKUS_GAME_TYPE",
    "AdminLink",
    "BlokusGame",
    "Cause",
    "Clocks",
    "Entry",
    "Game",
    "GameOver",
    "LeftCause",
    "Lobby",
    "LobbyError",
    "LobbyErrorKind",
    "MatchLog",
    "MatchResult",
    "MoveRejected",
    "MoveRequested",
    "ObserverLink",
    "PauseChanged",
    "PlayerLink",
    "Room",
    "RoomClosed",
    "RoomEvent",
    "RuleViolation",
    "Seating",
    "ServerStats",
    "Slot",
    "SlotRequest",
    "StateChanged",
    "UnknownGameType",
    "Violation",
    "Welcome",
]
