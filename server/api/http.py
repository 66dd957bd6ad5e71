"""uvicorn inside the running event loop: no thread, no process, no signal handlers of its own.

The TCP server and the HTTP API share one loop, so an endpoint can talk to the lobby and
the rooms directly. uvicorn normally installs SIGINT/SIGTERM handlers; here `gauntlet
serve` owns the signals and stops this server in order (`stop()`).

uvicorn holds a connection that never finishes its request for ever, and counts toward no
limit the connections that have said nothing yet; 1,500 of them took the file descriptors
the bots' port and the bot launcher need. So each connection here must send a whole
request (headers and body) within `header_timeout` seconds of its first byte (of
connecting, for the first request), an idle keep-alive connection is closed after
`KEEP_ALIVE` seconds, a request's headers are at most h11's 16 KiB, and at most
`max_connections` HTTP connections and WebSockets are open: one more closes the oldest
connection that is waiting for a request, or is answered 503 when every one is busy.
A WebSocket message is at most `WS_MAX_BYTES` (the spectators' messages are a few
dozen bytes); a larger one closes the socket with 1009 before its payload is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import h11
import uvicorn
from fastapi import HTTPException
from fastapi.responses import JSONResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

from server.net.acceptlog import throttle_accept_errors

log = logging.getLogger(__name__)

STARTUP_TIMEOUT = 10.0
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open (uvicorn's `timeout_keep_alive`)."""
WS_MAX_BYTES = 4096
"""The largest WebSocket message read (the app acts on JSON objects of a few dozen bytes)."""
MAX_HEADER_BYTES = 16 * 1024
_TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
              b"content-length: 16\r\nconnection: close\r\n\r\nrequest too slow")
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
         b"content-length: 29\r\nconnection: close\r\n\r\ntoo many connections, retry")
# Client states in which the request is not in yet: the deadline runs.
_RECEIVING = (h11.IDLE, h11.SEND_BODY)


class _GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a request deadline and a connection cap (see above)."""

    header_timeout: float = 10.0
    max_connections: int = 256

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._opened = self.loop.time()
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        if len(self.connections) > self.max_connections and not self._evict_one():
            transport.write(_BUSY)
            transport.close()
            return
        self._arm()

    def _evict_one(self) -> bool:
        """Close the oldest other connection waiting for a request; False: none is."""
        idle = [c for c in self.connections
                if isinstance(c, _GuardedProtocol) and c is not self and c._waiting()]
        if not idle:
            return False
        min(idle, key=lambda c: c._opened).transport.close()
        return True

    def _waiting(self) -> bool:
        return self.conn.their_state is h11.IDLE and not self.transport.is_closing()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self \
                or self.conn.their_state not in _RECEIVING:
            self._disarm()  # upgraded to a WebSocket, or the request is in
        else:
            # A next request has begun (its keep-alive timer is off now): its deadline.
            self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The keep-alive timer runs until the next request's first byte.
        self._disarm()

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self \
                or self.conn.their_state not in _RECEIVING:
            return
        if self.conn.their_state is h11.IDLE:
            self.transport.write(_TIMED_OUT)
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def _protocol(header_timeout: float, max_connections: int) -> type[_GuardedProtocol]:
    """The protocol class of one server, with its limits."""
    return type("GuardedProtocol", (_GuardedProtocol,),
                {"header_timeout": header_timeout, "max_connections": max_connections})


class _InLoopServer(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # the host process handles signals


class HttpServer:
    """Serve an ASGI app on `host:port` (port 0 = any free one; `port` tells which)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8000, *,
                 header_timeout: float = 10.0, max_connections: int = 256) -> None:
        self.app = app
        self.host = host
        self.requested_port = port
        self.port = port
        self.header_timeout = header_timeout
        self.max_connections = max_connections
        self._server: _InLoopServer | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.create_server((self.host, self.requested_port), family=family)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        throttle_accept_errors(asyncio.get_running_loop())
        config = uvicorn.Config(
            self.app, lifespan="off", log_config=None, access_log=False,
            timeout_graceful_shutdown=2, log_level="warning",
            http=_protocol(self.header_timeout, self.max_connections),
            timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEADER_BYTES,
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


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


class HostGuard:
    """ASGI middleware against DNS rebinding and cross-site WebSockets.

    A request's `Host` must name this server: an IP address (a page whose address is an IP
    was loaded from that address, so no rebinding), `localhost` (or a name under it), or
    one of `allowed_hosts` (the configured host and `GAUNTLET_ALLOWED_HOSTS`; `*` allows
    any). Others get 421. A WebSocket's `Origin`, when there is one (browsers always send
    it, other clients need not), must be this server's own origin (its scheme, host and
    port are the request's); a page of another site is refused (HTTP 403).
    """

    def __init__(self, app: Any, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        names = {_bare(h) for h in (*LOOPBACK_NAMES, *allowed_hosts) if h.strip()}
        self.any_host = "*" in names
        self.names = frozenset(names)

    def allows(self, host: str) -> bool:
        """Whether a `Host` header names this server.

        >>> guard = HostGuard(None, ["gauntlet.lan"])
        >>> [guard.allows(h) for h in ("localhost:8000", "[::1]:8000", "10.0.0.7",
        ...                            "GAUNTLET.lan.", "evil.example:8000")]
        [True, True, True, True, False]
        """
        name = _bare(_split_port(host)[0])
        if self.any_host or name in self.names or name.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = origin = None
        for name, value in scope.get("headers", ()):
            if name == b"host":
                host = value.decode("latin-1")
            elif name == b"origin":
                origin = value.decode("latin-1")
        problem = None
        if host is not None and not self.allows(host):
            problem = (f"Host {host[:100]!r} is not a name of this server (GAUNTLET_ALLOWED_HOSTS "
                       "adds names)")
        elif scope["type"] == "websocket" and origin is not None \
                and not _same_origin(origin, host):
            problem = f"Origin {origin[:100]!r} is not this server's"
        if problem is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await JSONResponse({"detail": problem}, status_code=421)(scope, receive, send)
        else:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008, "reason": problem[:120]})


def _bare(name: str) -> str:
    return name.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")


def _split_port(host: str) -> tuple[str, int | None]:
    """`host[:port]`, IPv6 in brackets."""
    host = host.strip()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest.removeprefix(":")
    elif host.count(":") == 1:
        name, _, port = host.partition(":")
    else:
        name, port = host, ""
    return name, int(port) if port.isdigit() else None


_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def _same_origin(origin: str, host: str | None) -> bool:
    """Whether `Origin` is the origin of the server the request reached (`Host`)."""
    if host is None:
        return False
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # "null" (a sandboxed page, a file) included
    # Host and port only: behind a TLS proxy the page is https and the request plain ws.
    try:
        origin_port = parts.port or _DEFAULT_PORTS[parts.scheme]
    except ValueError:
        return False
    name, port = _split_port(host)
    return (_bare(parts.hostname) == _bare(name)
            and origin_port == (port or _DEFAULT_PORTS[parts.scheme]))
