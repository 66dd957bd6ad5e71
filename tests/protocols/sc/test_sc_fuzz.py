"""Garbage in: only ``ProtocolError`` may come out (the h11 fuzzing rule).

Three generators: raw random bytes; valid streams mutated (bytes flipped, cut, inserted,
duplicated); and "tag soup" built from the protocol's own element, attribute and class
names, which gets past the XML layer into the decoders.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.blokus import SetMove, SkipMove, new_game
from protocols.base import NEED_DATA, Limits, ProtocolError
from protocols.sc import (
    ClientConnection,
    ErrorPacket,
    Join,
    Joined,
    Memento,
    MoveRequest,
    PlayerScore,
    Prepare,
    Result,
    RoomError,
    RoomPacket,
    ServerConnection,
    Welcome,
    Winner,
)

FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SMALL_LIMITS = Limits(max_message_bytes=4096, max_depth=8, max_buffered_bytes=8192)


def run(connection: ServerConnection | ClientConnection, chunks: list[bytes]) -> list[object]:
    """Feed everything; return the events, stopping at the first ProtocolError."""
    events: list[object] = []
    try:
        for chunk in [*chunks, b""]:
            connection.receive_data(chunk)
            for _ in range(10_000):
                event = connection.next_event()
                if event is NEED_DATA:
                    break
                events.append(event)
    except ProtocolError as error:
        assert error.reason
        assert connection.errored
        # The connection's last-resort net turns stray ValueErrors into ProtocolError; if
        # it ever fires, a decoder missed a case and should say what is wrong itself.
        assert not error.reason.startswith("invalid message content"), error.reason
    return events


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({cut % (len(data) + 1) for cut in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    return [piece for piece in pieces if piece]  # b"" would mean end of file


def client_stream() -> bytes:
    client = ClientConnection()
    return (
        b"".join(
            client.send(message)
            for message in [
                Join("swc_2027_blokus"),
                Prepare(),
                RoomPacket(
                    "r", SetMove("BLUE", "PENTO_U", rotation="LEFT", flipped=True, x=1, y=2)
                ),
                RoomPacket("r", SkipMove("RED")),
            ]
        )
        + client.close()
    )


def server_stream() -> bytes:
    rng = random.Random(4)
    state = new_game(seed=4)
    for _ in range(9):
        state.apply(rng.choice(list(state.legal_moves())))
    server = ServerConnection()
    return (
        b"".join(
            server.send(message)
            for message in [
                Joined("r"),
                Welcome("r", "ONE"),
                Memento("r", state),
                MoveRequest("r"),
                RoomError("r", "x\ny", SkipMove("RED")),
                Result("r", (PlayerScore("ONE", (2, 9), "a"),), Winner("w", True, "ONE")),
                ErrorPacket("e", RoomPacket("r", SkipMove("RED"))),
            ]
        )
        + server.close()
    )


CLIENT_STREAM = client_stream()
SERVER_STREAM = server_stream()


@FUZZ
@given(st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=8))
def test_random_bytes(data: bytes, cuts: list[int]) -> None:
    run(ServerConnection(SMALL_LIMITS), split(data, cuts))
    run(ClientConnection(SMALL_LIMITS), split(data, cuts))
    run(ServerConnection(SMALL_LIMITS), split(b"<protocol>" + data, cuts))
    run(ClientConnection(SMALL_LIMITS), split(b"<protocol>" + data, cuts))


mutation = st.tuples(
    st.sampled_from(["flip", "delete", "insert", "duplicate", "truncate"]),
    st.integers(0, 10**6),
    st.integers(0, 255),
    st.integers(1, 40),
)


def mutate(data: bytes, mutations: list[tuple[str, int, int, int]]) -> bytes:
    buffer = bytearray(data)
    for kind, position, byte, length in mutations:
        if not buffer:
            break
        at = position % len(buffer)
        if kind == "flip":
            buffer[at] = byte
        elif kind == "delete":
            del buffer[at : at + length]
        elif kind == "insert":
            buffer[at:at] = bytes([byte]) * length
        elif kind == "duplicate":
            buffer[at:at] = buffer[at : at + length]
        else:
            del buffer[at:]
    return bytes(buffer)


@FUZZ
@given(st.lists(mutation, min_size=1, max_size=6), st.lists(st.integers(0, 5000), max_size=6))
def test_mutated_valid_streams(mutations: list[tuple[str, int, int, int]], cuts: list[int]) -> None:
    client_data = mutate(CLIENT_STREAM, mutations)
    server_data = mutate(SERVER_STREAM, mutations)
    run(ServerConnection(), split(client_data, cuts))
    run(ClientConnection(), split(server_data, cuts))
    # The wrong direction is garbage too.
    run(ServerConnection(), split(server_data, cuts))
    run(ClientConnection(), split(client_data, cuts))


TAGS = [
    "protocol", "room", "data", "join", "joinRoom", "joinPrepared", "authenticate", "prepare",
    "slot", "observe", "pause", "step", "cancel", "close", "joined", "left", "errorpacket",
    "originalRequest", "originalMessage", "prepared", "reservation", "observed",
    "joinedGameRoom", "state", "lastMove", "board", "field", "lastMoveMono", "entry",
    "color", "boolean", "blueShapes", "shape", "validColors", "piece", "position",
    "definition", "fragment", "aggregation", "relevantForRanking", "scores", "player",
    "score", "part", "winner", "x",
]  # fmt: skip
ATTRIBUTES = [
    "roomId", "class", "gameType", "reservationCode", "password", "pause", "forced",
    "displayName", "canTimeout", "reserved", "color", "kind", "rotation", "isFlipped", "x",
    "y", "content", "turn", "startPiece", "startTeam", "round", "message", "paused",
    "playerCount", "name", "team", "regular", "reason",
]  # fmt: skip
VALUES = [
    "", "r", "true", "false", "yes", "0", "-1", "19", "20", "99999999999", "1e3", " 7 ",
    "BLUE", "RED", "PURPLE", "ONE", "TWO", "THREE", "NONE", "LEFT", "UP", "MONO", "PENTO_X",
    "PENTO_Q", "sc.plugin2027.SetMove", "sc.plugin2027.SkipMove", "setmove", "skipmove",
    "memento", "moveRequest", "welcomeMessage", "error", "result", "paused", "state",
    "joinPrepared", "room", "Foo", "&amp;", "&lt;x&gt;", "&#xa;",
]  # fmt: skip


MESSAGE_TAGS = [
    "room", "join", "joinRoom", "joinPrepared", "authenticate", "prepare", "observe",
    "pause", "step", "cancel", "close", "joined", "left", "errorpacket", "prepared",
    "observed", "joinedGameRoom",
]  # fmt: skip


def tag_soup(rng: random.Random, depth: int = 0) -> str:
    """A random element from the protocol's vocabulary (a seeded generator is much faster
    than a recursive hypothesis strategy, and hypothesis still shrinks the seed)."""
    # Top-level elements are mostly real message names, so that decoders get exercised.
    tag = rng.choice(MESSAGE_TAGS if depth == 0 and rng.random() < 0.9 else TAGS)
    attrs = "".join(
        f' {rng.choice(ATTRIBUTES)}="{rng.choice(VALUES)}"' for _ in range(rng.randrange(5))
    )
    if depth >= 5 or rng.random() < 0.4:
        body = rng.choice(["", *VALUES])
        return f"<{tag}{attrs}/>" if not body else f"<{tag}{attrs}>{body}</{tag}>"
    inner = "".join(tag_soup(rng, depth + 1) for _ in range(rng.randrange(4)))
    return f"<{tag}{attrs}>{inner}</{tag}>"


@FUZZ
@given(st.integers(0, 2**64))
def test_tag_soup_from_protocol_names(seed: int) -> None:
    rng = random.Random(seed)
    data = ("<protocol>" + "".join(tag_soup(rng) for _ in range(4))).encode()
    run(ServerConnection(), [data])
    run(ClientConnection(), [data])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), max_size=20))
def test_valid_streams_give_the_same_events_however_they_are_split(cuts: list[int]) -> None:
    whole_client = run(ServerConnection(), [CLIENT_STREAM])
    whole_server = run(ClientConnection(), [SERVER_STREAM])
    assert len(whole_client) == 6 and len(whole_server) == 9  # messages, StreamEnd, EOF
    assert run(ServerConnection(), split(CLIENT_STREAM, cuts)) == whole_client
    assert run(ClientConnection(), split(SERVER_STREAM, cuts)) == whole_server


def test_one_byte_at_a_time() -> None:
    chunks = [bytes([byte]) for byte in SERVER_STREAM]
    assert run(ClientConnection(), chunks) == run(ClientConnection(), [SERVER_STREAM])
