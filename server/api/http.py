"""uvicorn inside the running event loop: no thread, no process, no signal handlers of its own.

The TCP server and the HTTP API share one loop, so an endpoint can talk to the lobby and
the rooms directly. uvicorn normally installs SIGINT/SIGTERM handlers; here `gauntlet
serve` owns the signals and stops this server in order (`stop()`).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from typing import Any

import uvicorn

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
