"""Framing: exact reads across any split, batches, limits, and every frame-level refusal."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kettle_samples import CLIENT_MESSAGES, SERVER_MESSAGES, drain, split

from protocols.base import NEED_DATA, ConnectionClosed, Limits, LocalProtocolError, ProtocolError
from protocols.kettle import (
    Ack,
    ClientConnection,
    Concede,
    GetGameState,
    Nack,
    Refused,
    ServerConnection,
    encode,
)
from protocols.kettle import reasons as R
from protocols.kettle.frames import depth_exceeds

SMALL = Limits(max_message_bytes=256, max_depth=8, max_buffered_bytes=1024)


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def json_frame(value: object) -> bytes:
    return frame(json.dumps(value).encode())


def client_stream() -> bytes:
    client = ClientConnection()
    singles = b"".join(client.send(message) for message in CLIENT_MESSAGES)
    return singles + client.send_batch(CLIENT_MESSAGES[:3])


def server_stream() -> bytes:
    server = ServerConnection()
    singles = b"".join(server.send(message) for message in SERVER_MESSAGES)
    return singles + server.send_batch(SERVER_MESSAGES[-3:])


CLIENT_EVENTS = [*CLIENT_MESSAGES, *CLIENT_MESSAGES[:3], ConnectionClosed()]
SERVER_EVENTS = [*SERVER_MESSAGES, *SERVER_MESSAGES[-3:], ConnectionClosed()]


# -- exact reads across any split ------------------------------------------------------------


def test_whole_streams() -> None:
    assert drain(ServerConnection(), [client_stream()]) == CLIENT_EVENTS
    assert drain(ClientConnection(), [server_stream()]) == SERVER_EVENTS


def test_one_byte_at_a_time() -> None:
    data = client_stream()
    assert drain(ServerConnection(), [data[i : i + 1] for i in range(len(data))]) == CLIENT_EVENTS
    data = server_stream()
    assert drain(ClientConnection(), [data[i : i + 1] for i in range(len(data))]) == SERVER_EVENTS


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0), max_size=40))
def test_any_split(cuts: list[int]) -> None:
    assert drain(ServerConnection(), split(client_stream(), cuts)) == CLIENT_EVENTS
    assert drain(ClientConnection(), split(server_stream(), cuts)) == SERVER_EVENTS


def test_end_of_file_at_a_frame_boundary() -> None:
    server = ServerConnection()
    server.receive_data(ClientConnection().send(Concede()))
    server.receive_data(b"")
    server.receive_data(b"")  # repeated end of file is harmless
    assert server.next_event() == Concede()
    assert server.next_event() == ConnectionClosed(truncated=False)
    assert server.next_event() is NEED_DATA
    with pytest.raises(LocalProtocolError):
        server.receive_data(b"x")


# -- frame-level refusals ---------------------------------------------------------------------


def refusal(chunks: list[bytes], limits: Limits | None = None, eof: bool = True) -> Refused:
    events = drain(ServerConnection(limits), chunks, eof=eof)
    refusals = [event for event in events if isinstance(event, Refused)]
    assert refusals, events
    return refusals[0]


@pytest.mark.parametrize(
    ("chunks", "code"),
    [
        ([frame(b"\xff\xfe{}")], R.BAD_UTF8),
        ([frame(b'{"type": "kettle:types/concede", "concede": "\xe9"}')], R.BAD_UTF8),
        ([frame(b"\xef\xbb\xbf{}")], R.BAD_JSON),  # a byte order mark is not JSON
        ([frame(b"")], R.BAD_JSON),
        ([frame(b"{")], R.BAD_JSON),
        ([frame(b'{"a": 1} x')], R.BAD_JSON),
        ([frame(b"{'a': 1}")], R.BAD_JSON),
        ([frame(b'{"a": NaN}')], R.BAD_JSON),
        ([frame(b'{"a": -Infinity}')], R.BAD_JSON),
        ([frame(b'{"a": ' + b"9" * 5000 + b"}")], R.BAD_JSON),
        ([frame(b"[" * 100_000)], R.BAD_JSON),
        ([frame(b"[" * 20 + b"}" * 20)], R.BAD_JSON),
        ([frame(b"[]")], R.BAD_BODY),
        ([frame(b"null")], R.BAD_BODY),
        ([frame(b'"concede"')], R.BAD_BODY),
        ([frame(b"42")], R.BAD_BODY),
        ([frame(b'[{"type": "kettle:types/concede"}, 1]')], R.BAD_BODY),
        ([frame(b"[[{}]]")], R.BAD_BODY),
        ([b"\x00\x00"], R.TRUNCATED),
        ([frame(b"{}")[:-1]], R.TRUNCATED),
        ([encode(Concede()), encode(Concede())[:5]], R.TRUNCATED),
    ],
)
def test_closing_refusals(chunks: list[bytes], code: str) -> None:
    big = Limits(max_message_bytes=200_000, max_depth=32, max_buffered_bytes=400_000)
    refused = refusal(chunks, big)
    assert refused.reason == code
    assert refused.close
    assert refused.nack.not_acknowledged_object == ""
    assert refused.nack.message


def test_oversize_is_refused_on_the_header_alone() -> None:
    server = ServerConnection(SMALL)
    server.receive_data((SMALL.max_message_bytes + 1).to_bytes(4, "big"))
    refused = server.next_event()
    assert isinstance(refused, Refused)
    assert (refused.reason, refused.close) == (R.FRAME_TOO_LARGE, True)
    assert server.errored and not server._buffer


def test_largest_frame_is_accepted() -> None:
    body = json.dumps({"type": "kettle:types/concede", "concede": {"pad": ""}}).encode()
    body = body.replace(b'""', b'"' + b"x" * (SMALL.max_message_bytes - len(body)) + b'"')
    assert len(body) == SMALL.max_message_bytes
    assert drain(ServerConnection(SMALL), [frame(body)]) == [Concede(), ConnectionClosed()]


def test_default_limits() -> None:
    server = ServerConnection()
    assert server.limits.max_message_bytes == 64 << 10
    assert server.limits.max_depth == 32
    refused = refusal([(64 << 10).to_bytes(4, "big") + b"{", ((64 << 10) + 1).to_bytes(4, "big")])
    assert refused.reason == R.TRUNCATED  # exactly 64 KiB announced is fine: we waited
    refused = refusal([((64 << 10) + 1).to_bytes(4, "big")], eof=False)
    assert refused.reason == R.FRAME_TOO_LARGE


def test_little_endian_length_gets_a_hint() -> None:
    body = json.dumps(Concede().to_dict()).encode()
    refused = refusal([len(body).to_bytes(4, "little") + body])
    assert refused.reason == R.FRAME_TOO_LARGE
    assert f"little-endian length of {len(body)}" in refused.nack.message


def test_buffer_full() -> None:
    server = ServerConnection(SMALL)
    stream = b"".join(ClientConnection().send(Concede()) for _ in range(40))
    assert len(stream) > SMALL.max_buffered_bytes
    server.receive_data(stream[:1000])
    server.receive_data(stream[1000:])  # not drained in between: refused, not buffered
    assert len(server._buffer) == 0
    server.receive_data(b"more")  # discarded until the refusal was read
    refused = server.next_event()
    assert isinstance(refused, Refused)
    assert (refused.reason, refused.close) == (R.BUFFER_FULL, True)


def test_limits_must_fit_a_frame() -> None:
    with pytest.raises(ValueError):
        ServerConnection(Limits(max_message_bytes=100, max_buffered_bytes=103))
    ServerConnection(Limits(max_message_bytes=100, max_buffered_bytes=104))


def test_after_a_closing_refusal_the_connection_is_failed_but_can_nack() -> None:
    server = ServerConnection()
    server.receive_data(frame(b"nope") + ClientConnection().send(Concede()))
    refused = server.next_event()
    assert isinstance(refused, Refused) and refused.close
    with pytest.raises(ProtocolError):
        server.next_event()
    with pytest.raises(ProtocolError):
        server.receive_data(b"x")
    sent = server.send(refused.nack)
    assert json.loads(sent[4:])["nack"]["reason"] == R.BAD_JSON
    assert server.close() == b""
    with pytest.raises(LocalProtocolError):
        server.send(Ack())


# -- nesting depth ---------------------------------------------------------------------------


def nested(depth: int) -> bytes:
    """An envelope whose JSON nests exactly ``depth`` levels."""
    inner = "[" * (depth - 2) + "]" * (depth - 2)
    return (
        json.dumps({"type": "kettle:types/concede", "concede": {}})
        .encode()
        .replace(b"{}", b'{"x": ' + inner.encode() + b"}" if depth > 2 else b"{}")
    )


def test_depth_limit_is_exact_and_keeps_the_connection() -> None:
    assert drain(ServerConnection(SMALL), [frame(nested(SMALL.max_depth))])[0] == Concede()
    too_deep = frame(nested(SMALL.max_depth + 1))
    events = drain(ServerConnection(SMALL), [too_deep, encode(GetGameState())])
    assert events == [
        Refused(Nack("", R.TOO_DEEP, "JSON nested deeper than 8 levels"), close=False),
        GetGameState(),
        ConnectionClosed(),
    ]


def test_deep_bodies_are_refused_cheaply() -> None:
    limits = Limits(max_message_bytes=1 << 20, max_depth=32, max_buffered_bytes=2 << 20)
    for body in (
        b"[" * (1 << 19) + b"]" * (1 << 19),
        b"{" + b'"a":{' * 100_000 + b"}" * 100_001,
        b"[" * (1 << 20),
        b"[" * 33 + b"]" * 33 + b",[]" * 300_000,
        b"[" * 33 + b'"\\' * 500_000,  # a string pattern that fails would rescan: quadratic
        b"[" * 33 + b'"\\"' * 300_000,
        b"[" * 33 + b'"' * 1_000_000,
        b"[" + b",".join([b"[" * 31 + b"]" * 31] * 16000) + b"]" + b"]",
    ):
        started = time.perf_counter()
        refused = refusal([frame(body[: 1 << 20])], limits)
        assert refused.reason in (R.TOO_DEEP, R.BAD_JSON)
        assert time.perf_counter() - started < 1.0


def reference_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((reference_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((reference_depth(v) for v in value), default=0)
    return 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\u00e9 ,:'),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\x'), children, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(json_values, st.integers(min_value=1, max_value=12), st.booleans())
def test_depth_check_agrees_with_the_parsed_value(value: Any, limit: int, ascii_: bool) -> None:
    body = json.dumps(value, ensure_ascii=ascii_).encode()
    assert depth_exceeds(body, limit) == (reference_depth(value) > limit)


# -- sending ---------------------------------------------------------------------------------


def test_shared_frames_and_local_errors() -> None:
    server = ServerConnection()
    shared = encode(Ack("x"))
    assert server.send_frame(shared) == shared == server.send(Ack("x"))
    with pytest.raises(LocalProtocolError):
        server.send_batch([])
    with pytest.raises(LocalProtocolError):
        server.send(Nack("", "x", "\ud800"))  # a lone surrogate cannot be UTF-8
    assert server.close() == b"" and server.close() == b""
    for call in (lambda: server.send(Ack()), lambda: server.send_frame(shared),
                 lambda: server.send_batch([Ack()])):  # fmt: skip
        with pytest.raises(LocalProtocolError):
            call()
