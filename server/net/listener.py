"""The TCP listener: accept, sniff the first bytes, hand the connection to its session.

Thin asyncio glue: sessions do the work. `factories` maps each served protocol name (see
`server.net.sniff`) to the session class's constructor (Software-Challenge XML and Kettle);
a protocol without one is not recognised and the connection is closed. Connections are
tracked so that shutdown can tell each client goodbye in its own protocol and wait for
every handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from server.net.kettle_session import KettleSession
from server.net.sc_cache import SharedEncodings
from server.net.sc_session import ScSession
from server.net.session import READ_SIZE, Session
from server.net.sniff import KETTLE, NEED_MORE, SC, sniff
from server.rooms import Lobby

log = logging.getLogger(__name__)

SessionFactory = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Session[Any]]


class TcpListener:
    """Listens on one host/port and runs a session per accepted connection."""

    def __init__(
        self,
        lobby: Lobby,
        *,
        host: str,
        port: int,
        admin_password: str,
        max_connections: int = 1000,
        observer_queue: int = 512,
        write_timeout: float = 30.0,
        message_rate: tuple[float, int] = (1000.0, 2000),
    ) -> None:
        self.lobby = lobby
        self.host = host
        self.port = port
        self.sessions: set[Session[Any]] = set()
        self._admin_password = admin_password
        self._max_connections = max_connections
        self._observer_queue = observer_queue
        self._write_timeout = write_timeout
        self._message_rate = message_rate
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._shared = SharedEncodings()
        self._closing = False
        self.factories: dict[str, SessionFactory] = {SC: self._sc_session,
                                                     KETTLE: self._kettle_session}

    def _sc_session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                    ) -> Session[Any]:
        return ScSession(reader, writer, self.lobby, admin_password=self._admin_password,
                         observer_queue=self._observer_queue, write_timeout=self._write_timeout,
                         shared=self._shared, message_rate=self._message_rate)

    def _kettle_session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                        ) -> Session[Any]:
        return KettleSession(reader, writer, self.lobby, observer_queue=self._observer_queue,
                             write_timeout=self._write_timeout, message_rate=self._message_rate)

    @property
    def bound_port(self) -> int:
        assert self._server is not None and self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port,
                                                  limit=READ_SIZE)
        log.info("listening on %s:%d", self.host, self.bound_port)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            if len(self._handlers) > self._max_connections:
                log.warning("too many connections; refusing %s", writer.get_extra_info("peername"))
                return
            first = b""
            protocol: str | None = NEED_MORE
            while protocol == NEED_MORE:
                chunk = await reader.read(READ_SIZE)
                if not chunk:
                    return
                first += chunk
                protocol = sniff(first, self.factories.keys())
            arrived = time.monotonic()
            factory = self.factories.get(protocol) if protocol is not None else None
            if factory is None:
                log.info("%s: unknown protocol (first bytes %r); closing",
                         writer.get_extra_info("peername"), first[:8])
                return
            session = factory(reader, writer)
            self.sessions.add(session)
            try:
                await session.run(first, arrived)
            finally:
                self.sessions.discard(session)
        except (ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            # Only our own shutdown cancels handlers. asyncio's start_server callback calls
            # task.exception() on the handler, which raises for a cancelled task: end normally.
            if not self._closing:
                raise
        except Exception:
            log.exception("connection handler failed")
        finally:
            self._handlers.discard(task)
            if not writer.is_closing():
                writer.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    await writer.wait_closed()

    def stop_accepting(self) -> None:
        if self._server is not None:
            self._server.close()

    async def close(self, grace: float = 5.0) -> None:
        """Stop accepting, say goodbye to every client, wait for all handlers.

        Closed sessions end their handlers by themselves; what is left after `grace`
        seconds (or never got past sniffing) is cancelled.
        """
        self._closing = True
        self.stop_accepting()
        await asyncio.gather(*(s.close() for s in list(self.sessions)), return_exceptions=True)
        handlers = list(self._handlers)
        if handlers:
            _, pending = await asyncio.wait(handlers, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
