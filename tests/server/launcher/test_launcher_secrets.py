"""Issue #24 point 3, the launcher's half: a launched bot's reservation code is never in its
argv (which every local user can read in /proc), nor in the seat log, nor in a log line.

The bot gets it in its environment (`GAUNTLET_RESERVATION`); what it prints of it is cut
out of everything the launcher shows. Bundled bots read it from there and still play.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import pytest

from server.launcher import RESERVATION_ENV, FailureCategory, launch
from server.matches import seat_log_text
from tests.server.api.conftest import AUTH, REPO, start, stop, wait_settled, wait_status
from tests.server.launcher.test_launcher import FAKE_BOT, HOST, PORT, ready_line, spec, until

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")]


def proc_file(pid: int, name: str) -> bytes:
    with open(f"/proc/{pid}/{name}", "rb") as f:
        return f.read()


async def test_the_code_is_in_the_environment_and_cut_out_of_every_output(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # This test reads what the launcher logs, so its logger must speak whatever an earlier
    # test did: an in-process `gauntlet play` raises "server.launcher" to ERROR (its table
    # reports crashes), and a logging.config may disable existing loggers.
    caplog.set_level(logging.DEBUG)
    for name in ("server", "server.launcher", "server.launcher.process"):
        caplog.set_level(logging.DEBUG, logger=name)
        monkeypatch.setattr(logging.getLogger(name), "disabled", False)
        monkeypatch.setattr(logging.getLogger(name), "propagate", True)
    code = "7f3c9a51-secret-reservation"
    kettle = f"room-1:{code}"  # GAME_ID:PASSWORD: the password alone is secret, too
    for reservation in (code, kettle):
        async with launch(spec("secret"), HOST, PORT, reservation) as proc:
            await until(lambda: "ready" in proc.log.stdout.text())
            assert proc.pid is not None
            assert code.encode() not in proc_file(proc.pid, "cmdline")
            environ = proc_file(proc.pid, "environ").split(b"\0")
            assert f"{RESERVATION_ENV}={reservation}".encode() in environ
            proc.connected()
            text = seat_log_text(proc)
        # It printed the code on both streams; the seat log shows neither.
        assert code in proc.log.stdout.text() and code in proc.log.stderr.text()
        assert code not in text and "reservation ***" in text
        assert text.startswith(f"== {sys.executable} {FAKE_BOT} secret --host")
    assert code not in caplog.text and "bot fake-secret started" in caplog.text


async def test_a_failure_detail_has_the_code_cut_out() -> None:
    code = "c0ffee-secret-reservation"
    bot = spec("secret")
    async with launch(bot, HOST, PORT, code) as proc:
        await until(lambda: ready_line(proc).startswith("reservation"))
        # Both streams read before the kill: the detail quotes what stderr said.
        await until(lambda: "Joining game" in proc.log.stderr.text())
        proc.connected()
        assert proc.pid is not None
        os.kill(proc.pid, signal.SIGKILL)  # a crash: the detail quotes stderr's tail
        await asyncio.wait_for(proc.wait(), 10)
        failure = proc.failure
    assert failure is not None and failure.category is FailureCategory.CRASH
    assert "Joining game with reservation '***'" in failure.detail
    assert code not in failure.detail


GAUNTLET = str(Path(sys.executable).with_name("gauntlet"))


@pytest.mark.parametrize("game, command, opponent", [
    ("swc_2027_blokus", [sys.executable, "-m", "bots.blokus", "random"], "greedy"),
    ("swc_2027_blokus", [GAUNTLET, "bot", "blokus-greedy"], "random"),
    ("hearth", [sys.executable, "-m", "bots.hearth", "hearth-random"], "hearth-greedy"),
    ("hearth", [GAUNTLET, "bot", "hearth-greedy"], "hearth-random"),
])
async def test_launched_bundled_bots_play_and_nothing_shows_their_code(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        game: str, command: list[str], opponent: str) -> None:
    """Over the API: a kit bot (`python -m ...` or `gauntlet bot`) that also prints its
    code on stderr first (as socha does), against a bundled bot. Their argv has no code,
    they take their seats and play to the end, and neither the seat logs nor the server's
    log (DEBUG) show a code."""
    caplog.set_level(logging.DEBUG)
    server, client, store, _url = await start(tmp_path)
    try:
        # `$@` is the command and the --host/--port the launcher appends.
        chatty = ["sh", "-c", f'echo "my reservation is ${RESERVATION_ENV}" >&2; exec "$@"',
                  "sh", *command]
        registered = await client.post("/api/bots", headers=AUTH, json={
            "name": "chatty", "game": game, "command": chatty, "workdir": str(REPO)})
        assert registered.status_code == 201, registered.text
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": game, "seats": [{"bot": "chatty"}, {"bot": opponent}], "paused": True})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        room = server.lobby.rooms[match_id]
        codes = [slot.reservation for slot in room.slots]
        assert all(codes)
        await wait_status(client, match_id, {"paused"})  # both have joined
        for proc in server.matches.tracked[match_id].procs.values():
            assert proc.pid is not None and proc.running
            cmdline = proc_file(proc.pid, "cmdline")
            assert not any(str(c).encode() in cmdline for c in codes)
        resumed = await client.post(f"/api/matches/{match_id}/resume", headers=AUTH)
        assert resumed.status_code == 202, resumed.text
        done = await wait_settled(client, match_id)
        assert done["result"] is not None and [s["failure"] for s in done["seats"]] == [None] * 2
        logs = []
        for seat in (0, 1):
            async with asyncio.timeout(30):
                while (log := await client.get(f"/api/matches/{match_id}/seats/{seat}/log",
                                               headers=AUTH)).status_code != 200:
                    await asyncio.sleep(0.1)
            logs.append(log.text)
    finally:
        await stop(server, client, store)
    assert "my reservation is ***" in logs[0]
    for text in [*logs, caplog.text]:
        assert not any(str(c) in text for c in codes), text[:2000]
