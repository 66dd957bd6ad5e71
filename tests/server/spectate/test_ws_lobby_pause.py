"""The match list is told of pauses: `/ws/lobby` says `paused` and `resumed` as an admin
pauses and resumes a match, with the status the list shows."""

from __future__ import annotations

import asyncio
import json

import websockets

from tests.server.spectate.spectate_kit import blokus_match, site


async def _next_event(ws: websockets.ClientConnection, match_id: str,
                      wanted: str) -> dict[str, object]:
    """The lobby's next message about `match_id` whose event is `wanted` (others pass by)."""
    async with asyncio.timeout(60):
        while True:
            message = json.loads(await ws.recv())
            if message.get("event") == wanted and message["match"]["id"] == match_id:
                return dict(message["match"])


async def test_the_lobby_tells_of_a_pause_and_a_resume() -> None:
    async with site() as s, websockets.connect(s.url("/ws/lobby")) as ws:
        json.loads(await ws.recv())  # the list
        room, _ = blokus_match(s.lobby, delay=0.05)
        assert (await _next_event(ws, room.id, "started"))["status"] == "running"
        room.pause(True)
        paused = await _next_event(ws, room.id, "paused")
        assert paused["status"] == "paused" and paused["live"] is True
        # A new spectator of the list sees the status as it is.
        async with websockets.connect(s.url("/ws/lobby")) as other:
            listed = {m["id"]: m for m in json.loads(await other.recv())["matches"]}
            assert listed[room.id]["status"] == "paused"
        room.pause(False)
        assert (await _next_event(ws, room.id, "resumed"))["status"] == "running"
        room.cancel()
