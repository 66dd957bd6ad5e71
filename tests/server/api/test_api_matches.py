"""Matches over HTTP, played over TCP, stored in SQLite, read back after a restart."""

from __future__ import annotations

import asyncio
import io
import sys
import threading
from pathlib import Path
from typing import Any

from lxml import etree

from bots.blokus import GreedyBot, RandomBot
from bots.blokus.aio import play_async
from server.rooms import SlotRequest
from tests.server.api.conftest import AUTH, Running, register, script, start, stop, wait_status


async def test_health_games_and_auth(running: Running) -> None:
    client = running.http
    assert (await client.get("/api/health")).json()["status"] == "ok"
    games = {g["id"]: g for g in (await client.get("/api/games")).json()}
    assert {"random", "greedy"} <= set(games["swc_2027_blokus"]["bots"])
    assert games["swc_2027_blokus"]["replay_formats"] == ["sc-xml"]
    assert games["hearth"]["replay_formats"] == ["hsreplay", "power-log"]
    body = {"game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}]}
    refused = await client.post("/api/matches", json=body)
    assert refused.status_code == 401 and "Bearer" in refused.json()["detail"]
    wrong = await client.post("/api/matches", json=body, headers={"Authorization": "Bearer x"})
    assert wrong.status_code == 401
    invalid = await client.post("/api/matches", headers=AUTH,
                                json={"game": "swc_2027_blokus", "seats": [{}]})
    assert invalid.status_code == 422
    assert "body.seats.0" in invalid.json()["detail"]
    unknown = await client.get("/api/matches/nope")
    assert unknown.status_code == 404 and "nope" in unknown.json()["detail"]


async def test_reserved_seats_played_over_tcp_then_read_after_restart(tmp_path: Path) -> None:
    server, client, store, _url = await start(tmp_path)
    try:
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}], "seed": 5})
        assert created.status_code == 201, created.text
        match = created.json()
        assert match["status"] == "waiting"
        codes = [seat["reservation"] for seat in match["seats"]]
        assert all(codes) and [s["name"] for s in match["seats"]] == ["a", "b"]
        outcomes = await asyncio.gather(
            play_async(GreedyBot(seed=1), "127.0.0.1", server.tcp_port, codes[0]),
            play_async(RandomBot(seed=2), "127.0.0.1", server.tcp_port, codes[1]))
        assert all(o is not None for o in outcomes)
        done = await wait_status(client, match["id"], {"finished"})
        first_events = (await client.get(f"/api/matches/{match['id']}/events")).text
        first_replay = (await client.get(f"/api/matches/{match['id']}/replay")).content
    finally:
        await stop(server, client, store)
    assert done["result"] is not None and done["seed"] == 5
    assert {s["outcome"] for s in done["seats"]} <= {"win", "loss", "draw"}

    server, client, store, _url = await start(tmp_path)  # the same database file
    try:
        again = (await client.get(f"/api/matches/{match['id']}")).json()
        assert again["status"] == "finished" and again["result"] == done["result"]
        events = await client.get(f"/api/matches/{match['id']}/events")
        assert events.headers["content-type"].startswith("application/x-ndjson")
        assert events.text.startswith(first_events)  # plus the room's closing, if it came later
        lines = events.text.splitlines()
        assert len(lines) > 10
        since = await client.get(f"/api/matches/{match['id']}/events", params={"since": 5})
        assert since.text.splitlines() == lines[5:]
        replay = await client.get(f"/api/matches/{match['id']}/replay")
        assert replay.status_code == 200 and replay.content == first_replay
        root = etree.fromstring(replay.content)
        assert root.tag == "protocol"
        assert root.findall("room/data[@class='memento']")
        winner = root.find("room/data[@class='result']/winner")
        assert winner is not None
        listed = (await client.get("/api/matches", params={"status": "finished"})).json()
        assert match["id"] in [m["id"] for m in listed["items"]]
    finally:
        await stop(server, client, store)


