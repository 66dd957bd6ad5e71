"""`kill -9` a `gauntlet serve` mid-match: at the next start that match is aborted, the
finished ones are intact."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import httpx

from tests.api.conftest import AUTH, REPO, TOKEN, wait_settled, wait_status

GAUNTLET = str(Path(sys.executable).parent / "gauntlet")


async def serve(tmp_path: Path) -> tuple[asyncio.subprocess.Process, httpx.AsyncClient]:
    env = {**os.environ, "GAUNTLET_ADMIN_TOKEN": TOKEN, "GAUNTLET_ADMIN_PASSWORD": "pw"}
    proc = await asyncio.create_subprocess_exec(
        GAUNTLET, "serve", "--tcp-port", "0", "--http-port", "0",
        "--db", f"sqlite:///{tmp_path / 'g.db'}", "--data-dir", str(tmp_path / "data"),
        "--log-level", "WARNING", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, env=env, cwd=REPO)
    assert proc.stdout is not None
    async with asyncio.timeout(60):
        line = (await proc.stdout.readline()).decode()
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
