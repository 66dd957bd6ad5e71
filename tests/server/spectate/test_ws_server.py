"""Spectating inside the whole server: the viewer at /, the same seqs as the store."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.spectate.spectate_kit import blokus_match, finished, read


async def test_the_viewer_and_the_match_stream_in_the_full_server(running: Any) -> None:
    page = await running.http.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    script = await running.http.get("/app.js")
    assert script.status_code == 200
    assert (await running.http.get("/api/health")).status_code != 404
    room, _ = blokus_match(running.server.lobby)
    await finished(room)
    port = running.server.http_port
    stream = await read(f"ws://127.0.0.1:{port}/ws/matches/{room.id}?since=0")
    assert stream.close_code == 1000
    assert running.server.writer is not None
    await running.server.writer.flush()
    stored = await asyncio.to_thread(running.store.events_since, room.id, 0)
    observed = [e.seq for e in stored if e.payload.get("observers")]
    assert stream.seqs == observed
