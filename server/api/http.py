"""uvicorn inside the running event loop: no thread, no process, no signal handlers of its own.

The TCP server and the HTTP API share one loop, so an endpoint can talk to the lobby and
the rooms directly. uvicorn normally installs SIGINT/SIGTERM handlers; here `gauntlet
serve` owns the signals and stops this server in order (`stop()`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections import Counter
from collections.abc import Iterator
from typing import Any

import uvicorn
from fastapi import HTTPException
from fastapi.responses import JSONResponse

log = logging.getLogger(__name__)

STARTUP_TIMEOUT = 10.0


class _InLoopServer(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # the host process handles signals


class HttpServer:
    """Serve an ASGI app on `host:port` (port 0 = any free one; `port` tells which)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8000) -> None:
        self.app = app
        self.host = host
        self.requested_port = port
        self.port = port
        self._server: _InLoopServer | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.create_server((self.host, self.requested_port), family=family)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, lifespan="off", log_config=None, access_log=False,
                                timeout_graceful_shutdown=2, log_level="warning")
        self._server = _InLoopServer(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="http")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STARTUP_TIMEOUT
        while not self._server.started:
            if self._task.done():
                sock.close()
                self._task.result()
                raise RuntimeError("the HTTP server stopped during its start")
            if loop.time() > deadline:
                raise RuntimeError("the HTTP server did not start")
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        """Stop accepting, finish open requests (2 s at most), return (idempotent)."""
        server, task = self._server, self._task
        self._server = self._task = None
        if server is None or task is None:
            return
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await task


class ClientLimits:
    """ASGI middleware: request bodies at most `max_body_bytes` (413 with a JSON error,
    before the body is read whole: on `Content-Length`, and by counting the bytes of a
    streamed body as the app reads them), and at most `max_websockets` WebSockets open
    from one client address (more are refused before the handshake completes: HTTP 403).
    """

    def __init__(self, app: Any, max_body_bytes: int = 1 << 20,
                 max_websockets: int = 32) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_websockets = max_websockets
        self._websockets: Counter[str] = Counter()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _too_large(self) -> JSONResponse:
        return JSONResponse(
            {"detail": f"request body larger than {self.max_body_bytes} bytes"}, status_code=413)

    async def _http(self, scope: Any, receive: Any, send: Any) -> None:
        limit = self.max_body_bytes
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = -1
                if announced > limit:
                    await self._too_large()(scope, receive, send)
                    return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Raised inside the app: its HTTPException handler answers 413.
                    raise HTTPException(413, f"request body larger than {limit} bytes")
            return message

        await self.app(scope, counted, send)

    async def _websocket(self, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client")
        address = str(client[0]) if client else ""
        if self._websockets[address] >= self.max_websockets:
            message = await receive()
            if message["type"] == "websocket.connect":
                log.info("%s: more than %d WebSockets; refused", address, self.max_websockets)
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "too many WebSockets from this address"})
            return
        self._websockets[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self._websockets[address] -= 1
            if self._websockets[address] <= 0:
                del self._websockets[address]
