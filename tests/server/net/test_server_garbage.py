"""Bad input over real sockets never takes the server down or touches other matches."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

import pytest

from protocols.sc import messages as m
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import ScClient, play_random

NASTY = [
    b"<protocol><notAMessage/>",
    b"<protocol><join gameType='swc_2027_blokus'><extra/></join>",
    b"<protocol><room roomId='x'><data class='java.lang.Runtime'/></room>",
    b'<!DOCTYPE lol [<!ENTITY a "aaaa">]><protocol><join/>',
    b"<protocol>" + b"<a>" * 200,
    b"<protocol><authenticate password='" + b"x" * (2 * 1024 * 1024) + b"'/>",
    b"<protocol><prepare>" + b"<slot/>" * 100 + b"</prepare>",
    b"<protocol></other>",
    b"<protocol><join/></protocol><join/>",
    b"<protocol><pause roomId='r' pause='maybe'/>",
    b"<protocol>\xff\xfe\x00<join/>",
]


async def send_and_drop(port: int, data: bytes) -> bytes:
    client = await ScClient.connect(port)
    with contextlib.suppress(ConnectionError, OSError):
        await client.send_raw(data)
    try:
        return await client.read_to_eof(timeout=10)
    except (ConnectionError, OSError):
        return bytes(client.raw)


async def test_garbage_connections_while_a_game_runs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    rng = random.Random(5)
    blobs = NASTY + [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
                     for _ in range(30)]
    blobs += [b"<protocol>" + bytes(rng.randrange(256) for _ in range(200)) for _ in range(20)]
    async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw")) as srv:
        game = asyncio.gather(play_random(srv.tcp_port, 1), play_random(srv.tcp_port, 2))
        replies = await asyncio.gather(*(send_and_drop(srv.tcp_port, b) for b in blobs))
        (result_1, _), (result_2, _) = await game
        assert result_1 == result_2 and result_1.winner is not None
        assert result_1.winner.regular
        # Garbage gets no errorpacket: at most our own end of the document.
        for reply in replies:
            assert b"errorpacket" not in reply
        # The server still accepts new players afterwards.
        admin = await ScClient.connect(srv.tcp_port)
        await admin.send(m.Authenticate("pw"), m.Prepare())
        assert (await admin.recv_until(m.Prepared)).room_id in srv.rooms
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
