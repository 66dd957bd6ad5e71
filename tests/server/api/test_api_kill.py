"""`kill -9` a `gauntlet serve` mid-match: at the next start that match is aborted, the
finished ones are intact."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import httpx

from tests.server.api.conftest import AUTH, gauntlet_serve, wait_settled, wait_status


async def serve(tmp_path: Path) -> tuple[asyncio.subprocess.Process, httpx.AsyncClient]:
    proc, line = await gauntlet_serve(tmp_path)
    found = re.search(r"HTTP API on http://([\d.]+):(\d+)/api", line)
    assert found, line
    return proc, httpx.AsyncClient(base_url=f"http://{found[1]}:{found[2]}", timeout=30)


async def test_kill_9_mid_match_leaves_it_aborted(tmp_path: Path) -> None:
    proc, client = await serve(tmp_path)
    try:
        finished = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}]})
        finished_id = finished.json()["id"]
        before = await wait_settled(client, finished_id)
        live = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "random"}, {"bot": "random"}],
            "paused": True})
        live_id = live.json()["id"]
        await wait_status(client, live_id, {"paused"})
        await client.post(f"/api/matches/{live_id}/step", headers=AUTH)
        await asyncio.sleep(0.3)
    finally:
        await client.aclose()
        proc.send_signal(signal.SIGKILL)
        await proc.wait()

    proc, client = await serve(tmp_path)
    try:
        aborted = (await client.get(f"/api/matches/{live_id}")).json()
        assert aborted["status"] == "aborted" and aborted["result"] is None
        assert aborted["finished"] is not None
        events = await client.get(f"/api/matches/{live_id}/events")
        assert events.text  # what was stored before the kill stays
        intact = (await client.get(f"/api/matches/{finished_id}")).json()
        assert intact == before
        replay = await client.get(f"/api/matches/{finished_id}/replay")
        assert replay.status_code == 200 and b"winner" in replay.content
    finally:
        await client.aclose()
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            assert await proc.wait() == 0
