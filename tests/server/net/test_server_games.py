"""Several games on one server: the SC admin prepares Hearth rooms too, SC clients are only
seated in games SC can seat, and Kettle bytes are refused until a Kettle session exists."""

from __future__ import annotations

import asyncio

import pytest

from protocols.sc import messages as m
from server.config import ServerConfig
from server.games.hearth import HearthGame
from server.runtime import GauntletServer
from tests.server.sc_client import ScClient, no_errors_logged  # noqa: F401

PASSWORD = "games-test"

pytestmark = pytest.mark.usefixtures("no_errors_logged")


def config() -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password=PASSWORD, no_timeout=True)


async def test_admin_prepare_reserves_hearth_seats() -> None:
    async with GauntletServer(config()) as srv:
        assert {"swc_2027_blokus", "hearth"} <= set(srv.games.ids())
        admin = await ScClient.connect(srv.tcp_port)
        await admin.send(m.Authenticate(PASSWORD),
                         m.Prepare(game_type="hearth", slots=(m.Slot("A"), m.Slot("B"))))
        prepared = await admin.recv_until(m.Prepared)
        room = srv.rooms[prepared.room_id]
        assert room.game_type == "hearth" and isinstance(room.game, HearthGame)
        assert len(prepared.reservations) == 2
        # An SC client cannot take a Hearth seat, nor can the SC admin watch it: errors,
        # and both connections stay open.
        client = await ScClient.connect(srv.tcp_port)
        await client.send(m.JoinPrepared(prepared.reservations[0]))
        refused = await client.recv_until(m.ErrorPacket)
        assert "hearth cannot be played over sc" in refused.message
        await admin.send(m.Observe(prepared.room_id))
        refused = await admin.recv_until(m.ErrorPacket)
        assert "cannot be watched over sc" in refused.message
        # The Blokus path is untouched: a join still gets a Blokus room.
        await client.send(m.Join())
        joined = await client.recv_until(m.Joined)
        assert srv.rooms[joined.room_id].game_type == "swc_2027_blokus"
        await client.close()
        await admin.close()


async def test_an_sc_join_for_hearth_is_refused() -> None:
    async with GauntletServer(config()) as srv:
        client = await ScClient.connect(srv.tcp_port)
        await client.send(m.Join(game_type="hearth"))
        refused = await client.recv_until(m.ErrorPacket)
        assert "hearth cannot be played over sc" in refused.message
        assert not srv.rooms
        await client.close()


async def test_kettle_bytes_get_the_kettle_session() -> None:
    async with GauntletServer(config()) as srv:
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
        writer.write(b"\x00\x00\x00\x02{}")
        await writer.drain()
        async with asyncio.timeout(10):
            header = await reader.readexactly(4)
            body = await reader.readexactly(int.from_bytes(header, "big"))
        assert b'"reason":"bad_envelope"' in body  # answered in Kettle, still connected
        writer.close()
