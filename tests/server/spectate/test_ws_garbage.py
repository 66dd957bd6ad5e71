"""Spectators' sockets and bad input: every bad message gets an error frame and is logged
once per socket, the socket stays usable; a message over a few KiB closes the socket with
1009 before it is buffered (issue 24, points 9 and 10)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
import websockets

from server.api.http import WS_MAX_BYTES
from server.rooms import Room, SlotRequest
from tests.server.api.conftest import Running


def _waiting_room(running: Running) -> Room:
    """A live match nobody has joined yet (no players to stop afterwards)."""
    room, _codes = running.server.lobby.prepare(
        "swc_2027_blokus", [SlotRequest("a"), SlotRequest("b")], pause=False)
    return room


GARBAGE: list[str | bytes] = [
    json.dumps({"type": "page", "offset": 10**30}),
    json.dumps({"type": "page", "offset": -1}),
    json.dumps({"type": "page", "offset": "20"}),
    json.dumps({"type": "page", "offset": True}),
    json.dumps({"type": "page", "offset": 1.5}),
    json.dumps({"type": "page", "limit": 10**9}),
    json.dumps({"type": "page", "offset": 0, "extra": {"a": [1]}}),
    json.dumps({"type": "nope"}),
    json.dumps({"type": ["page"]}),
    json.dumps([1, 2, 3]),
    json.dumps("page"),
    "[" * 2000 + "]" * 2000,
    '{"a":' * 600 + "1" + "}" * 600,
    "not json at all",
    "",
    b"\x00\x01binary",
    "9" * 4000,
]


async def _error(ws: Any) -> dict[str, Any]:
    """The next error frame (lobby news may come in between)."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "error":
            return dict(message)


async def test_garbage_on_the_lobby_gets_error_frames_and_one_log_line(
        running: Running, caplog: pytest.LogCaptureFixture) -> None:
    url = f"ws://127.0.0.1:{running.server.http_port}/ws/lobby"
    caplog.set_level(logging.INFO)
    async with asyncio.timeout(60), websockets.connect(url) as ws:
        assert json.loads(await ws.recv())["type"] == "matches"
        caplog.clear()
        for message in GARBAGE:
            await ws.send(message)
            error = await _error(ws)
            assert error["error"], message
        assert "offset" in (await _send_and_error(ws, GARBAGE[0]))["error"]
        # Still usable: a good request is answered.
        await ws.send(json.dumps({"type": "page", "offset": 0}))
        while (answer := json.loads(await ws.recv()))["type"] != "page":
            pass
        assert answer["offset"] == 0
    records = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].exc_info is None and "bad message" in records[0].getMessage()


async def _send_and_error(ws: Any, message: str) -> dict[str, Any]:
    await ws.send(message)
    return await _error(ws)


async def test_a_match_stream_answers_messages_with_error_frames(running: Running) -> None:
    room = _waiting_room(running)
    url = f"ws://127.0.0.1:{running.server.http_port}/ws/matches/{room.id}"
    async with asyncio.timeout(60), websockets.connect(url) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        for message in ('{"type": "page"}', "garbage", b"\xff"):
            await ws.send(message)
            while (frame := json.loads(await ws.recv()))["type"] != "error":
                pass
            assert "takes no messages" in frame["error"]
    room.cancel()


@pytest.mark.parametrize("path", ["/ws/lobby", "/ws/matches/unknown-but-open"])
async def test_a_frame_over_the_limit_closes_the_socket_with_1009(
        running: Running, path: str) -> None:
    room = _waiting_room(running)
    path = path.replace("unknown-but-open", room.id)
    url = f"ws://127.0.0.1:{running.server.http_port}{path}"
    async with asyncio.timeout(60):
        async with websockets.connect(url, max_size=2**24) as ws:
            await ws.recv()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.send("x" * (1 << 20))
                while True:
                    await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # Just under the limit is a message like any other: an error frame for junk.
        async with websockets.connect(url) as ws:
            await ws.recv()
            await ws.send("y" * (WS_MAX_BYTES - 10))
            while json.loads(await ws.recv())["type"] != "error":
                pass
    room.cancel()


async def test_out_of_range_query_parameters_are_refused_without_a_traceback(
        running: Running, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    base = f"ws://127.0.0.1:{running.server.http_port}"
    for path in (f"/ws/lobby?offset={10**30}", "/ws/lobby?limit=0",
                 f"/ws/matches/x?since={10**30}", "/ws/matches/" + "x" * 100):
        with pytest.raises(websockets.InvalidStatus, match="403"):
            async with asyncio.timeout(30), websockets.connect(base + path):
                pass
    assert not [r for r in caplog.records if r.exc_info is not None]
