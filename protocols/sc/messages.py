"""Every Software-Challenge message as a frozen dataclass.

Client to server (what ``ServerConnection.next_event`` returns): ``Join``, ``JoinRoom``,
``JoinPrepared``, ``Authenticate``, ``Prepare`` (with ``Slot``), ``Observe``, ``Pause``,
``Step``, ``Cancel``, ``Close`` and ``RoomPacket`` (a move, or ``UnknownData`` that the
server must answer with an errorpacket "Received non-move packet").

Server to client (what ``ServerConnection.send`` takes): ``Joined``, ``Left``,
``JoinedGameRoom``, ``Prepared``, ``Observed``, ``ErrorPacket`` at top level, and the
room-wrapped ``Welcome``, ``Memento``, ``MoveRequest``, ``RoomError``, ``Result``,
``Paused``, which all carry the ``room_id`` of their ``<room>`` envelope. ``Close`` goes
both ways (the official server sends it when it ends a connection itself).

Blokus moves are the engine's own ``games.blokus.SetMove`` / ``SkipMove``; a memento
carries an engine ``State``.

>>> Join()
Join(game_type=None)
>>> Pause("r1", True)
Pause(room_id='r1', pause=True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.blokus import GAME_TYPE, SetMove, SkipMove

if TYPE_CHECKING:
    from games.blokus import State

__all__ = [
    "BLOKUS_DEFINITION",
    "BLOKUS_GAME_TYPE",
    "Authenticate",
    "Cancel",
    "ClientMessage",
    "Close",
    "ErrorPacket",
    "Join",
    "JoinPrepared",
    "JoinRoom",
    "Joined",
    "JoinedGameRoom",
    "Left",
    "Memento",
    "Move",
    "MoveRequest",
    "Observe",
    "Observed",
    "Pause",
    "Paused",
    "PlayerScore",
    "Prepare",
    "Prepared",
    "Result",
    "RoomError",
    "RoomPacket",
    "ScoreFragment",
    "ServerMessage",
    "Slot",
    "Step",
    "UnknownData",
    "Welcome",
    "Winner",
]

# The engine owns the id; this name stays for the code that imported it from here.
BLOKUS_GAME_TYPE = GAME_TYPE

Move = SetMove | SkipMove


# --- client -> server ------------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    """``<join/>``: join any open room, or create one of ``game_type`` (None = any)."""

    game_type: str | None = None


@dataclass(frozen=True)
class JoinRoom:
    """``<joinRoom roomId=".."/>``: take a free unreserved slot of that room."""

    room_id: str


@dataclass(frozen=True)
class JoinPrepared:
    """``<joinPrepared reservationCode=".."/>``: take a reserved slot."""

    reservation_code: str


@dataclass(frozen=True)
class Authenticate:
    """``<authenticate password=".."/>``: become an administrator (no reply on success)."""

    password: str


@dataclass(frozen=True)
class Slot:
    """One seat of a prepared game; slot 1 is team ONE."""

    display_name: str = ""
    can_timeout: bool = True
    reserved: bool = True


@dataclass(frozen=True)
class Prepare:
    """``<prepare gameType=".." pause=".."><slot .../>...</prepare>`` (admin)."""

    game_type: str = BLOKUS_GAME_TYPE
    pause: bool = False
    slots: tuple[Slot, ...] = (Slot(), Slot())


@dataclass(frozen=True)
class Observe:
    """``<observe roomId=".."/>`` (admin)."""

    room_id: str


@dataclass(frozen=True)
class Pause:
    """``<pause roomId=".." pause="true|false"/>`` (admin)."""

    room_id: str
    pause: bool


@dataclass(frozen=True)
class Step:
    """``<step roomId=".." forced=".."/>`` (admin)."""

    room_id: str
    forced: bool = False


@dataclass(frozen=True)
class Cancel:
    """``<cancel roomId=".."/>`` (admin)."""

    room_id: str


@dataclass(frozen=True)
class Close:
    """``<close/>``: the sender is leaving; ``</protocol>`` follows.

    Both directions: a client says goodbye with it, and the official server sends it
    when it stops a connection on its own initiative (``XStreamClient.stop``).
    """


@dataclass(frozen=True)
class UnknownData:
    """A ``<data>`` the server understands but that is not a move (e.g. ``moveRequest``).

    ``xml`` is the ``<data>`` element as received (re-serialised), for logs and the
    errorpacket's ``originalRequest``.
    """

    class_name: str
    xml: str = field(default="", compare=False)


@dataclass(frozen=True)
class RoomPacket:
    """``<room roomId=".."><data class="sc.plugin2027.SetMove">...</data></room>``."""

    room_id: str
    data: Move | UnknownData


ClientMessage = (
    Join
    | JoinRoom
    | JoinPrepared
    | Authenticate
    | Prepare
    | Observe
    | Pause
    | Step
    | Cancel
    | Close
    | RoomPacket
)


# --- server -> client ------------------------------------------------------------------


@dataclass(frozen=True)
class Joined:
    """``<joined roomId=".."/>``: the request to join succeeded."""

    room_id: str


@dataclass(frozen=True)
class Left:
    """``<left roomId=".."/>``: the room is gone (after the result)."""

    room_id: str


@dataclass(frozen=True)
class JoinedGameRoom:
    """``<joinedGameRoom roomId=".." playerCount=".."/>``: sent to administrators."""

    room_id: str
    player_count: int


@dataclass(frozen=True)
class Prepared:
    """``<prepared roomId=".."><reservation>..</reservation>...</prepared>``."""

    room_id: str
    reservations: tuple[str, ...]


@dataclass(frozen=True)
class Observed:
    """``<observed roomId=".."/>``: the admin now observes that room."""

    room_id: str


@dataclass(frozen=True)
class ErrorPacket:
    """``<errorpacket message=".."><originalRequest class=".." .../></errorpacket>``.

    ``message`` is Java's ``Throwable.toString()`` (``fully.qualified.Exception: text``;
    see ``texts``). The connection stays open.
    """

    message: str
    original_request: ClientMessage | None = None


TEAMS: tuple[str, ...] = ("ONE", "TWO")
"""The Software-Challenge's team names, seat by seat, whatever the year's game."""


@dataclass(frozen=True)
class Welcome:
    """``<data class="welcomeMessage" color="ONE"/>``: which team this client plays."""

    room_id: str
    team: str


@dataclass(frozen=True, eq=False)
class Memento:
    """``<data class="memento"><state class="state" ...>``: the game state.

    Equality compares the serialised state, so it does not depend on the engine
    defining ``State.__eq__``.
    """

    room_id: str
    state: State

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Memento):
            return NotImplemented
        from protocols.sc.blokus import state_key

        return self.room_id == other.room_id and state_key(self.state) == state_key(other.state)

    def __hash__(self) -> int:
        from protocols.sc.blokus import state_key

        return hash((self.room_id, state_key(self.state)))


@dataclass(frozen=True)
class MoveRequest:
    """``<data class="moveRequest"/>``: the addressed client must send a move now."""

    room_id: str


@dataclass(frozen=True)
class RoomError:
    """``<data class="error" message=".."><originalMessage class="..">``: invalid move.

    ``message`` is ``texts.invalid_move_message(...)``; ``original`` the offending move.
    """

    room_id: str
    message: str
    original: Move | None = None


@dataclass(frozen=True)
class ScoreFragment:
    """One ``<fragment>`` of the result's ``<definition>``."""

    name: str
    aggregation: str = "SUM"
    relevant_for_ranking: bool = True


