"""A real server (TCP + HTTP in one loop) on a real SQLite file, and an HTTP client for it."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.config import ServerConfig
from server.runtime import GauntletServer
from server.store import Store

TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
BOTS = Path(__file__).with_name("bots")
REPO = Path(__file__).resolve().parents[3]
GAUNTLET = str(Path(sys.executable).parent / "gauntlet")


async def gauntlet_serve(tmp_path: Path, env: dict[str, str] | None = None,
                         cwd: Path = REPO) -> tuple[asyncio.subprocess.Process, str]:
    """A real `gauntlet serve` on free ports with its database and data folder in
    `tmp_path` (`env` on top of this one's, the admin token TOKEN): the process and the
    line it prints first (where it listens)."""
    environ = {**os.environ, "GAUNTLET_ADMIN_TOKEN": TOKEN, "GAUNTLET_ADMIN_PASSWORD": "pw",
               **(env or {})}
    proc = await asyncio.create_subprocess_exec(
        GAUNTLET, "serve", "--tcp-port", "0", "--http-port", "0",
        "--db", f"sqlite:///{tmp_path / 'g.db'}", "--data-dir", str(tmp_path / "data"),
        "--log-level", "WARNING", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, env=environ, cwd=cwd)
    assert proc.stdout is not None
    async with asyncio.timeout(60):
        line = (await proc.stdout.readline()).decode()
    return proc, line


@dataclass
class Running:
    server: GauntletServer
    http: httpx.AsyncClient
    store: Store
    db_url: str

    @property
    def tcp_port(self) -> int:
        return self.server.tcp_port


def config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "data",
                        soft_timeout=5.0, hard_timeout=10.0)


async def start(tmp_path: Path) -> tuple[GauntletServer, httpx.AsyncClient, Store, str]:
    db_url = f"sqlite:///{tmp_path / 'gauntlet.db'}"
    store = Store(db_url)
    server = GauntletServer(config(tmp_path), store=store, http_port=0, admin_token=TOKEN)
    await server.start()
    client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.http_port}", timeout=30)
    return server, client, store, db_url


async def stop(server: GauntletServer, client: httpx.AsyncClient, store: Store) -> None:
    await client.aclose()
    await server.close()
    store.close()


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    server, client, store, url = await start(tmp_path)
    try:
        yield Running(server, client, store, url)
    finally:
        await stop(server, client, store)


async def wait_status(client: httpx.AsyncClient, match_id: str, statuses: set[str],
                      timeout: float = 60) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            response = await client.get(f"/api/matches/{match_id}")
            assert response.status_code == 200, response.text
            body: dict[str, Any] = response.json()
            if body["status"] in statuses:
                return body
            await asyncio.sleep(0.1)


async def wait_settled(client: httpx.AsyncClient, match_id: str,
                       timeout: float = 60) -> dict[str, Any]:
    """The match finished and its room is gone: from then on its answer never changes. (A
    result is stored before it is announced, so for a moment a match reads finished while
    its room still says goodbye: `live` true.)"""
    async with asyncio.timeout(timeout):
        while True:
            body = await wait_status(client, match_id, {"finished"}, timeout)
            if not body["live"]:
                return body
            await asyncio.sleep(0.05)


async def register(client: httpx.AsyncClient, name: str, argv: list[str]) -> int:
    response = await client.post("/api/bots", headers=AUTH, json={
        "name": name, "game": "swc_2027_blokus", "command": argv, "workdir": str(REPO)})
    assert response.status_code == 201, response.text
    bot_id: int = response.json()["id"]
    return bot_id


def script(name: str) -> list[str]:
    return [sys.executable, str(BOTS / name)]
