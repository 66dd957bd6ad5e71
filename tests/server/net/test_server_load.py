"""100 concurrent games on one server, the players in a separate process."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import no_errors_logged  # noqa: F401

GAMES = 100

pytestmark = pytest.mark.usefixtures("no_errors_logged")


@pytest.mark.slow
async def test_hundred_concurrent_games() -> None:
    # No clocks: on a shared 2-core machine 200 players in one process may answer late,
    # and timeouts are tested elsewhere.
    config = ServerConfig(tcp_port=0, admin_password="pw", no_timeout=True)
    async with GauntletServer(config) as srv:
        most_rooms = 0

        async def watch() -> None:
            nonlocal most_rooms
            while True:
                most_rooms = max(most_rooms, len(srv.rooms))
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(watch())
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.server.net.light_clients",
            str(srv.tcp_port), str(2 * GAMES),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[3],
        )
        async with asyncio.timeout(240):
            out, err = await proc.communicate()
        watcher.cancel()
        assert proc.returncode == 0, err.decode()[-2000:]
        outcomes = json.loads(out)
        assert len(outcomes) == 2 * GAMES
        assert all("error" not in o for o in outcomes), outcomes
        assert all(o["regular"] for o in outcomes)
        rooms: dict[str, list[int]] = {}
        for o in outcomes:
            rooms.setdefault(o["room"], []).append(o["turn"])
        # 100 rooms of two players each, and both players followed the same game.
        assert len(rooms) == GAMES
        assert all(len(turns) == 2 and turns[0] == turns[1] for turns in rooms.values())
        assert srv.stats.matches_finished == GAMES
        assert srv.rooms == {}
        assert most_rooms > 1  # they really ran side by side