BLOKUS_DEFINITION: tuple[ScoreFragment, ...] = (
    ScoreFragment("Siegpunkte", "SUM", True),
    ScoreFragment("Punkte", "AVERAGE", True),
)


@dataclass(frozen=True)
class PlayerScore:
    """One ``<entry>``: the player (``name`` omitted on the wire when blank) and parts."""

    team: str
    parts: tuple[int, ...]
    name: str = ""


@dataclass(frozen=True)
class Winner:
    """``<winner team=".." regular=".." reason=".."/>``; ``team`` None on a tie."""

    reason: str
    regular: bool = True
    team: str | None = None


@dataclass(frozen=True)
class Result:
    """``<data class="result">``: definition, scores (team ONE first), winner."""

    room_id: str
    scores: tuple[PlayerScore, ...]
    winner: Winner | None
    definition: tuple[ScoreFragment, ...] = BLOKUS_DEFINITION


@dataclass(frozen=True)
class Paused:
    """``<data class="paused" paused=".."/>``: sent to observers."""

    room_id: str
    paused: bool


ServerMessage = (
    Close
    | Joined
    | Left
    | JoinedGameRoom
    | Prepared
    | Observed
    | ErrorPacket
    | Welcome
    | Memento
    | MoveRequest
    | RoomError
    | Result
    | Paused
)

RoomMessage = Welcome | Memento | MoveRequest | RoomError | Result | Paused
