"""A page of another site reaches neither the open GET API (through DNS rebinding: its own
name, resolved to 127.0.0.1, in `Host`) nor the spectators' WebSockets (issue 24, point 6)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import httpx
import pytest
import websockets

from server.runtime import GauntletServer
from server.store import Store
from tests.server.api.conftest import TOKEN, Running, config


async def _status(port: int, host: str) -> int:
    async with httpx.AsyncClient(timeout=30) as client:
        answer = await client.get(f"http://127.0.0.1:{port}/api/matches",
                                  headers={"Host": host})
        return answer.status_code


async def test_a_host_that_is_not_this_servers_gets_421(running: Running) -> None:
    port = running.server.http_port
    assert await _status(port, f"rebind.attacker.example:{port}") == 421
    assert await _status(port, "attacker.example") == 421
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost.:{port}",
                 f"[::1]:{port}", f"192.168.7.20:{port}", f"viewer.localhost:{port}"):
        assert await _status(port, host) == 200, host
    async with httpx.AsyncClient(timeout=30) as client:
        refused = await client.get(f"http://127.0.0.1:{port}/",
                                   headers={"Host": "attacker.example"})
    assert refused.status_code == 421 and "GAUNTLET_ALLOWED_HOSTS" in refused.text


async def test_configured_host_names_are_served(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    served = GauntletServer(dataclasses.replace(config(tmp_path),
                                                allowed_hosts=("gauntlet.lan",)),
                            store=store, http_port=0, admin_token=TOKEN)
    await served.start()
    try:
        port = served.http_port
        assert await _status(port, f"gauntlet.lan:{port}") == 200
        assert await _status(port, f"other.lan:{port}") == 421
    finally:
        await served.close()
        store.close()


async def test_a_websocket_from_another_origin_is_refused(running: Running) -> None:
    port = running.server.http_port
    url = f"ws://127.0.0.1:{port}/ws/lobby"
    for origin in ("http://attacker.example", f"http://attacker.example:{port}",
                   f"http://127.0.0.1:{port + 1}", "null"):
        with pytest.raises(websockets.InvalidStatus, match="403"):
            async with asyncio.timeout(30), websockets.connect(
                    url, origin=websockets.Origin(origin)):
                pass
    # The viewer's own page, and clients that send no Origin (bots, scripts).
    for origin in (f"http://127.0.0.1:{port}", None):
        async with asyncio.timeout(30), websockets.connect(
                url, origin=None if origin is None else websockets.Origin(origin)) as ws:
            assert '"matches"' in str(await ws.recv())
