"""`MatchHost`: what plays matches: the lobby, its TCP listener and the match service.

The single-machine server (`server.runtime.GauntletServer`) is a host with the HTTP API,
the ladder and the store's chores on top; a cluster worker (`server.worker.job`) builds a
bare host for the one match it plays, with the store and the room listeners it needs given
here, not patched into a built server. Nothing here imports the API, the ladder or the
worker, so both can build one without an import circle.

>>> import asyncio
>>> async def main():
...     async with MatchHost(ServerConfig(tcp_port=0, admin_password="pw")) as host:
...         return host.tcp_port > 0, len(host.rooms), host.writer
>>> asyncio.run(main())
(True, 0, None)
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Self

from server.config import ServerConfig
from server.games.registry import GameRegistry
from server.matches import MatchService
from server.net.listener import TcpListener
from server.rooms import Clocks, Entry, Lobby, MatchResult, Room, ServerStats
from server.store import Store, StoreWriter

log = logging.getLogger(__name__)


class MatchHost:
    """Lobby + TCP listener + match service. `async with MatchHost(config) as host:` runs it.

    `games` defaults to every game installed under the `gauntlet.games` entry points.
    `store`: every match is recorded there through a `StoreWriter` this host owns (None:
    nothing is stored). `room_listeners` are told of every room as it is created, after the
    match service (which tracks it) and in the order given.

    `host.tcp_port` is the bound port (config port 0 = ephemeral), `host.rooms` the open
    rooms, `host.stats.move_processing_seconds` the server's time per move (the move's
    bytes received until the next moveRequest/result bytes were written; the bots' think
    time is not included).
    """

    def __init__(self, config: ServerConfig | None = None,
                 games: GameRegistry | None = None, *, store: Store | None = None,
                 room_listeners: Iterable[Callable[[Room], None]] = ()) -> None:
        self.config = config or ServerConfig()
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
        limits = self.config.limits
        self.lobby = Lobby(
            clocks=clocks, paused=self.config.paused, stats=self.stats,
            on_result=self._store_result, max_rooms=limits.max_rooms,
            max_observers=limits.max_observers_per_room,
            games=self.games, seed=self.config.seed,
            empty_room_timeout=limits.empty_room_seconds,
            max_waiting_seats=limits.max_waiting_seats,
            max_join_rooms=limits.max_join_rooms,
            max_join_rooms_per_address=limits.max_join_rooms_per_address,
        )
        self._listener: TcpListener | None = None
        self.store = store
        self.writer: StoreWriter | None = StoreWriter(store) if store is not None else None
        self.matches = MatchService(self.lobby, store, self.writer, host=self.config.host,
                                    port=lambda: self.tcp_port, data_dir=self.config.data_dir)
        self.lobby.room_listeners.append(self._room_created)
        self.lobby.room_listeners.extend(room_listeners)
        self.lobby.find_launched = self.matches.launched_reservation
        self.lobby.gate = self.matches.refusal  # no new matches while the store fails

    @property
    def rooms(self) -> dict[str, Room]:
        return self.lobby.rooms

    @property
    def tcp_port(self) -> int:
        assert self._listener is not None, "server not started"
        return self._listener.bound_port

    async def start(self) -> None:
        from server.launcher import ResourceLimits, reap_orphans, set_default_limits

        # Before anything listens: a dead server's bots must not take seats of this one.
        await asyncio.to_thread(reap_orphans, self.config.data_dir)
        if self.writer is not None:
            await self.writer.start()
        password = self.config.resolve_admin_password()
        limits = self.config.limits
        # Bots this server launches get these unless their spec says otherwise.
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

    async def close(self) -> None:
        """Stop accepting, end every match, say goodbye to every client, wait for all tasks,
        then commit what the store writer still holds."""
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop_accepting()
        await self.lobby.close()
        await self.matches.close()
        if self._replay_writes:  # the last results' replays
            await asyncio.wait(set(self._replay_writes))
        if listener is not None:
            await listener.close()
        writer, self.writer = self.writer, None
        if writer is not None:
            await writer.close()

    async def serve_forever(self) -> None:
        await asyncio.Event().wait()

    async def __aenter__(self) -> Self:
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
