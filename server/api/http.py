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

import h11
import uvicorn
from fastapi import HTTPException
from fastapi.responses import JSONResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

STARTUP_TIMEOUT = 10.0
HEADER_TIMEOUT = 10.0
"""Seconds a connection gets to send a whole request head (the first, and after each
response). uvicorn times out only idle keep-alive connections, and a byte of a request
head cancels even that: a client trickling headers held its socket forever."""
KEEP_ALIVE_TIMEOUT = 5.0
"""Seconds an idle keep-alive connection stays open after a response."""
MAX_HTTP_CONNECTIONS = 512
"""HTTP connections at once; a newcomer over it closes the oldest one that has not sent a
whole request head yet (or is refused when every connection is busy). Below a 1,024 file
limit with room for the bot port, the store and launched bots."""
WS_MAX_BYTES = 4096
"""The largest WebSocket message accepted: the app reads nothing longer than 1,000
characters, so a larger one is closed with 1009 instead of being buffered (uvicorn's
default buffered 16 MiB per message)."""


class _GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head and a connection cap.

    The cap is shared through uvicorn's `server_state.connections` (every connection of
    this server, WebSockets included)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._opened = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._opened = self.loop.time()
        self._arm_head_deadline()
        if len(self.connections) > MAX_HTTP_CONNECTIONS:
            waiting = [c for c in self.connections
                       if isinstance(c, _GuardedH11) and c is not self and c._waiting_head()]
            victim = min(waiting, key=lambda c: c._opened) if waiting else self
            _throttled.warning("http-cap", "more than %d HTTP connections: closing %s",
                               MAX_HTTP_CONNECTIONS,
                               "the newcomer" if victim is self else "the oldest idle one")
            victim._close_silently()

    def _waiting_head(self) -> bool:
        return self._head_deadline is not None

    def _arm_head_deadline(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(HEADER_TIMEOUT, self._head_timed_out)

    def _disarm_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE:  # still no whole request head
            self._close_silently()

    def _close_silently(self) -> None:
        self._disarm_head_deadline()
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # a head arrived (or a WebSocket upgrade)
            self._disarm_head_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_head_deadline()  # the next request head has its deadline too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_deadline()
        super().connection_lost(exc)


class _Throttled:
    """At most one log line per key and `interval` seconds, with the count it stands for."""

    def __init__(self, interval: float = 10.0) -> None:
        self.interval = interval
        self._last: dict[str, float] = {}
        self._skipped: Counter[str] = Counter()

    def allow(self, key: str, now: float) -> int | None:
        """None: stay quiet; else how many lines were held back since the last one."""
        if now - self._last.get(key, -self.interval) < self.interval:
            self._skipped[key] += 1
            return None
        self._last[key] = now
        return self._skipped.pop(key, 0)

    def warning(self, key: str, message: str, *args: Any) -> None:
        import time

        skipped = self.allow(key, time.monotonic())
        if skipped is not None:
            log.warning(message + (f" (and {skipped} more like it)" if skipped else ""), *args)


_throttled = _Throttled()


class AcceptErrorFilter(logging.Filter):
    """asyncio logs every failed accept (EMFILE: too many open files) with a traceback;
    under a file-descriptor flood that was 2 million lines in 20 s. One line per 10 s."""

    def __init__(self) -> None:
        super().__init__()
        self._throttle = _Throttled()

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if "out of system resource" not in text:
            return True
        skipped = self._throttle.allow("accept", record.created)
        if skipped is None:
            return False
        record.exc_info = None  # the same traceback every time
        if skipped:
            record.msg = f"{text} (and {skipped} more like it)"
        return True


def install_accept_error_filter() -> None:
    """Once per process (idempotent)."""
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, AcceptErrorFilter) for f in logger.filters):
        logger.addFilter(AcceptErrorFilter())


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
        install_accept_error_filter()
        config = uvicorn.Config(self.app, lifespan="off", log_config=None, access_log=False,
                                timeout_graceful_shutdown=2, log_level="warning",
                                http=_GuardedH11, timeout_keep_alive=int(KEEP_ALIVE_TIMEOUT),
                                ws_max_size=WS_MAX_BYTES)
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
