"""Garbage in: only the documented outcomes come out (the h11 fuzzing rule).

Every event is a message, ``Refused`` with a codec reason, ``ConnectionClosed`` or
``NEED_DATA``; nothing raises until a closing refusal, after which only ``ProtocolError``
does; the buffer never grows past its limit (``drain`` checks these). Generators: raw
random bytes; valid streams mutated; random JSON under valid frames, built from the
protocol's own type and field names so it gets past the envelope into the decoders; and
random well-typed messages, which must round-trip.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kettle_samples import CLIENT_MESSAGES, SERVER_MESSAGES, drain, split

from protocols.base import ConnectionClosed, Limits
from protocols.kettle import (
    MAX_ID,
    ChooseEntities,
    ChooseOption,
    ClientConnection,
    EntityChoices,
    GameFinished,
    GameJoined,
    JoinGame,
    Nack,
    Option,
    OptionEntity,
    Options,
    QueuePlayer,
    Refused,
    ServerConnection,
    decode_client,
    decode_server,
)
from protocols.kettle.reasons import CLOSING, CODEC_REASONS

FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SMALL = Limits(max_message_bytes=2048, max_depth=8, max_buffered_bytes=4096)

FIELDS = [
    "type", "account_name", "heroID", "cards", "gameID", "password", "choiceID", "entities",
    "optionsID", "option_index", "target", "sub_option_index", "position", "playerID",
    "spectating", "board", "max_secrets_per_player", "max_friendly_minions_per_player",
    "choice_type", "source", "count_min", "count_max", "hide_chosen", "options",
    "main_option", "sub_options", "entityID", "targets", "acknowledged_object",
    "not_acknowledged_object", "reason", "message", "winners", "losers", "result",
]  # fmt: skip
NAMES = [
    "queue_player", "join_game", "get_game_state", "choose_entities", "choose_option",
    "concede", "game_joined", "history_block", "entity_choices", "options", "ack", "nack",
    "game_finished", "history/tag_change", "",
]  # fmt: skip


def check(events: list[object], connection: ServerConnection | ClientConnection) -> None:
    for event in events:
        if isinstance(event, Refused):
            assert event.reason in CODEC_REASONS
            assert event.close == (event.reason in CLOSING)
        elif not isinstance(event, ConnectionClosed):
            # Whatever was accepted prints and parses back to itself.
            decode = decode_client if isinstance(connection, ServerConnection) else decode_server
            assert decode(json.loads(json.dumps(event.to_dict()))) == event  # type: ignore[attr-defined]


def streams() -> tuple[bytes, bytes]:
    client, server = ClientConnection(), ServerConnection()
    return (
        b"".join(client.send(m) for m in CLIENT_MESSAGES) + client.send_batch(CLIENT_MESSAGES),
        b"".join(server.send(m) for m in SERVER_MESSAGES) + server.send_batch(SERVER_MESSAGES),
    )


CLIENT_STREAM, SERVER_STREAM = streams()


@FUZZ
@given(st.binary(max_size=3000), st.lists(st.integers(min_value=0), max_size=8))
def test_random_bytes(data: bytes, cuts: list[int]) -> None:
    for connection in (ServerConnection(SMALL), ClientConnection(SMALL), ServerConnection()):
        check(drain(connection, split(data, cuts)), connection)


@FUZZ
@given(st.binary(min_size=1, max_size=200), st.lists(st.integers(min_value=0), max_size=8))
def test_random_bytes_in_a_valid_frame(body: bytes, cuts: list[int]) -> None:
    data = len(body).to_bytes(4, "big") + body
    for connection in (ServerConnection(SMALL), ClientConnection(SMALL)):
        check(drain(connection, split(data, cuts)), connection)


def mutate(data: bytes, seed: int) -> bytes:
    rng = random.Random(seed)
    buf = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        position = rng.randrange(len(buf) + 1)
        action = rng.randrange(5)
        if action == 0 and buf:
            buf[min(position, len(buf) - 1)] = rng.randrange(256)
        elif action == 1:
            buf[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif action == 2:
            del buf[position : position + rng.randint(1, 8)]
        elif action == 3:
            end = min(len(buf), position + rng.randint(1, 40))
            buf[position:position] = buf[position:end]
        else:
            buf[position:position] = rng.choice([b"[", b"]", b"{", b"}", b'"', b"\\", b","])
    return bytes(buf)


@FUZZ
@given(
    st.integers(min_value=0, max_value=2**32),
    st.lists(st.integers(min_value=0), max_size=8),
)
def test_mutated_streams(seed: int, cuts: list[int]) -> None:
    for data, connection in (
        (mutate(CLIENT_STREAM, seed), ServerConnection()),
        (mutate(SERVER_STREAM, seed), ClientConnection()),
        (mutate(CLIENT_STREAM, seed), ServerConnection(SMALL)),
    ):
        check(drain(connection, split(data, cuts)), connection)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=12)
    | st.sampled_from([MAX_ID, MAX_ID + 1, -(2**63), 10**40])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from([f"kettle:types/{name}" for name in NAMES])
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=31)
        | st.dictionaries(
            st.sampled_from(FIELDS + NAMES) | st.text(max_size=3), children, max_size=6
        )
    ),
    max_leaves=60,
)


@st.composite
def envelopes(draw: st.DrawFn) -> dict[str, Any]:
    name = draw(st.sampled_from(NAMES))
    body = draw(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=8) | json_values)
    envelope = {"type": f"kettle:types/{name}", name: body}
    if draw(st.booleans()):
        del envelope[name]
    return envelope


@FUZZ
@given(st.lists(envelopes() | json_values, min_size=1, max_size=4), st.booleans())
def test_random_json_in_valid_frames(values: list[Any], batch: bool) -> None:
    bodies = [json.dumps(values)] if batch else [json.dumps(value) for value in values]
    data = b"".join(len(b).to_bytes(4, "big") + b for b in (body.encode() for body in bodies))
    for connection in (ServerConnection(), ClientConnection()):
        events = drain(connection, [data])
        check(events, connection)


ids = st.integers(min_value=0, max_value=MAX_ID)
texts = st.text(max_size=20).filter(lambda s: not any(0xD800 <= ord(c) < 0xE000 for c in s))
option_entities = st.builds(OptionEntity, ids, st.tuples(ids) | st.just(()))
client_messages = st.one_of(
    st.builds(
        QueuePlayer,
        st.none() | texts,
        st.none() | texts,
        st.none() | st.lists(texts, min_size=30, max_size=30).map(tuple),
    ),
    st.builds(JoinGame, texts, texts),
    st.builds(ChooseEntities, ids, st.lists(ids, max_size=5).map(tuple)),
    st.builds(
        ChooseOption,
        ids,
        ids,
        st.none() | ids,
        st.none() | ids,
        st.none() | st.integers(min_value=0, max_value=10),
    ),
)
server_messages = st.one_of(
    st.builds(GameJoined, texts, ids, st.booleans(), ids, ids, ids),
    st.builds(
        EntityChoices, ids, ids, ids, ids, st.just(0), ids, st.lists(ids).map(tuple), st.booleans()
    ),
    st.builds(
        Options,
        ids,
        st.lists(
            st.builds(
                Option, ids, st.none() | option_entities, st.lists(option_entities).map(tuple)
            )
        ).map(tuple),
    ),
    st.builds(Nack, texts, texts, texts),
    st.builds(GameFinished, texts, st.lists(ids).map(tuple), st.lists(ids).map(tuple), texts),
)


@FUZZ
@given(st.lists(client_messages, min_size=1, max_size=5), st.lists(server_messages, min_size=1,
       max_size=5), st.lists(st.integers(min_value=0), max_size=6))  # fmt: skip
def test_random_messages_round_trip(
    clients: list[Any], servers: list[Any], cuts: list[int]
) -> None:
    client, server = ClientConnection(), ServerConnection()
    data = b"".join(client.send(m) for m in clients) + client.send_batch(clients)
    assert drain(ServerConnection(), split(data, cuts)) == [*clients, *clients, ConnectionClosed()]
    data = b"".join(server.send(m) for m in servers) + server.send_batch(servers)
    assert drain(ClientConnection(), split(data, cuts)) == [*servers, *servers, ConnectionClosed()]
