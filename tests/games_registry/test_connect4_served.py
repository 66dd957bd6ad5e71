"""A third game, installed the way a third party's package is, served end to end.

`examples/connect4` is made visible to a real `gauntlet serve` the way `pip install` makes
a package visible: its folder on the path and a `*.dist-info` with its `entry_points.txt`
(`gauntlet.games`: `connect4 = connect4.plugin:PLUGIN`). No file outside the package
names Connect Four. Then, over HTTP and WebSocket only: the game and its bundled bots are
listed; a match of its bots starts from `POST /api/matches`, is played (in-process seats:
no wire protocol speaks Connect Four), stored and listed; a live match is watched frame by
frame; its replay is fetched in the package's own format and rebuilds the final position;
the package's viewer module is served; and its ladder rates its bots.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.api.conftest import AUTH, REPO, gauntlet_serve, wait_status

PACKAGE = REPO / "examples" / "connect4"
GAME = "connect4"


def install(site: Path) -> None:
    """What `pip install examples/connect4` leaves for importlib.metadata to find."""
    info = site / "gauntlet_connect4-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gauntlet-connect4\n"
                                   "Version: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[gauntlet.games]\nconnect4 = connect4.plugin:PLUGIN\n", encoding="utf-8")


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    site = tmp_path / "site"
    install(site)
    path = os.pathsep.join([str(site), str(PACKAGE), os.environ.get("PYTHONPATH", "")])
    proc, line = await gauntlet_serve(tmp_path, {"PYTHONPATH": path.rstrip(os.pathsep)},
                                      cwd=tmp_path)
    try:
        found = re.search(r"HTTP API on http://([\d.]+):(\d+)/api", line)
        assert found, line
        async with httpx.AsyncClient(base_url=f"http://{found[1]}:{found[2]}",
                                     timeout=30) as client:
            yield client
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(60):
            await proc.wait()


async def create(client: httpx.AsyncClient, **extra: Any) -> str:
    created = await client.post("/api/matches", headers=AUTH, json={
        "game": GAME, "seats": [{"bot": "connect4-negamax"}, {"bot": "connect4-random"}],
        **extra})
    assert created.status_code == 201, created.text
    match_id: str = created.json()["id"]
    return match_id


async def test_a_third_party_game_is_played_stored_watched_replayed_and_rated(
        served: httpx.AsyncClient) -> None:
    client = served
    games = {g["id"]: g for g in (await client.get("/api/games")).json()}
    assert games[GAME]["replay_formats"] == ["moves"]
    assert {"connect4-random", "connect4-negamax"} <= set(games[GAME]["bots"])

    # Started, played by its bundled bots, stored and listed.
    match_id = await create(client)
    done = await wait_status(client, match_id, {"finished", "aborted", "cancelled"}, 120)
    assert done["status"] == "finished", done
    winner = done["result"]["winner"]
    listed = (await client.get("/api/matches", params={"game": GAME})).json()["items"]
    assert match_id in [m["id"] for m in listed]

    # The replay in the package's format rebuilds the final position and its result.
    replay = await client.get(f"/api/matches/{match_id}/replay")
    assert replay.status_code == 200, replay.text
    assert replay.headers["content-disposition"].endswith(f'"{match_id}.connect4.txt"')
    header, moves = replay.text.splitlines()
    assert header == f"# connect4 {match_id}" and re.fullmatch(r"[1-7]{7,42}", moves)
    sys.path.insert(0, str(PACKAGE))
    try:
        from connect4.board import Board
    finally:
        sys.path.remove(str(PACKAGE))
    final = Board.from_moves(moves)
    assert final.is_over and final.winner == winner

    # Watched live: a paused match, resumed while a spectator reads every frame.
    live_id = await create(client, paused=True)
    await wait_status(client, live_id, {"paused"})
    ws_url = str(client.base_url).replace("http", "ws", 1) + f"/ws/matches/{live_id}?since=0"
    states: list[dict[str, Any]] = []
    async with asyncio.timeout(120), websockets.connect(ws_url) as ws:
        hello = json.loads(await ws.recv())
        assert hello["type"] == "hello" and hello["match"]["game"] == GAME
        assert (await client.post(f"/api/matches/{live_id}/resume", headers=AUTH)
                ).status_code == 202
        async for text in ws:
            frame = json.loads(text)
            if frame.get("kind") == "state":
                states.append(frame["state"])
            if frame.get("kind") == "result":
                break
    assert len(states) >= 8 and all(len(s["grid"]) == 6 for s in states)
    assert [len(s["moves"]) for s in states] == sorted(len(s["moves"]) for s in states)

    # The package's viewer is served and listed for the web page.
    listed_games = {g["id"]: g for g in (await client.get("/games.json")).json()}
    assert listed_games[GAME]["name"] == "Connect Four"
    module = await client.get(listed_games[GAME]["viewer"])
    assert module.status_code == 200 and "export function render(" in module.text

    # Its ladder plays and rates its bots.
    assert (await client.post(f"/api/ladder/{GAME}/start", headers=AUTH)).status_code in (
        200, 202)
    async with asyncio.timeout(180):
        while True:
            ladder = (await client.get(f"/api/ladder/{GAME}")).json()
            if ladder["rated"] >= 2:
                break
            await asyncio.sleep(0.2)
    standings = {s["bot"]: s for s in ladder["standings"]}
    assert set(standings) == {"connect4-negamax", "connect4-random"}
    assert all(s["games"] == s["wins"] + s["draws"] + s["losses"] >= 1
               for s in standings.values())
    assert (await client.post(f"/api/ladder/{GAME}/stop", headers=AUTH)).status_code in (
        200, 202)
