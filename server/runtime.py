"""The whole server in one object, for `gauntlet serve`, bots, tests and benchmarks: a
`MatchHost` (lobby, TCP listener, match service) with the HTTP API, the ladder, the
cluster's dispatcher and the store's chores (schema upgrade, recovery, retention) on top.

>>> import asyncio
>>> async def main():
...     async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw")) as srv:
...         return srv.tcp_port > 0, len(srv.rooms)
>>> asyncio.run(main())
(True, 0)
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from server.config import ServerConfig
from server.games.registry import GameRegistry
from server.host import MatchHost
from server.ladder import Ladder, LadderOptions
from server.matches import SEAT_LOGS
from server.sprt import SprtRunner
from server.store import Store
from server.store.retention import Housekeeping, Retention

log = logging.getLogger(__name__)

# Python's defaults are (700, 10, 10). See `tune_gc`.
GC_THRESHOLDS = (50_000, 20, 10)


def tune_gc() -> None:
    """Garbage-collector settings for a long-running server; call once it has started
    (modules imported, game tables built, the store opened), before it serves for long.

    Why: the cyclic collector stops the whole process, event loop included, and a full
    collection walks every container object alive. Under `make soak` (200 matches at once)
    the default settings ran a full collection every few seconds, each pausing the loop
    up to 1.9 s (docs/benchmarks.md, "Soak"). `gc.freeze()` moves everything alive now
    (about 120,000 objects of modules, engine tables, SQLAlchemy) to a generation that is
    never collected again, so no collection walks them. A first generation of 50,000
    instead of 700 allocations collects about 70 times less often (matches allocate tens
    of thousands of containers a second, nearly all freed by reference counting anyway),
    and objects living less than a few seconds are no longer promoted into the old
    generation, so full collections come much less often. The price: cyclic garbage
    lives longer (peak RSS of the soak about +50 %).
    """
    gc.collect()  # what start-up left as garbage is freed, not frozen
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class GauntletServer(MatchHost):
    """A `MatchHost` with the HTTP API, the ladder and the store's chores.
    `async with GauntletServer(config) as srv:` runs it.

    `games` defaults to every game installed under the `gauntlet.games` entry points.
    `srv.tcp_port` is the bound port (config port 0 = ephemeral), `srv.rooms` the open rooms,
    `srv.stats.move_processing_seconds` the server's time per move (see `MatchHost`).
    """

    def __init__(self, config: ServerConfig | None = None,
                 games: GameRegistry | None = None, *, store: Store | None = None,
                 http_port: int | None = None, admin_token: str | None = None,
                 ladder: LadderOptions | None = None) -> None:
        """`store`: record every match there (None: nothing is stored, unless the HTTP API
        is on, which then gets an in-memory SQLite store). `http_port`: serve the HTTP API
        on it (None: no HTTP; 0: any free port). `admin_token`: the API's bearer token
        (None: `<data_dir>/admin-token`, generated on the first start). Both default to the
        config's. `ladder`: how the ladder plays (it runs whenever there is a store; which
        games it plays is stored, see server/ladder). With `config.cluster` (a broker) the
        ladder's and the API's matches of registered bots go to the workers."""
        config = config or ServerConfig()
        if http_port is None:
            http_port = config.http_port
        if admin_token is None:
            admin_token = config.admin_token
        self._owns_store = store is None and http_port is not None
        super().__init__(config, games, store=Store("sqlite://") if self._owns_store else store)
        self.housekeeping: Housekeeping | None = None  # the store's sweeps (retention)
        self.http_port_requested = http_port
        self.admin_token = admin_token
        self.admin_token_generated = False
        self._http: object | None = None
        self.dispatcher = self._dispatcher()
        self.ladder: Ladder | None = (
            Ladder(self.matches, self.store, self.games, ladder, remote=self.dispatcher)
            if self.store is not None else None)
        # Sequential tests (POST /api/tests), resumed at start like the ladder's legs.
        self.sprt: SprtRunner | None = (
            SprtRunner(self.matches, self.store, remote=self.dispatcher,
                       clocks=ladder.clocks if ladder is not None else None)
            if self.store is not None else None)

    def _dispatcher(self) -> Any:
        """The cluster's `Dispatcher` with a broker and a store, else None (Celery is
        imported only then)."""
        cluster = self.config.cluster
        if cluster is None or not cluster.broker_url or self.store is None:
            return None
        from server.worker.dispatch import Dispatcher

        return Dispatcher(cluster, self.store)

    @property
    def http_port(self) -> int:
        from server.api import HttpServer

        assert isinstance(self._http, HttpServer), "HTTP API not started"
        return self._http.port

    async def _prepare_store(self, store: Store) -> None:
        """Upgrade the schema, abort what a previous run left open, register bundled bots."""
        from server.startup import abort_stale_waiting, register_bundled_bots

        keep_dispatched = self.dispatcher is not None

        def prepare() -> None:
            store.upgrade()
            aborted = (store.recover(keep_dispatched=keep_dispatched)
                       + abort_stale_waiting(store, keep_dispatched=keep_dispatched))
            if aborted:
                log.warning("%d matches of a previous run aborted", len(aborted))
            added = register_bundled_bots(store, self.lobby.games)
            if added:
                log.info("bundled bots registered: %s", ", ".join(added))

        await asyncio.to_thread(prepare)

    async def _start_http(self, port: int) -> None:
        from server.api import ApiContext, HttpServer, create_app, resolve_admin_token

        token, self.admin_token_generated = resolve_admin_token(self.admin_token,
                                                                self.config.data_dir)
        self.admin_token = token

        def tcp_port() -> int | None:
            return self._listener.bound_port if self._listener is not None else None

        limits = self.config.limits
        cluster = self.config.cluster
        app = create_app(ApiContext(
            self.store, self.matches, self.games, token, tcp_port, self.ladder,
            limits.http_max_body_bytes, limits.max_websockets_per_address,
            (self.config.host, *self.config.allowed_hosts), dispatcher=self.dispatcher,
            pubsub_url=cluster.pubsub_url if cluster else None, sprt=self.sprt))
        http = HttpServer(app, self.config.host, port,
                          header_timeout=limits.http_header_timeout_seconds,
                          max_connections=limits.http_max_connections)
        await http.start()
        self._http = http

    async def start(self) -> None:
        if self.store is not None:
            await self._prepare_store(self.store)
        await super().start()
        if self.writer is not None:
            self.housekeeping = Housekeeping(self.writer, Retention(
                self.config.event_retention_days, self.config.unplayed_retention_minutes),
                self.config.data_dir / SEAT_LOGS)
            self.housekeeping.start()
        if self.http_port_requested is not None:
            await self._start_http(self.http_port_requested)
        if self.ladder is not None:
            await self.ladder.start()
        if self.sprt is not None:
            await self.sprt.start()

    async def close(self) -> None:
        """Stop the HTTP API and the ladder, then the host (every match ends, the store
        writer commits what it still holds)."""
        from server.api import HttpServer

        http, self._http = self._http, None
        if isinstance(http, HttpServer):
            # uvicorn runs without lifespan events, so the spectators are told here.
            hub = getattr(http.app.state, "spectate", None)
            if hub is not None:
                hub.close()
            await http.stop()
        if self.sprt is not None:
            await self.sprt.close()  # its pairs being played are resumed on the next start
        if self.ladder is not None:
            await self.ladder.close()  # its live legs are replayed on the next start
        housekeeping, self.housekeeping = self.housekeeping, None
        if housekeeping is not None:
            await housekeeping.close()
        await super().close()
        if self.dispatcher is not None:
            self.dispatcher.close()
        if self._owns_store and self.store is not None:
            self.store.close()
