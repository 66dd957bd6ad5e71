"""Transcripts: whole conversations through the codec, as the official flow (§3) runs them.

The rooms logic here is a few lines of test driver (the real one lives in ``server/``):
what is under test is that our two connection ends, the engine and the official texts
produce exactly the official bytes (error paths, written out by hand from the reference)
and that a whole game's stream is consistent end to end (every memento equals the
engine's state, the official Python client splits and reads every message).
"""

from __future__ import annotations

import random
import re

from lxml import etree
from socha.api.networking.network_socket import NetworkSocket
from socha.api.networking.utils import message_to_state
from socha.api.networking.xml_protocol_interface import custom_class_factory
from test_sc_reference_vectors import CONVERTER_TURN_0
from xsdata.formats.dataclass.context import XmlContext
from xsdata.formats.dataclass.parsers import XmlParser
from xsdata.formats.dataclass.parsers.config import ParserConfig
from xsdata.formats.dataclass.parsers.handlers import XmlEventHandler

from games.blokus import TEAMS, IllegalMove, State, new_game, team_of
from protocols.base import NEED_DATA, ConnectionClosed, StreamEnd
from protocols.sc import (
    Authenticate,
    ClientConnection,
    Close,
    ErrorPacket,
    Join,
    Joined,
    JoinPrepared,
    JoinRoom,
    Left,
    Memento,
    MoveRequest,
    Observe,
    PlayerScore,
    Result,
    RoomError,
    RoomPacket,
    ServerConnection,
    UnknownData,
    Welcome,
    Winner,
    texts,
)
from protocols.sc.messages import ServerMessage


def events_of(connection: ServerConnection | ClientConnection, data: bytes) -> list[object]:
    connection.receive_data(data)
    events = []
    while (event := connection.next_event()) is not NEED_DATA:
        events.append(event)
    return events


def indent(xml: str, spaces: int) -> str:
    return xml.replace("\n", "\n" + " " * spaces)


# --- a rule violation on the first move, byte for byte ---------------------------------

RULE_VIOLATION_STREAM = f"""<protocol>
  <joined roomId="R"/>
  <room roomId="R">
    <data class="welcomeMessage" color="ONE"/>
  </room>
  <room roomId="R">
    <data class="memento">
      {indent(CONVERTER_TURN_0, 6)}
    </data>
  </room>
  <room roomId="R">
    <data class="moveRequest"/>
  </room>
  <room roomId="R">
    <data class="error" message="Ungueltiger Zug von &apos;Alice&apos;.&#xa;Der erste Zug muss \
den festgelegten Spielstein setzen">
      <originalMessage class="sc.plugin2027.SetMove">
        <piece color="BLUE" kind="PENTO_S" rotation="LEFT" isFlipped="true">
          <position x="0" y="0"/>
        </piece>
      </originalMessage>
    </data>
  </room>
  <room roomId="R">
    <data class="result">
      <definition>
        <fragment name="Siegpunkte">
          <aggregation>SUM</aggregation>
          <relevantForRanking>true</relevantForRanking>
        </fragment>
        <fragment name="Punkte">
          <aggregation>AVERAGE</aggregation>
          <relevantForRanking>true</relevantForRanking>
        </fragment>
      </definition>
      <scores>
        <entry>
          <player name="Alice" team="ONE"/>
          <score>
            <part>0</part>
            <part>0</part>
          </score>
        </entry>
        <entry>
          <player name="Bob" team="TWO"/>
          <score>
            <part>2</part>
            <part>0</part>
          </score>
        </entry>
      </scores>
      <winner team="TWO" regular="false" reason="Regelverletzung von Alice: Der erste Zug muss \
den festgelegten Spielstein setzen"/>
    </data>
  </room>
  <left roomId="R"/>
</protocol>"""


