"""The official Python client (socha 5.1.0, unmodified) plays whole games on our server."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from protocols.sc import messages as m
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import ScClient, no_errors_logged  # noqa: F401

BOT = Path(__file__).parent / "socha_bot.py"
PASSWORD = "socha-test"

pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def run_bot(port: int, *extra: str) -> dict[str, object]:
    # socha's starter asks PyPI for a newer version; a dead proxy makes that fail at once.
    env = dict(os.environ, HTTPS_PROXY="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(BOT), "--host", "127.0.0.1", "--port", str(port), *extra,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
    )
    try:
        async with asyncio.timeout(240):
            out, err = await proc.communicate()
    finally:
        if proc.returncode is None:
            proc.kill()
    lines = [line for line in out.decode().splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0, err.decode()[-3000:]
    assert len(lines) == 1, (out.decode()[-2000:], err.decode()[-3000:])
    return json.loads(lines[0].removeprefix("RESULT "))  # type: ignore[no-any-return]


@pytest.mark.slow
async def test_socha_players_join_and_play_prepared_games() -> None:
    # No clocks: four socha processes on a busy 2-core machine may take over 2 s for a
    # move now and then; the clocks have their own tests.
    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, no_timeout=True)
    async with GauntletServer(config) as srv:
        admin = await ScClient.connect(srv.tcp_port)
        await admin.send(m.Authenticate(PASSWORD),
                         m.Prepare(slots=(m.Slot("Alice"), m.Slot("Bob"))))
        prepared = await admin.recv_until(m.Prepared)
        await admin.send(m.Observe(prepared.room_id))
        await admin.recv_until(m.Observed)
        # Two players with plain <join/> (no gameType), two with reservations, all at once.
        results = await asyncio.gather(
            run_bot(srv.tcp_port), run_bot(srv.tcp_port),
            run_bot(srv.tcp_port, "--reservation", prepared.reservations[0]),
            run_bot(srv.tcp_port, "--reservation", prepared.reservations[1]),
        )
        observed = await admin.recv_until(m.Result)
        await admin.close()
    joined_a, joined_b, alice, bob = results
    for result in results:
        assert result["regular"] is True
        assert result["reason"] != ""
    # Both players of a room saw the same result.
    assert joined_a == joined_b and alice == bob
    assert alice["scores"] == [list(entry.parts) for entry in observed.scores]
    assert observed.winner is not None and observed.winner.regular
    names = {entry.team: entry.name for entry in observed.scores}
    assert names == {"ONE": "Alice", "TWO": "Bob"}
    scores = alice["scores"]
    assert isinstance(scores, list)
    assert sorted(s[0] for s in scores) in ([0, 2], [1, 1])
