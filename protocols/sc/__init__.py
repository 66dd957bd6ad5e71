"""The Software-Challenge XML protocol (``swc_2027_blokus``), sans-I/O.

Feed bytes, get messages; send a message, get bytes. The server side:

>>> from protocols.sc import ServerConnection, Joined, RoomPacket, NEED_DATA
>>> server = ServerConnection()
>>> server.receive_data(b"<protocol><join/><room roomId='r'><data class='sc.plugin2027.SkipMove'>")
>>> server.next_event()
Join(game_type=None)
>>> server.next_event()
NEED_DATA
>>> server.receive_data(b"<color>RED</color></data></room>")
>>> server.next_event()
RoomPacket(room_id='r', data=SkipMove('RED'))
>>> server.send(Joined("r"))
b'<protocol>\\n  <joined roomId="r"/>'

A bot's side is ``ClientConnection`` (parses server messages, writes client messages).
``receive_data(b"")`` signals end of file; ``</protocol>`` from the peer becomes
``StreamEnd()``, end of file ``ConnectionClosed()``. A peer that breaks the protocol
raises ``ProtocolError`` (subclass ``LimitExceeded`` for the size/depth limits); the
connection then refuses further use. ``close()`` gives our closing ``</protocol>``.

Byte-level choices and where we are more tolerant than the official server:
``docs/sc-protocol.md``.
"""

from protocols.base import (
    NEED_DATA,
    ConnectionClosed,
    LimitExceeded,
    Limits,
    LocalProtocolError,
    ProtocolError,
    StreamEnd,
)
from protocols.sc.connection import (
    ClientConnection,
    ServerConnection,
    client_message_body,
    server_message_body,
)
from protocols.sc.messages import (
    BLOKUS_DEFINITION,
    BLOKUS_GAME_TYPE,
    Authenticate,
    Cancel,
    ClientMessage,
    Close,
    ErrorPacket,
    Join,
    Joined,
    JoinedGameRoom,
    JoinPrepared,
    JoinRoom,
    Left,
    Memento,
    MoveRequest,
    Observe,
    Observed,
    Pause,
    Paused,
    PlayerScore,
    Prepare,
    Prepared,
    Result,
    RoomError,
    RoomPacket,
    ScoreFragment,
    ServerMessage,
    Slot,
    Step,
    UnknownData,
    Welcome,
    Winner,
)

__all__ = [
    "BLOKUS_DEFINITION",
    "BLOKUS_GAME_TYPE",
    "NEED_DATA",
    "Authenticate",
    "Cancel",
    "ClientConnection",
    "ClientMessage",
    "Close",
    "ConnectionClosed",
    "ErrorPacket",
    "Join",
    "JoinPrepared",
    "JoinRoom",
    "Joined",
    "JoinedGameRoom",
    "Left",
    "LimitExceeded",
    "Limits",
    "LocalProtocolError",
    "Memento",
    "MoveRequest",
    "Observe",
    "Observed",
    "Pause",
    "Paused",
    "PlayerScore",
    "Prepare",
    "Prepared",
    "ProtocolError",
    "Result",
    "RoomError",
    "RoomPacket",
    "ScoreFragment",
    "ServerConnection",
    "ServerMessage",
    "Slot",
    "Step",
    "StreamEnd",
    "UnknownData",
    "Welcome",
    "Winner",
    "client_message_body",
    "server_message_body",
]