def test_rule_violation_transcript() -> None:
    # Alice joins with a reservation and opens with the wrong shape.
    server = ServerConnection()
    alice = ClientConnection()
    state = new_game(start_piece="PENTO_I")
    assert events_of(server, alice.send(JoinPrepared("code-a"))) == [JoinPrepared("code-a")]
    out = [server.send(Joined("R")), server.send(Welcome("R", "ONE"))]
    out += [server.send(Memento("R", state)), server.send(MoveRequest("R"))]
    wire_move = b'\n  <room roomId="R"><data class="sc.plugin2027.SetMove"><piece color="BLUE" '
    wire_move += b'kind="PENTO_S" rotation="LEFT" isFlipped="true"><position x="0" y="0"/>'
    wire_move += b"</piece></data></room>"
    [packet] = events_of(server, wire_move)
    assert isinstance(packet, RoomPacket)
    try:
        state.apply(packet.data)  # type: ignore[arg-type]
    except IllegalMove as error:
        exception_text = texts.illegal_move_text(error)
    out.append(
        server.send(
            RoomError("R", texts.invalid_move_message("Alice", exception_text), packet.data)  # type: ignore[arg-type]
        )
    )
    out.append(
        server.send(
            Result(
                "R",
                (PlayerScore("ONE", (0, 0), "Alice"), PlayerScore("TWO", (2, 0), "Bob")),
                Winner(f"Regelverletzung von Alice: {exception_text}", False, "TWO"),
            )
        )
    )
    out += [server.send(Left("R")), server.close()]
    assert b"".join(out).decode() == RULE_VIOLATION_STREAM


# --- lobby errors: errorpackets with the original request, connection stays -------------

LOBBY_REQUESTS = (
    b"<protocol>"
    b'<joinPrepared reservationCode="nope"/>'
    b'<joinRoom roomId="full"/>'
    b'<room roomId="gone"><data class="sc.plugin2027.SkipMove"><color>BLUE</color></data></room>'
    b'<room roomId="R"><data class="moveRequest"/></room>'
    b'<authenticate password="wrong"/>'
    b'<observe roomId="R"/>'
    b"<close/>"
    b"</protocol>"
)

LOBBY_ANSWERS = """<protocol>
  <errorpacket message="sc.server.gaming.UnknownReservationException: Couldn&apos;t find a \
reservation for the provided token.">
    <originalRequest class="joinPrepared" reservationCode="nope"/>
  </errorpacket>
  <errorpacket message="sc.api.plugins.exceptions.GameRoomException: Room full is already full!">
    <originalRequest class="joinRoom" roomId="full"/>
  </errorpacket>
  <errorpacket message="sc.api.plugins.exceptions.GameRoomException: Couldn&apos;t find a room \
with id gone">
    <originalRequest class="room" roomId="gone">
      <data class="sc.plugin2027.SkipMove">
        <color>BLUE</color>
      </data>
    </originalRequest>
  </errorpacket>
  <errorpacket message="sc.api.plugins.exceptions.GameRoomException: Received non-move packet: \
RoomPacket(roomId=R, data=moveRequest)">
    <originalRequest class="room" roomId="R">
      <data class="moveRequest"/>
    </originalRequest>
  </errorpacket>
  <errorpacket message="sc.server.network.AuthenticationFailedException: Failed to authenticate \
as administrator">
    <originalRequest class="authenticate" password="wrong"/>
  </errorpacket>
  <errorpacket message="sc.server.network.UnauthenticatedException: Request observe requires \
authentication">
    <originalRequest class="observe" roomId="R"/>
  </errorpacket>
</protocol>"""


def test_lobby_error_transcript() -> None:
    server = ServerConnection()
    requests = events_of(server, LOBBY_REQUESTS)
    assert requests[-2:] == [Close(), StreamEnd()]
    answers = []
    for request in requests[:-2]:
        match request:
            case JoinPrepared():
                text = texts.unknown_reservation()
            case JoinRoom(room_id=room_id):
                text = texts.room_full(room_id)
            case RoomPacket(room_id=room_id, data=UnknownData(class_name=class_name)):
                text = texts.non_move_packet(room_id, class_name)
            case RoomPacket(room_id=room_id):
                text = texts.room_not_found(room_id)
            case Authenticate():
                text = texts.authentication_failed()
            case Observe():
                text = texts.unauthenticated("observe")
        answers.append(server.send(ErrorPacket(text, request)))  # type: ignore[arg-type]
    assert (b"".join(answers) + server.close()).decode() == LOBBY_ANSWERS
    # The Python client reads every errorpacket's message (it then stops, by design).
    client = ClientConnection()
    received = events_of(client, LOBBY_ANSWERS.encode())
    assert [type(event) for event in received] == [ErrorPacket] * 6 + [StreamEnd]
    assert [event.original_request for event in received[:-1]] == requests[:-2]  # type: ignore[attr-defined]


# --- a whole game, end to end -----------------------------------------------------------


def socha_parser() -> XmlParser:
    return XmlParser(
        handler=XmlEventHandler,
        context=XmlContext(),
        config=ParserConfig(class_factory=custom_class_factory),
    )


class FakeSocket:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)

    def recv(self, _size: int) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""


