"""HTTP limits on a real server: request bodies are capped before they are read whole
(413 with a JSON error, on Content-Length and on a streamed body without one), and
WebSockets are capped per address (refused at the handshake); a WebSocket client that
never reads is dropped and the match it watches goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import websockets

from bots.blokus.aio import play_async
from bots.blokus.bundled import RandomBot
from server.config import Limits, ServerConfig
from server.runtime import GauntletServer

TOKEN = "t0ken-for-tests"
AUTH = {"authorization": f"Bearer {TOKEN}", "content-type": "application/json"}


@pytest.fixture
async def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    limits = Limits(http_max_body_bytes=64 << 10, max_websockets_per_address=4)
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path, limits=limits)
    async with GauntletServer(config, http_port=0, admin_token=TOKEN) as srv:
        yield srv


async def test_large_bodies_get_413_before_they_are_read(server: GauntletServer) -> None:
    base = f"http://127.0.0.1:{server.http_port}"
    big = b'{"game": "' + b"A" * (10 << 20) + b'", "seats": []}'

    async def streamed() -> AsyncIterator[bytes]:  # no Content-Length: chunked
        for start in range(0, len(big), 65536):
            yield big[start : start + 65536]

    async with httpx.AsyncClient(base_url=base, timeout=30.0) as client:
        announced = await client.post("/api/matches", headers=AUTH, content=big)
        chunked = await client.post("/api/matches", headers=AUTH, content=streamed())
        small = await client.post("/api/matches", headers=AUTH, content=b'{"game": "x"}')
        health = await client.get("/api/health")
    for response in (announced, chunked):
        assert response.status_code == 413, response.text[:200]
        assert "larger than 65536 bytes" in response.json()["detail"]
    assert small.status_code == 422 and health.status_code == 200


async def test_websockets_per_address_are_capped(server: GauntletServer) -> None:
    url = f"ws://127.0.0.1:{server.http_port}/ws/lobby"
    held = [await websockets.connect(url) for _ in range(4)]
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url)
    assert refused.value.response.status_code == 403
    await held.pop().close()
    await asyncio.sleep(0.2)
    again = await websockets.connect(url)  # a slot is free again
    for ws in (*held, again):
        await ws.close()


async def test_a_websocket_that_never_reads_does_not_hold_the_match(
        server: GauntletServer) -> None:
    port = server.tcp_port
    players = asyncio.gather(
        play_async(RandomBot(1), "127.0.0.1", port, idle_timeout=60),
        play_async(RandomBot(2), "127.0.0.1", port, idle_timeout=60))
    async with asyncio.timeout(30):
        while not server.rooms:
            await asyncio.sleep(0.01)
    room_id = next(iter(server.rooms))
    # A spectator that never reads, with a tiny window: the server's writes back up.
    stuck = await websockets.connect(
        f"ws://127.0.0.1:{server.http_port}/ws/matches/{room_id}?since=0",
        max_queue=1)
    async with asyncio.timeout(180):
        await players
    assert server.stats.matches_finished == 1
    await stuck.close()
