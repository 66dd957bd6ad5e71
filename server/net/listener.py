"""The TCP listener: accept, sniff the first bytes, hand the connection to its session.

Thin asyncio glue: sessions do the work. `factories` maps each served protocol name (see
`server.net.sniff`) to the session class's constructor: Software-Challenge XML here, the
others from the game plugins (`GamePlugin.sessions`: Hearth's Kettle session); a protocol
without one is not recognised and the connection is closed. Connections are
tracked so that shutdown can tell each client goodbye in its own protocol and wait for
every handler.

Connections are bounded (`server.net.slots`): at most `max_connections` in all and
`max_per_address` from one address (`max_per_loopback` from this machine, where the bots
the server launches come from). A connection is judged by what it does, not when it is
accepted: one over a cap evicts the oldest connection that has joined nothing yet (in its
own protocol once it spoke one: SC an `errorpacket`, `<close/>`; Kettle a nack
`server_full` or `too_many_connections`; else just closed), and a join is refused so only
while connections that did join fill the cap; a join with a valid reservation (the
server's launched bots) or the admin password never is. A connection must join something
(or authenticate) within `login_timeout` seconds of connecting, or it is refused
(`login_timeout`) and closed; that bounds silent and byte-at-a-time (slowloris) clients
as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from server.net.acceptlog import throttle_accept_errors
from server.net.feeding import FeedingReader
from server.net.lockout import Lockout
from server.net.sc_cache import SharedEncodings
from server.net.sc_session import ScSession
from server.net.session import READ_SIZE, Session
from server.net.slots import Slots, peer_address
from server.net.sniff import NEED_MORE, SC, sniff
from server.rooms import Lobby

log = logging.getLogger(__name__)

SessionFactory = Callable[[FeedingReader, asyncio.StreamWriter], Session[Any]]


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
        max_per_address: int = 64,
        login_timeout: float | None = 10.0,
        max_per_loopback: int = 512,
    ) -> None:
        self.lobby = lobby
        self.host = host
        self.port = port
        self.sessions: set[Session[Any]] = set()
        self._admin_password = admin_password
        # One for all connections: a guesser cannot reset it by reconnecting.
        self.lockout = Lockout()
        self._observer_queue = observer_queue
        self._write_timeout = write_timeout
        self._message_rate = message_rate
        self._login_timeout = login_timeout
        self.slots = Slots(max_connections, max_per_address, max_per_loopback)
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self.shared = SharedEncodings()
        self._closing = False
        # SC here; a game's own protocol from its plugin (Hearth's Kettle session).
        self.factories: dict[str, SessionFactory] = {SC: self._sc_session}
        for plugin in lobby.games:
            for protocol, maker in plugin.sessions.items():
                self.factories.setdefault(protocol, self._plugin_session(maker))

    def _sc_session(self, reader: FeedingReader, writer: asyncio.StreamWriter
                    ) -> Session[Any]:
        return ScSession(reader, writer, self.lobby, admin_password=self._admin_password,
                         observer_queue=self._observer_queue, write_timeout=self._write_timeout,
                         shared=self.shared, message_rate=self._message_rate,
                         login_timeout=self._login_timeout, lockout=self.lockout)

    def _plugin_session(self, maker: Callable[..., Session[Any]]) -> SessionFactory:
        def make(reader: FeedingReader, writer: asyncio.StreamWriter) -> Session[Any]:
            return maker(reader, writer, self.lobby, observer_queue=self._observer_queue,
                         write_timeout=self._write_timeout, message_rate=self._message_rate,
                         login_timeout=self._login_timeout)
        return make

    @property
    def bound_port(self) -> int:
        assert self._server is not None and self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        # What asyncio.start_server does, with a reader that can feed its session.
        def connection() -> asyncio.StreamReaderProtocol:
            return asyncio.StreamReaderProtocol(FeedingReader(READ_SIZE),
                                                self._handle)  # type: ignore[arg-type]

        loop = asyncio.get_running_loop()
        throttle_accept_errors(loop)  # out of file descriptors: one line per 10 s, not 100,000
        self._server = await loop.create_server(connection, self.host, self.port)
        log.info("listening on %s:%d", self.host, self.bound_port)

    async def _handle(self, reader: FeedingReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        peer = writer.get_extra_info("peername")
        slot = self.slots.open(peer_address(peer))
        # Evicted before it spoke a protocol: nothing to say, only to close.
        slot.on_evict = lambda _reason, _detail: writer.close()
        try:
            first = b""
            protocol: str | None = NEED_MORE
            try:
                async with asyncio.timeout(self._login_timeout):
                    while protocol == NEED_MORE:
                        chunk = await reader.read(READ_SIZE)
                        if not chunk or slot.gone:
                            return
                        first += chunk
                        protocol = sniff(first, self.factories.keys())
            except TimeoutError:
                log.info("%s: no protocol within %ss; closing", peer, self._login_timeout)
                return
            arrived = time.monotonic()
            factory = self.factories.get(protocol) if protocol is not None else None
            if factory is None:
                log.info("%s: unknown protocol (first bytes %r); closing", peer, first[:8])
                return
            session = factory(reader, writer)
            session.slot = slot
            slot.on_evict = session.turn_away
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
            slot.close()
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