async def test_two_registered_bots_play_with_one_request(running: Running) -> None:
    client = running.http
    created = await client.post("/api/matches", headers=AUTH, json={
        "game": "swc_2027_blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    assert [s["reservation"] for s in created.json()["seats"]] == [None, None]
    done = await wait_status(client, match_id, {"finished", "aborted"})
    assert done["status"] == "finished" and done["result"]["reason"] == "regular"
    assert [s["failure"] for s in done["seats"]] == [None, None]
    by_bot = await client.get("/api/matches", params={"bot": "greedy"})
    assert [m["id"] for m in by_bot.json()["items"]] == [match_id]
    async with asyncio.timeout(20):
        while (log := await client.get(f"/api/matches/{match_id}/seats/0/log",
                                           headers=AUTH)).status_code \
                != 200 or "== stderr ==" not in log.text:
            await asyncio.sleep(0.1)


async def test_failing_bots_end_with_their_category(running: Running) -> None:
    client = running.http
    # Registering refuses a program that is not there; one removed after it was
    # registered fails to start.
    gone = running.server.config.data_dir / "nonexistent-bot-binary"
    gone.parent.mkdir(parents=True, exist_ok=True)
    gone.write_text("#!/bin/sh\n")
    gone.chmod(0o755)
    await register(client, "missing", [str(gone)])
    gone.unlink()
    await register(client, "crasher", script("crash_bot.py"))
    await register(client, "spammer", script("spam_bot.py"))
    results = {}
    for name in ("missing", "crasher", "spammer"):
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": name}, {"bot": "random"}]})
        assert created.status_code == 201, created.text
        results[name] = await wait_status(client, created.json()["id"],
                                          {"finished", "aborted", "cancelled"})
    missing = results["missing"]
    assert missing["status"] == "finished"
    assert missing["seats"][0]["failure"] == "failed_to_start", missing
    assert "nonexistent" in missing["seats"][0]["detail"]
    crasher = results["crasher"]
    assert crasher["seats"][0]["failure"] == "crash", crasher
    assert crasher["seats"][0]["outcome"] == "loss" and crasher["seats"][1]["outcome"] == "win"
    spammer = results["spammer"]
    assert spammer["status"] == "finished", spammer
    assert spammer["seats"][0]["failure"] is None
    spam_id = spammer["id"]
    async with asyncio.timeout(20):
        while (log := await client.get(f"/api/matches/{spam_id}/seats/0/log",
                                           headers=AUTH)).status_code \
                != 200 or "dropped" not in log.text:
            await asyncio.sleep(0.2)
    assert len(log.content) < 300_000  # megabytes in, a bounded head and tail kept
    # The server goes on.
    again = await client.post("/api/matches", headers=AUTH, json={
        "game": "swc_2027_blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}]})
    assert (await wait_status(client, again.json()["id"], {"finished"}))["result"]


class HeldBot(RandomBot):
    """Answers only while `go` is set: a resumed match cannot reach its end before the
    test's next command (random bots that play freely end a game in about 0.3 s)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.go = threading.Event()
        self.go.set()
        self.moves = 0

    def move(self, state: Any) -> Any:
        self.go.wait(60)
        self.moves += 1
        return super().move(state)


async def test_pause_step_resume_cancel(running: Running) -> None:
    client = running.http
    created = await client.post("/api/matches", headers=AUTH, json={
        "game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}],
        "paused": True})
    match_id = created.json()["id"]
    bots = [HeldBot(seed=k) for k in (1, 2)]
    players = [asyncio.create_task(play_async(bot, "127.0.0.1", running.tcp_port,
                                              seat["reservation"]))
               for bot, seat in zip(bots, created.json()["seats"], strict=True)]
    await wait_status(client, match_id, {"paused"})
    stepped = await client.post(f"/api/matches/{match_id}/step", headers=AUTH)
    assert stepped.status_code == 202
    async with asyncio.timeout(60):  # the step's one move was made
        while sum(bot.moves for bot in bots) < 1:
            await asyncio.sleep(0.01)
    for bot in bots:
        bot.go.clear()
    assert (await client.post(f"/api/matches/{match_id}/resume", headers=AUTH)).is_success
    assert (await client.post(f"/api/matches/{match_id}/pause", headers=AUTH)).is_success
    cancel = await client.post(f"/api/matches/{match_id}/cancel", headers=AUTH)
    assert cancel.status_code == 202
    done = await wait_status(client, match_id, {"cancelled", "finished", "aborted"})
    for bot in bots:
        bot.go.set()
    await asyncio.gather(*players, return_exceptions=True)
    assert done["status"] == "cancelled" and done["result"] is None
    assert sum(bot.moves for bot in bots) <= 2  # the step's move, one held answer at most
    late = await client.post(f"/api/matches/{match_id}/pause", headers=AUTH)
    assert late.status_code == 409


async def test_bots_crud(running: Running) -> None:
    client = running.http
    bot_id = await register(client, "mine", [sys.executable, "bot.py"])
    assert (await client.get(f"/api/bots/{bot_id}")).json()["name"] == "mine"
    taken = await client.post("/api/bots", headers=AUTH, json={
        "name": "mine", "game": "swc_2027_blokus", "command": ["true"]})
    assert taken.status_code == 409
    names = [b["name"] for b in (await client.get("/api/bots")).json()]
    assert "mine" in names and "greedy" in names
    assert (await client.delete(f"/api/bots/{bot_id}")).status_code == 401
    assert (await client.delete(f"/api/bots/{bot_id}", headers=AUTH)).status_code == 204
    assert (await client.get(f"/api/bots/{bot_id}")).status_code == 404


async def test_hearth_bots_play_and_the_replay_is_hsreplay(running: Running) -> None:
    client = running.http
    created = await client.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seats": [{"bot": "hearth-greedy"}, {"bot": "hearth-random"}],
        "seed": 3})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    done = await wait_status(client, match_id, {"finished", "aborted", "cancelled"}, 120)
    assert done["status"] == "finished", done
    replay = await client.get(f"/api/matches/{match_id}/replay")
    assert replay.status_code == 200, replay.text
    assert replay.headers["content-disposition"].endswith(f'"{match_id}.hsreplay.xml"')
    root = etree.fromstring(replay.content)
    assert root.tag == "HSReplay" and root.find("Game") is not None
    named = await client.get(f"/api/matches/{match_id}/replay", params={"format": "hsreplay"})
    assert named.content == replay.content
    # The Power.log the HSReplay document was parsed from: HearthSim's hslog reads it.
    power = await client.get(f"/api/matches/{match_id}/replay", params={"format": "power-log"})
    assert power.status_code == 200 and power.headers["content-type"].startswith("text/plain")
    assert power.headers["content-disposition"].endswith(f'"{match_id}.power.log"')
    from hslog import LogParser

    parser = LogParser()
    parser.read(io.StringIO(power.text))
    assert len(parser.games) == 1
    unknown = await client.get(f"/api/matches/{match_id}/replay", params={"format": "sc-xml"})
    assert unknown.status_code == 400
    assert unknown.json()["detail"].endswith("it has: hsreplay, power-log")


async def test_illegal_move_and_timeout_land_on_the_seat(running: Running) -> None:
    client = running.http
    await register(client, "illegal", script("illegal_bot.py"))
    await register(client, "slow", script("slow_bot.py"))
    found = {}
    for name in ("illegal", "slow"):
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": name}, {"bot": "random"}],
            "clocks": {"soft": 0.5, "hard": 1.0}})
        assert created.status_code == 201, created.text
        found[name] = await wait_status(client, created.json()["id"], {"finished"})
    assert found["illegal"]["seats"][0]["failure"] == "illegal_move", found["illegal"]
    assert found["slow"]["seats"][0]["failure"] == "timeout", found["slow"]
    assert found["slow"]["seats"][1]["outcome"] == "win"


async def test_plain_joins_and_admin_prepares_are_stored_too(running: Running) -> None:
    client = running.http
    port = running.tcp_port
    await asyncio.gather(play_async(RandomBot(seed=3), "127.0.0.1", port),
                         play_async(RandomBot(seed=4), "127.0.0.1", port))
    room, codes = running.server.lobby.prepare(
        "swc_2027_blokus", [SlotRequest("x"), SlotRequest("y")], False)
    await asyncio.gather(play_async(RandomBot(seed=5), "127.0.0.1", port, codes[0]),
                         play_async(RandomBot(seed=6), "127.0.0.1", port, codes[1]))
    prepared = await wait_status(client, room.id, {"finished"})
    assert [s["name"] for s in prepared["seats"]] == ["x", "y"]
    listed = (await client.get("/api/matches", params={"status": "finished"})).json()
    assert listed["total"] == 2
