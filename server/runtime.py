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
import logging
from collections import deque
from pathlib import Path
from types import TracebackType

from server.config import ServerConfig
from server.games.registry import GameRegistry
from server.net.listener import TcpListener
from server.rooms import Clocks, Lobby, MatchResult, Room, ServerStats

log = logging.getLogger(__name__)


class GauntletServer:
    """TCP listener + lobby + game registry. `async with GauntletServer(config) as srv:` runs it.

`games` defaults to every game installed under the `gauntlet.games` entry points.

    `srv.tcp_port` is the bound port (config port 0 = ephemeral), `srv.rooms` the open rooms,
    `srv.stats.move_processing_seconds` the server's time per move (move bytes read until
    the next moveRequest/result bytes were written; the bots' think time is not included).
    """

    def __init__(self, config: ServerConfig | None = None,
                 games: GameRegistry | None = None) -> None:
        self.config = config or ServerConfig()
        self.stats = ServerStats()
        self.games = games if games is not None else GameRegistry.from_entry_points()
        # The latest replay paths (bounded: a server runs for weeks; the files are the record).
        self.replays: deque[Path] = deque(maxlen=1000)
        defaults = Clocks()
        clocks = Clocks(
            self.config.soft_timeout, self.config.hard_timeout,
            # Hearth's clocks, once the config has them (server/config.py is not ours).
            decision=getattr(self.config, "decision_timeout", defaults.decision),
            turn=getattr(self.config, "turn_timeout", defaults.turn),
            enabled=not self.config.no_timeout,
        )
        self.lobby = Lobby(
            clocks=clocks, paused=self.config.paused, stats=self.stats,
            on_result=self._store_result, max_rooms=self.config.limits.max_rooms,
            max_observers=self.config.limits.max_observers_per_room,
            games=self.games, seed=self.config.seed,
            empty_room_timeout=self.config.limits.empty_room_seconds,
            max_waiting_seats=self.config.limits.max_waiting_seats,
        )
        self._listener: TcpListener | None = None

    @property
    def rooms(self) -> dict[str, Room]:
        return self.lobby.rooms

    @property
    def tcp_port(self) -> int:
        assert self._listener is not None, "server not started"
        return self._listener.bound_port

    async def start(self) -> None:
        password = self.config.resolve_admin_password()
        limits = self.config.limits
        self._listener = TcpListener(
            self.lobby, host=self.config.host, port=self.config.tcp_port,
            admin_password=password, max_connections=limits.max_connections,
            observer_queue=limits.observer_queue, write_timeout=limits.write_timeout_seconds,
            message_rate=(limits.messages_per_second, limits.message_burst),
        )
        await self._listener.start()

    async def close(self) -> None:
        """Stop accepting, end every match, say goodbye to every client, wait for all tasks."""
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop_accepting()
        await self.lobby.close()
        if listener is not None:
            await listener.close()

    async def serve_forever(self) -> None:
        await asyncio.Event().wait()

    async def __aenter__(self) -> GauntletServer:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def _store_result(self, room: Room, result: MatchResult) -> None:
        """Runs before the result is announced (a finished game is never lost)."""
        if not self.config.save_replays or not self.lobby.speaks(room, "sc"):
            return  # the official replay format exists for Software-Challenge games only
        from server.net.replay import write_replay

        path = await asyncio.to_thread(write_replay, room, result, self.config.replay_dir,
                                       self.config.gzip_replays)
        self.replays.append(path)
