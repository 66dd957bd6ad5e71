"""The lobby socket's filtered pages (issue #30): with thousands of stored matches a page
request carrying `game`, `bot` and `status` is answered from the database (`total` counts
the matches that pass), the first page starts with the live matches that pass, an entry
says when it started and ended, and an unknown game or status is an error frame."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from tests.server.api.conftest import Running
from tests.server.spectate.spectate_kit import DEMO, blokus_match, fill_store

STORED = 2000


async def _answer(ws: Any, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while (message := json.loads(await ws.recv()))["type"] != kind:
            pass
    answer: dict[str, Any] = message
    return answer


async def _page(ws: Any, **request: Any) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "page", **request}))
    return await _answer(ws, "page")


async def test_a_filtered_page_finds_the_demo_among_thousands(running: Running) -> None:
    demo = await asyncio.to_thread(fill_store, running.store, STORED)
    live, _ = blokus_match(running.server.lobby, delay=0.2, seed=2)
    url = f"ws://127.0.0.1:{running.server.http_port}/ws/lobby"
    async with websockets.connect(url, max_size=2**24) as ws:
        first = await _answer(ws, "matches")
        assert first["stored"]["total"] >= STORED
        assert demo not in {m["id"] for m in first["matches"]}  # far down the list

        found = await _page(ws, offset=0, bot=DEMO[0])
        assert found["filter"] == {"game": None, "bot": DEMO[0], "status": None}
        assert found["total"] == 1 and [m["id"] for m in found["matches"]] == [demo]
        info = found["matches"][0]
        assert info["result"]["winnerName"] == DEMO[1]
        assert info["result"]["scores"] == [17, 42]
        assert info["finished"] - info["started"] == 95

        both = await _page(ws, offset=0, game="blokus", bot=DEMO[1], status="finished")
        assert both["filter"]["game"] == "swc_2027_blokus"  # an alias names its game
        assert [m["id"] for m in both["matches"]] == [demo]
        for miss in ({"game": "hearth"}, {"status": "aborted"}, {"bot": "nobody"}):
            none = await _page(ws, **{"offset": 0, "bot": DEMO[0], **miss})
            assert none["total"] == 0 and none["matches"] == [], miss

        # The live match heads the first page of a filter it passes, not of another.
        players = live.slots[0].display_name
        mine = await _page(ws, offset=0, bot=players, limit=5)
        assert mine["matches"][0]["id"] == live.id and mine["matches"][0]["live"]
        finished = await _page(ws, offset=0, status="finished", limit=5)
        assert live.id not in {m["id"] for m in finished["matches"]}
        assert finished["total"] == STORED and len(finished["matches"]) == 5
        second = await _page(ws, offset=5, status="finished", limit=5)
        assert second["offset"] == 5 and not {m["id"] for m in second["matches"]} & {
            m["id"] for m in finished["matches"]}

        for bad, field in (({"game": "chess"}, "game"), ({"status": "lost"}, "status"),
                           ({"bot": 7}, "bot"), ({"bot": "x" * 101}, "bot")):
            await ws.send(json.dumps({"type": "page", "offset": 0, **bad}))
            error = await _answer(ws, "error")
            assert error["error"].startswith(f"{field}:"), error
        assert (await _page(ws, offset=0))["filter"]["bot"] is None  # still usable
    live.cancel()
