"""Issue #24 point 13: bots die with their server, a restarted server ends what a killed one
left running (never a reused pid), and a bot's `setsid` child is ended with its match.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from server.config import ServerConfig
from server.launcher import MARK_ENV, launch
from server.launcher.reaping import RECORDS, signal_exact, start_time
from server.runtime import GauntletServer
from tests.server.api.conftest import AUTH, REPO, register, start, stop, wait_settled
from tests.server.api.test_api_kill import serve
from tests.server.launcher.test_launcher import FAKE_BOT, HOST, PORT, gone, ready_line, spec, until

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(sys.platform != "linux", reason="/proc and prctl")]

DEADLINE = 60.0  # an overall bound for events that come within milliseconds when idle


async def eventually(predicate: Callable[[], bool], what: str) -> None:
    """Poll: there is no event to await for another process's death."""
    deadline = asyncio.get_running_loop().time() + DEADLINE
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"not within {DEADLINE} s: {what}"
        await asyncio.sleep(0.05)


@pytest.fixture
async def cleanup() -> AsyncIterator[list[tuple[int, int]]]:
    """(pid, start time) of processes a failing test must not leave behind."""
    started: list[tuple[int, int]] = []
    yield started
    for pid, began in started:
        signal_exact(pid, began, signal.SIGKILL)


def note(pids: list[int], cleanup: list[tuple[int, int]]) -> None:
    for pid in pids:
        start = start_time(pid)
        assert start is not None, f"process {pid} is not running"
        cleanup.append((pid, start))


async def test_a_setsid_child_is_ended_when_its_bot_is_stopped(
        cleanup: list[tuple[int, int]]) -> None:
    """The bot exits by itself (as bots do after the result), its daemon has left the
    group and lost its parent: nothing but the launch mark ties it to the bot."""
    async with launch(spec("family_exit"), HOST, PORT) as proc:
        await until(lambda: ready_line(proc).startswith("ready"))
        _bot, child, daemon = map(int, ready_line(proc).split()[1:])
        note([child, daemon], cleanup)
        assert os.getsid(daemon) == daemon != os.getsid(child)
        proc.connected()
        proc.match_ended()
        await asyncio.wait_for(proc.wait(), 10)
        assert not gone(daemon)
    assert gone(daemon) and gone(child)
    assert proc.failure is None


async def test_a_setsid_child_is_ended_when_its_match_ends(
        tmp_path: Path, cleanup: list[tuple[int, int]]) -> None:
    """The same through the API: a registered bot starts `setsid sleep 1000`, plays a
    whole match and leaves; when the match has ended, so has the daemon."""
    family = tmp_path / "daemon-pid"
    bot = tmp_path / "daemon_bot.py"
    bot.write_text(
        "import os, subprocess\n"
        "from bots.blokus import RandomBot, run\n"
        "daemon = subprocess.Popen(['setsid', 'sleep', '1000'])\n"
        f"open({str(family)!r} + '.tmp', 'w').write(str(daemon.pid))\n"
        f"os.replace({str(family)!r} + '.tmp', {str(family)!r})\n"
        "run(RandomBot(seed=3))\n")
    server, client, store, _url = await start(tmp_path)
    try:
        await register(client, "daemon", [sys.executable, str(bot)])
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "daemon"}, {"bot": "random"}]})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        await eventually(family.exists, "the bot wrote its daemon's pid")
        daemon = int(family.read_text())
        note([daemon], cleanup)
        done = await wait_settled(client, match_id)
        assert done["result"] is not None and done["seats"][0]["failure"] is None
        await eventually(lambda: gone(daemon), "the daemon was ended with its match")
    finally:
        await stop(server, client, store)


def write_record(folder: Path, server: tuple[int, int], bots: list[dict[str, object]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{server[0]}.json"
    path.write_text(json.dumps({"server": {"pid": server[0], "start": server[1]},
                                "bots": bots}))
    return path


async def test_the_next_server_ends_recorded_processes_of_a_dead_server_only(
        tmp_path: Path, cleanup: list[tuple[int, int]]) -> None:
    data = tmp_path / "data"
    sleep = ["sleep", "1000"]
    recorded = subprocess.Popen(sleep)  # a bot of a dead server: ended
    reused = subprocess.Popen(sleep)  # its pid recorded with another start time: untouched
    marked = subprocess.Popen(sleep, env={**os.environ, MARK_ENV: "m-dead"})  # ended
    live_server = subprocess.Popen(sleep)  # a server on the same folder, still running
    live_bot = subprocess.Popen(sleep, env={**os.environ, MARK_ENV: "m-live"})  # untouched
    everyone = [recorded, reused, marked, live_server, live_bot]
    note([p.pid for p in everyone], cleanup)
    try:
        began = {p.pid: start_time(p.pid) for p in everyone}
        dead = write_record(data / RECORDS, (live_server.pid, 1), [  # wrong start: dead
            {"name": "a", "pid": recorded.pid, "start": began[recorded.pid], "mark": "m-a"},
            {"name": "b", "pid": reused.pid, "start": began[reused.pid] - 1, "mark": "m-b"},
            {"name": "c", "pid": 999_999_999, "start": 5, "mark": "m-dead"},
        ])
        dead = dead.rename(dead.with_name("12345.json"))
        alive = write_record(data / RECORDS, (live_server.pid, began[live_server.pid]), [
            {"name": "d", "pid": live_bot.pid, "start": began[live_bot.pid], "mark": "m-live"},
        ])
        async with GauntletServer(ServerConfig(tcp_port=0, data_dir=data)):
            assert recorded.wait(DEADLINE) == -signal.SIGKILL
            assert marked.wait(DEADLINE) == -signal.SIGKILL
            for untouched in (reused, live_server, live_bot):
                assert untouched.poll() is None
            assert not dead.exists() and alive.exists()
    finally:
        for p in everyone:
            p.kill()
            p.wait()


async def test_bots_die_with_a_killed_server_and_their_children_with_the_next_start(
        tmp_path: Path, cleanup: list[tuple[int, int]]) -> None:
    """`kill -9` of a real `gauntlet serve`: the bot it launched dies at once (the
    parent-death signal); the bot's helper and its `setsid` daemon are ended by the next
    server started on the same data folder."""
    family = tmp_path / "family"
    proc, client = await serve(tmp_path)
    try:
        registered = await client.post("/api/bots", headers=AUTH, json={
            "name": "family", "game": "swc_2027_blokus", "workdir": str(REPO),
            "command": [sys.executable, FAKE_BOT, "family"],
            "env": {"FAMILY_FILE": str(family)}})
        assert registered.status_code == 201, registered.text
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "family"}, {"name": "nobody"}]})
        assert created.status_code == 201, created.text
        await eventually(family.exists, "the bot wrote its family's pids")
        bot, child, daemon = map(int, family.read_text().split())
        note([bot, child, daemon], cleanup)
        records = tmp_path / "data" / RECORDS / f"{proc.pid}.json"
        await eventually(records.exists, "the server recorded its bot")
        assert [b["pid"] for b in json.loads(records.read_text())["bots"]] == [bot]
    finally:
        await client.aclose()
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    await eventually(lambda: gone(bot), "the bot died with its server")
    assert not gone(child) and not gone(daemon)  # what the bot started: see below

    proc, client = await serve(tmp_path)
    try:
        await eventually(lambda: gone(child) and gone(daemon),
                         "the next server ended the bot's children")
        assert not records.exists()
        health = await client.get("/api/health")
        assert health.status_code == 200
    finally:
        await client.aclose()
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            assert await proc.wait() == 0
