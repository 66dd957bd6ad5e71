"""Rooms: lobby, matches, seats, clocks, admin control — no wire formats here.

`Lobby` places clients in `Room`s; a room runs one match of any registered game in its own
task, asks the game's adapter (`Game`) who must decide what (`Decision`s), and reports
everything through its `MatchLog` to `PlayerLink`s and `ObserverLink`s (protocol sessions or
in-process seats).
"""

from server.rooms.errors import LobbyError, LobbyErrorKind
from server.rooms.events import (
    DecisionRequested,
    Entry,
    GameOver,
    MatchLog,
    MoveRejected,
    PauseChanged,
    RoomClosed,
    RoomEvent,
    StateChanged,
    Welcome,
)
from server.rooms.game import (
    Clock,
    Decision,
    Game,
    OnRefusal,
    RuleViolation,
    UnknownGameType,
    Views,
)
from server.rooms.lobby import AdminLink, Lobby, Seating, SlotRequest
from server.rooms.result import Cause, LeftCause, MatchResult, Outcome, Violation
from server.rooms.room import (
    Clocks,
    ObserverLink,
    PlayerLink,
    Room,
    RoomPhase,
    ServerStats,
    Slot,
)

__all__ = [
    "AdminLink",
    "Cause",
    "Clock",
    "Clocks",
    "Decision",
    "DecisionRequested",
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
    "ObserverLink",
    "OnRefusal",
    "Outcome",
    "PauseChanged",
    "PlayerLink",
    "Room",
    "RoomClosed",
    "RoomEvent",
    "RoomPhase",
    "RuleViolation",
    "Seating",
    "ServerStats",
    "Slot",
    "SlotRequest",
    "StateChanged",
    "UnknownGameType",
    "Views",
    "Violation",
    "Welcome",
]
