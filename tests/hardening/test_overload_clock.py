"""A busy server loop does not become a bot's timeout (docs/benchmarks.md, "Soak").

`make soak` lost Blokus games on soft timeouts although the bots had answered within tens
of milliseconds: the answers waited in the server's sockets while its loop was busy (full
garbage collections, hundreds of matches' work queued), and the server stamped each answer
when it read it. Sessions now stamp an answer with when the kernel received it.

The scenario: a real server and two bundled random bots in this process; right after one
bot has written its first answer, the whole loop is blocked for longer than the soft
timeout (as a long pause of the server would), so the server reads that answer late.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

import server.net.session as session_module
from bots.blokus.bundled import RandomBot
from bots.blokus.kit import BotSession
from server.config import ServerConfig
from server.runtime import GauntletServer

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the kernel's receive time comes from Linux TCP_INFO")

# The bots share this process's loop with the server, so every answer's think time holds
# some of the server's work as well: on a loaded machine (a second suite on the same two
# cores) that was seen above half a second. A random bot never nears 3 s.
SOFT = 3.0
STALL = SOFT + 1.0  # the loop blocked right after the first answer was written


async def play(session: BotSession, port: int, stall: bool) -> None:
    """One player; with `stall`, block the loop once, right after its first answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(session.start())
        while not session.finished:
            data = await reader.read(65536)
            if not data:
                break
            reply = session.receive_data(data)
            if reply:
                writer.write(reply)  # in the kernel now: loopback takes it at once
                if stall and session.moves_sent == 1:
                    stall = False
                    time.sleep(STALL)  # the server's loop (this loop) is busy meanwhile
                await writer.drain()
    finally:
        writer.close()


async def stalled_match(tmp_path: Path) -> tuple[list[str | None], list[float]]:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=3, data_dir=tmp_path,
                          soft_timeout=SOFT, hard_timeout=30.0)
    async with GauntletServer(config) as server:
        one, two = BotSession(RandomBot(1)), BotSession(RandomBot(2))
        await asyncio.wait_for(asyncio.gather(play(one, server.tcp_port, True),
                                              play(two, server.tcp_port, False)), 120)
        assert one.outcome is not None and two.outcome is not None
        return [one.outcome.cause, two.outcome.cause], list(server.stats.think_seconds)


async def test_an_answer_read_late_by_a_busy_loop_is_not_a_timeout(tmp_path: Path) -> None:
    causes, thinks = await stalled_match(tmp_path)
    assert causes == [None, None]  # a regular end: no soft timeout
    assert len(thinks) > 20  # the game went on after the stall
    # The stalled answer counts from its arrival, not from when the loop read it.
    assert max(thinks) < STALL


async def test_the_same_stall_was_a_timeout_when_stamped_at_read_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scenario really delays the read: stamped when read, the bot loses."""
    monkeypatch.setattr(session_module, "_TCP_INFO", None)
    causes, thinks = await stalled_match(tmp_path)
    assert "SOFT_TIMEOUT" in causes
    assert max(thinks) >= STALL
