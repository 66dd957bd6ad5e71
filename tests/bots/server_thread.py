"""A real Gauntlet server (TCP + HTTP API on free ports, SQLite file) on its own event loop
in a background thread, for tests that drive it from synchronous code (CLI runs,
subprocesses)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from server.config import ServerConfig
from server.runtime import GauntletServer
from server.store import Store

TOKEN = "match-cli-token"


@dataclass
class Served:
    api: str
    tcp_port: int
    data_dir: Path


class ServerThread:
    """A GauntletServer with its HTTP API running on its own loop in a thread."""

    def __init__(self, tmp_path: Path, token: str | None = TOKEN, *,
                 soft_timeout: float = 5.0, hard_timeout: float = 10.0) -> None:
        self.data_dir = tmp_path / "data"
        self.store = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}")
        self.config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=self.data_dir,
                                   soft_timeout=soft_timeout, hard_timeout=hard_timeout)
        self.token = token
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.stop: asyncio.Event | None = None
        self.server: GauntletServer | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        except BaseException as error:  # reported by start()
            self.error = error
            self.ready.set()

    async def _main(self) -> None:
        self.stop = asyncio.Event()
        async with GauntletServer(self.config, store=self.store, http_port=0,
                                  admin_token=self.token) as server:
            self.server = server
            self.ready.set()
            await self.stop.wait()

    def start(self) -> Served:
        self.thread.start()
        assert self.ready.wait(60), "server did not start"
        if self.error is not None:
            raise self.error
        assert self.server is not None
        return Served(f"http://127.0.0.1:{self.server.http_port}", self.server.tcp_port,
                      self.data_dir)

    def close(self) -> None:
        if self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(60)
        self.store.close()


def served_server(tmp_path: Path) -> Iterator[Served]:
    """A `served` fixture's body: a ServerThread on `tmp_path`, started, closed after."""
    thread = ServerThread(tmp_path)
    try:
        yield thread.start()
    finally:
        thread.close()
