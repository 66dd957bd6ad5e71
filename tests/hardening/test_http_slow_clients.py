"""Issue #24 points 8 and 9: HTTP clients that never finish, too many of them, huge frames.

Real sockets against `server.api.http.HttpServer` (the server `gauntlet serve` runs), with
its deadlines shortened so that the tests wait for events, not for the defaults.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import websockets
from fastapi import FastAPI, WebSocket

from server.api import http as http_module
from server.api.http import AcceptErrorFilter, HttpServer

WAIT = 30.0


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/ping")
    async def ping() -> dict[str, str]:
        return {"pong": "yes"}

    @app.websocket("/ws/echo")
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        while True:
            await ws.send_text(await ws.receive_text())

    return app


@asynccontextmanager
async def server() -> AsyncIterator[int]:
    http = HttpServer(_app(), "127.0.0.1", 0)
    await http.start()
    try:
        yield http.port
    finally:
        await http.stop()


async def _closed_by_server(reader: asyncio.StreamReader) -> bool:
    """True once the server closed the connection (EOF or reset), within WAIT."""
    try:
        data = await asyncio.wait_for(reader.read(65536), WAIT)
    except ConnectionError:
        return True
    return data == b""


async def test_a_request_head_that_never_ends_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_module, "HEADER_TIMEOUT", 0.3)
    async with server() as port:
        silent = await asyncio.open_connection("127.0.0.1", port)
        trickle = await asyncio.open_connection("127.0.0.1", port)
        trickle[1].write(b"GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
        assert await _closed_by_server(silent[0])
        assert await _closed_by_server(trickle[0])
        # A keep-alive connection's next request head has its deadline too.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"pong" in await asyncio.wait_for(reader.readuntil(b"}"), WAIT)
        writer.write(b"GET /ping HTTP/1.1\r\n")
        assert await _closed_by_server(reader)
        for _r, w in (silent, trickle, (reader, writer)):
            w.close()


async def test_over_the_cap_the_oldest_idle_connection_makes_room(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_module, "MAX_HTTP_CONNECTIONS", 5)
    async with server() as port:
        idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(5)]
        # Each newcomer over the cap closes the oldest connection that sent nothing yet.
        newcomers = []
        for oldest in idle[:2]:
            newcomers.append(await asyncio.open_connection("127.0.0.1", port))
            assert await _closed_by_server(oldest[0])
        # The newcomers and the newest idle ones are served.
        for reader, writer in [*newcomers, idle[-1]]:
            writer.write(b"GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert b"pong" in await asyncio.wait_for(reader.read(), WAIT)
        for _r, w in [*idle, *newcomers]:
            w.close()


async def test_a_websocket_message_over_the_limit_closes_with_1009() -> None:
    async with server() as port:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/echo",
                                      max_size=None) as ws:
            await ws.send("small")
            assert await asyncio.wait_for(ws.recv(), WAIT) == "small"
            await ws.send("x" * (1 << 20))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_failed_accepts_log_one_line_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("asyncio")
    accept_filter = AcceptErrorFilter()
    logger.addFilter(accept_filter)
    try:
        loop = asyncio.get_running_loop()
        context: dict[str, Any] = {"message": "socket.accept() out of system resource",
                                   "exception": OSError(24, "Too many open files")}
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            for _ in range(10_000):  # what a descriptor flood makes asyncio report
                loop.call_exception_handler(context)
            loop.call_exception_handler({"message": "something else went wrong"})
    finally:
        logger.removeFilter(accept_filter)
    accepts = [r for r in caplog.records if "out of system resource" in r.getMessage()]
    assert len(accepts) == 1
    assert accepts[0].exc_info is None
    assert any("something else" in r.getMessage() for r in caplog.records)
