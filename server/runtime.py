"""The whole server in one object, for `gauntlet serve`, bots, tests and benchmarks.

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
from collections import deque
from pathlib import Path
from types import TracebackType

from server.config import ServerConfig
from server.games.registry import GameRegistry
from server.ladder import Ladder, LadderOptions
from server.matches import SEAT_LOGS, MatchService
from server.net.listener import TcpListener
from server.rooms import Clocks, Entry, Lobby, MatchResult, Room, ServerStats
from server.store import Store, StoreWriter
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


class GauntletServer:
    """TCP listener + lobby + game registry. `async with GauntletServer(config) as srv:` runs it.

`games` defaults to every game installed under the `gauntlet.games` entry points.

    `srv.tcp_port` is the bound port (config port 0 = ephemeral), `srv.rooms` the open rooms,
    `srv.stats.move_processing_seconds` the server's time per move (the move's bytes received
    until the next moveRequest/result bytes were written; the bots' think time is not
    included).
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
        games it plays is stored, see server/ladder)."""
        self.config = config or ServerConfig()
        if http_port is None:
            http_port = self.config.http_port
        if admin_token is None:
            admin_token = self.config.admin_token
        self.stats = ServerStats()
        self.games = games if games is not None else GameRegistry.from_entry_points()
        # The latest replay paths (bounded: a server runs for weeks; the files are the record).
        self.replays: deque[Path] = deque(maxlen=1000)
        self._replay_writes: set[asyncio.Task[None]] = set()
        clocks = Clocks(
            self.config.soft_timeout, self.config.hard_timeout,
            decision=self.config.decision_timeout, turn=self.config.turn_timeout,
            enabled=not self.config.no_timeout,
        )
        self.lobby = Lobby(
            clocks=clocks, paused=self.config.paused, stats=self.stats,
            on_result=self._store_result, max_rooms=self.config.limits.max_rooms,
            max_observers=self.config.limits.max_observers_per_room,
            games=self.games, seed=self.config.seed,
            empty_room_timeout=self.config.limits.empty_room_seconds,
            max_waiting_seats=self.config.limits.max_waiting_seats,
            max_join_rooms=self.config.limits.max_join_rooms,
            max_join_rooms_per_address=self.config.limits.max_join_rooms_per_address,
        )
        self._listener: TcpListener | None = None
        self._owns_store = store is None and http_port is not None
        self.store: Store | None = Store("sqlite://") if self._owns_store else store
        self.writer: StoreWriter | None = None
        self.housekeeping: Housekeeping | None = None  # the store's sweeps (retention)
        self.http_port_requested = http_port
        self.admin_token = admin_token
        self.admin_token_generated = False
        self._http: object | None = None
        self.matches = MatchService(self.lobby, self.store, None, host=self.config.host,
                                    port=lambda: self.tcp_port, data_dir=self.config.data_dir)
        self.lobby.room_listeners.append(self._room_created)
        self.lobby.find_launched = self.matches.launched_reservation
        self.ladder: Ladder | None = (Ladder(self.matches, self.store, self.games, ladder)
                                      if self.store is not None else None)
        self.lobby.gate = self.matches.refusal  # no new matches while the store fails

    @property
    def rooms(self) -> dict[str, Room]:
        return self.lobby.rooms

    @property
    def tcp_port(self) -> int:
        assert self._listener is not None, "server not started"
        return self._listener.bound_port

    @property
    def http_port(self) -> int:
        from server.api import HttpServer

        assert isinstance(self._http, HttpServer), "HTTP API not started"
        return self._http.port

    async def _open_store(self, store: Store) -> None:
        """Upgrade the schema, abort what a previous run left open, register bundled bots."""
        from server.matches import abort_stale_waiting, register_bundled_bots

        def prepare() -> None:
            store.upgrade()
            aborted = store.recover() + abort_stale_waiting(store)
            if aborted:
                log.warning("%d matches of a previous run aborted", len(aborted))
            added = register_bundled_bots(store, self.lobby.games)
            if added:
                log.info("bundled bots registered: %s", ", ".join(added))

        await asyncio.to_thread(prepare)
        self.writer = StoreWriter(store)
        await self.writer.start()
        self.matches.writer = self.writer
        self.housekeeping = Housekeeping(self.writer, Retention(
            self.config.event_retention_days, self.config.unplayed_retention_minutes),
            self.config.data_dir / SEAT_LOGS)
        self.housekeeping.start()

    async def _start_http(self, port: int) -> None:
        from server.api import ApiContext, HttpServer, create_app, resolve_admin_token

        token, self.admin_token_generated = resolve_admin_token(self.admin_token,
                                                                self.config.data_dir)
        self.admin_token = token

        def tcp_port() -> int | None:
            return self._listener.bound_port if self._listener is not None else None

        limits = self.config.limits
        app = create_app(ApiContext(self.store, self.matches, self.games, token, tcp_port,
                                    self.ladder, limits.http_max_body_bytes,
                                    limits.max_websockets_per_address,
                                    (self.config.host, *self.config.allowed_hosts)))
        http = HttpServer(app, self.config.host, port,
                          header_timeout=limits.http_header_timeout_seconds,
                          max_connections=limits.http_max_connections)
        await http.start()
        self._http = http

    async def start(self) -> None:
        from server.launcher import reap_orphans

        # Before anything listens: a dead server's bots must not take seats of this one.
        await asyncio.to_thread(reap_orphans, self.config.data_dir)
        if self.store is not None:
            await self._open_store(self.store)
        password = self.config.resolve_admin_password()
        limits = self.config.limits
        # Bots this server launches get these unless their spec says otherwise.
        from server.launcher import ResourceLimits, set_default_limits

        set_default_limits(ResourceLimits(
            memory_bytes=limits.bot_memory_mb << 20 if limits.bot_memory_mb else None,
            cpu_seconds=limits.bot_cpu_seconds or None))
        self._listener = TcpListener(
            self.lobby, host=self.config.host, port=self.config.tcp_port,
            admin_password=password, max_connections=limits.max_connections,
            observer_queue=limits.observer_queue, write_timeout=limits.write_timeout_seconds,
            message_rate=(limits.messages_per_second, limits.message_burst),
            max_per_address=limits.max_connections_per_address,
            login_timeout=limits.login_timeout_seconds,
            max_per_loopback=limits.max_loopback_connections,
        )
        await self._listener.start()
        if self.http_port_requested is not None:
            await self._start_http(self.http_port_requested)
        if self.ladder is not None:
            await self.ladder.start()

    async def close(self) -> None:
        """Stop accepting, end every match, say goodbye to every client, wait for all tasks,
        then commit what the store writer still holds."""
        from server.api import HttpServer

        http, self._http = self._http, None
        if isinstance(http, HttpServer):
            # uvicorn runs without lifespan events, so the spectators are told here.
            hub = getattr(http.app.state, "spectate", None)
            if hub is not None:
                hub.close()
            await http.stop()
        if self.ladder is not None:
            await self.ladder.close()  # its live legs are replayed on the next start
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop_accepting()
        await self.lobby.close()
        await self.matches.close()
        if self._replay_writes:  # the last results' replays
            await asyncio.wait(set(self._replay_writes))
        if listener is not None:
            await listener.close()
        housekeeping, self.housekeeping = self.housekeeping, None
        if housekeeping is not None:
            await housekeeping.close()
        writer, self.writer = self.writer, None
        if writer is not None:
            await writer.close()
        if self._owns_store and self.store is not None:
            self.store.close()

    async def serve_forever(self) -> None:
        await asyncio.Event().wait()

    async def __aenter__(self) -> GauntletServer:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    def _room_created(self, room: Room) -> None:
        self.matches.room_created(room)
        listener = self._listener
        if self.config.save_replays and listener is not None and self.lobby.speaks(room, "sc"):
            # Each memento is encoded as its replay packet, the players' bytes made from it
            # (`SharedEncodings.keep`): one encoding a move, no re-indenting.
            from server.net.replay import packet_bytes

            listener.shared.keep(room.id, packet_bytes)
            if room.task is not None:
                room.task.add_done_callback(lambda _t: listener.shared.take(room.id))

    async def _store_result(self, room: Room, result: MatchResult) -> None:
        """Runs before the result is announced (a finished game is never lost).

        Raises (`ResultNotStored`) when the store did not take the result: the room then
        aborts the match. The replay file (`--save-replays`) is written afterwards, in
        the background (`close` waits for it); one that cannot be written is only logged.
        """
        await self.matches.on_result(room, result)
        if not self.config.save_replays:
            return
        # Written after the result is announced: nobody waits for the file, so a game's
        # last move does not take the time of writing its replay.
        # What the replay shows is taken now: the room logs more (the result) meanwhile.
        sc = self.lobby.speaks(room, "sc")
        bodies = self._listener.shared.take(room.id) if self._listener is not None and sc \
            else None
        logged = room.log.replay_entries() if sc else None
        task = asyncio.get_running_loop().create_task(
            self._write_replay(room, result, bodies, logged))
        self._replay_writes.add(task)
        task.add_done_callback(self._replay_writes.discard)

    async def _write_replay(self, room: Room, result: MatchResult,
                            bodies: dict[int, bytes] | None, logged: list[Entry] | None
                            ) -> None:
        try:
            await self._write_replay_file(room, result, bodies, logged)
        except Exception:
            log.exception("room %s: the replay file could not be written", room.id)

    async def _write_replay_file(self, room: Room, result: MatchResult,
                                 bodies: dict[int, bytes] | None, logged: list[Entry] | None
                                 ) -> None:
        plugin = room.plugin
        if plugin is not None and plugin.replay_files is not None:  # Hearth: Power.log, XML
            paths = await asyncio.to_thread(plugin.replay_files, room, result,
                                            self.config.replay_dir)
            self.replays.extend(paths)
            return
        if not self.lobby.speaks(room, "sc"):
            return
        from server.net.replay import write_replay

        path = await asyncio.to_thread(write_replay, room, result, self.config.replay_dir,
                                       self.config.gzip_replays, bodies, logged)
        self.replays.append(path)
