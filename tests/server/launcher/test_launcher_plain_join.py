"""A launched bot that knows only the official `--reservation` flag takes its own seat.

Its reservation is in its environment, never its argv (issue #24 point 3); a bot that does
not read the variable (an unmodified socha or Java player) sends a plain `<join/>`, and the
server recognises it by the process holding the connection (`server.launcher.peers`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from server.launcher import RESERVATION_ENV
from tests.server.api.conftest import AUTH, REPO, start, stop, wait_settled, wait_status


async def test_a_launched_bot_without_its_code_takes_its_own_seat(tmp_path: Path) -> None:
    server, client, store, _url = await start(tmp_path)
    try:
        # The bundled bot, but with the variable taken away: it sends a plain <join/>.
        plain = ["env", "-u", RESERVATION_ENV, sys.executable, "-m", "bots.blokus", "random"]
        registered = await client.post("/api/bots", headers=AUTH, json={
            "name": "plain", "game": "swc_2027_blokus", "command": plain,
            "workdir": str(REPO)})
        assert registered.status_code == 201, registered.text
        # A stranger's plain join while the launched seats wait opens a room of its own.
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "plain"}, {"bot": "greedy"}],
            "paused": True})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        await wait_status(client, match_id, {"paused"})  # both launched seats are taken
        resumed = await client.post(f"/api/matches/{match_id}/resume", headers=AUTH)
        assert resumed.status_code == 202, resumed.text
        done = await wait_settled(client, match_id)
        assert done["status"] == "finished", done
        assert [s["failure"] for s in done["seats"]] == [None, None], done
    finally:
        await stop(server, client, store)