class Bot:
    """A player on the wire: its own connection pair, picks random legal moves from the
    state it *parsed*, never from the server's engine."""

    def __init__(self, seed: int) -> None:
        self.client = ClientConnection()
        self.server_side = ServerConnection()
        self.rng = random.Random(seed)
        self.state: State | None = None
        self.team: str | None = None
        self.stream = bytearray()  # everything the server sent to this bot
        self.writes: list[bytes] = []  # the same, one entry per send

    def deliver(self, message: ServerMessage) -> list[object]:
        data = self.server_side.send(message)
        self.stream += data
        self.writes.append(data)
        events = events_of(self.client, data)
        for event in events:
            if isinstance(event, Memento):
                self.state = event.state
            if isinstance(event, Welcome):
                self.team = event.team
        return events

    def answer(self, room_id: str) -> object:
        assert self.state is not None
        move = self.rng.choice(list(self.state.legal_moves()))
        [packet] = events_of(self.server_side, self.client.send(RoomPacket(room_id, move)))
        return packet


def play_whole_game(seed: int) -> tuple[State, list[Bot]]:
    bots = [Bot(seed), Bot(seed + 1)]
    for bot in bots:
        assert events_of(bot.server_side, bot.client.send(Join())) == [Join()]
        assert bot.deliver(Joined("R")) == [Joined("R")]
    state = new_game(seed=seed)
    for bot, team in zip(bots, TEAMS, strict=True):
        bot.deliver(Welcome("R", team))
    while True:
        for bot in bots:
            [memento] = bot.deliver(Memento("R", state))
            assert memento == Memento("R", state)
        if state.is_over:
            break
        mover = bots[TEAMS.index(team_of(state.current_color))]
        assert mover.deliver(MoveRequest("R")) == [MoveRequest("R")]
        packet = mover.answer("R")
        assert isinstance(packet, RoomPacket)
        assert packet.data.color == state.current_color  # type: ignore[union-attr]
        state.apply(packet.data)  # type: ignore[arg-type]
    result = state.result()
    winner = (
        Winner(texts.TIE_REASON, True, None)
        if result.winner is None
        else Winner(texts.regular_win_reason(result.winner), True, result.winner)
    )
    scores = tuple(
        PlayerScore(team, (result.win_points[team], result.points[team])) for team in TEAMS
    )
    for bot in bots:
        assert bot.deliver(Result("R", scores, winner)) == [Result("R", scores, winner)]
        assert bot.deliver(Left("R")) == [Left("R")]
        # The bot leaves as the official client does: <close/> then </protocol>.
        goodbye = bot.client.send(Close()) + bot.client.close()
        assert events_of(bot.server_side, goodbye) == [Close(), StreamEnd()]
        tail = bot.server_side.close()
        bot.stream += tail
        assert events_of(bot.client, tail) == [StreamEnd()]
        assert events_of(bot.client, b"") == [ConnectionClosed()]
    return state, bots


def test_whole_game_stream_is_consistent_end_to_end() -> None:
    final, bots = play_whole_game(seed=11)
    assert final.is_over
    for bot in bots:
        stream = bytes(bot.stream)
        # One well-formed document, rooted in <protocol>, one child per message.
        root = etree.fromstring(stream)
        assert root.tag == "protocol"
        children = [child.tag for child in root]
        assert children[0] == "joined" and children[-1] == "left"
        # socha's splitter, fed one server write per recv(), finds exactly our messages.
        # (Fed everything at once it would lose repeats: it removes a found message with
        # `buffer.replace`, i.e. every identical copy, such as two moveRequests.)
        sock = NetworkSocket()
        sock.socket = FakeSocket(bot.writes)  # type: ignore[assignment]
        pieces = []
        while sock.socket.chunks:  # type: ignore[union-attr]
            piece = sock.receive()
            if piece is not None:
                pieces.append(piece)
        assert pieces == [write.removeprefix(b"<protocol>").strip() for write in bot.writes]
        assert len(pieces) == len(children)
        parser = socha_parser()
        last_turn = -1
        for piece in pieces:
            parsed = parser.from_bytes(piece)
            if getattr(getattr(parsed, "data", None), "class_value", None) == "memento":
                theirs = message_to_state(parsed)
                assert theirs.turn >= last_turn
                last_turn = theirs.turn
        assert last_turn == final.turn
        # The last memento is the final position, then the result, then left.
        assert re.search(rb'<data class="result">', pieces[-2])
    # Both bots saw the same final state as the server's engine.
    assert all(bot.state == final for bot in bots)
