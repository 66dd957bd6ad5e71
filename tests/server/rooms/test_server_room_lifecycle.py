"""Rooms that never start must not pile up: abandoned rooms close, reservations survive a
dropped connection before the start, and one client cannot hold the room limit hostage."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import pytest

from protocols.sc import messages as m
from server.config import Limits, ServerConfig
from server.runtime import GauntletServer
from server.store import Store
from tests.server.sc_client import WAIT, ScClient, no_errors_logged, play_random  # noqa: F401
from tests.server.server_testkit import assert_freed

pytestmark = pytest.mark.usefixtures("no_errors_logged")


def config(**limits: float) -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password="pw", no_timeout=True,
                        limits=Limits(**limits))  # type: ignore[arg-type]


async def until(condition: object) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)


async def prepare(port: int) -> tuple[ScClient, m.Prepared]:
    admin = await ScClient.connect(port)
    await admin.send(m.Authenticate("pw"), m.Prepare(slots=(m.Slot("A"), m.Slot("B"))))
    return admin, await admin.recv_until(m.Prepared)


async def test_a_join_room_whose_only_player_left_closes() -> None:
    async with GauntletServer(config()) as srv:
        client = await ScClient.connect(srv.tcp_port)
        await client.send(m.Join())
        joined = await client.recv_until(m.Joined)
        assert joined.room_id in srv.rooms
        await client.close()
        await until(lambda: joined.room_id not in srv.rooms)


async def test_a_reservation_survives_a_disconnect_before_the_start() -> None:
    async with GauntletServer(config()) as srv:
        admin, prepared = await prepare(srv.tcp_port)
        code_a, code_b = prepared.reservations
        first = await ScClient.connect(srv.tcp_port)
        await first.send(m.JoinPrepared(code_a))
        await first.recv_until(m.Joined)
        # A second client cannot take the same seat while it is taken.
        thief = await ScClient.connect(srv.tcp_port)
        await thief.send(m.JoinPrepared(code_a))
        refused = await thief.recv_until(m.ErrorPacket)
        assert "Couldn't find a reservation" in refused.message
        await first.close()
        room = srv.rooms[prepared.room_id]
        await until(lambda: room.player_count == 0)
        # The bot comes back with its code, the opponent joins, the game starts.
        again = await ScClient.connect(srv.tcp_port)
        await again.send(m.JoinPrepared(code_a))
        await again.recv_until(m.Joined)
        other = await ScClient.connect(srv.tcp_port)
        await other.send(m.JoinPrepared(code_b))
        await other.recv_until(m.Joined)
        welcome = await again.recv_until(m.Welcome)
        assert welcome.team == "ONE"
        for client in (again, other, thief, admin):
            await client.close()


async def test_a_prepared_room_nobody_joins_expires() -> None:
    async with GauntletServer(config(empty_room_seconds=0.2)) as srv:
        admin, prepared = await prepare(srv.tcp_port)
        assert prepared.room_id in srv.rooms
        await until(lambda: prepared.room_id not in srv.rooms)
        late = await ScClient.connect(srv.tcp_port)
        await late.send(m.JoinPrepared(prepared.reservations[0]))
        refused = await late.recv_until(m.ErrorPacket)
        assert "Couldn't find a reservation" in refused.message
        await late.close()
        await admin.close()


async def test_one_client_cannot_hold_the_room_limit_hostage() -> None:
    async with GauntletServer(config(max_rooms=4, max_waiting_seats=2)) as srv:
        hog = await ScClient.connect(srv.tcp_port)
        await hog.send(m.Join(), m.Join(), m.Join())
        await hog.recv_until(m.Joined)
        await hog.recv_until(m.Joined)
        refused = await hog.recv_until(m.ErrorPacket)
        assert "rooms waiting for this client" in refused.message
        assert len(srv.rooms) == 2
        await hog.close()
        await until(lambda: not srv.rooms)  # its rooms close with its connection
        # Everyone else still gets rooms and games.
        one = await ScClient.connect(srv.tcp_port)
        two = await ScClient.connect(srv.tcp_port)
        await one.send(m.Join())
        await one.recv_until(m.Joined)
        await two.send(m.Join())
        await two.recv_until(m.Joined)
        assert (await one.recv_until(m.Memento)).state.turn == 0
        await one.close()
        await two.close()


@pytest.mark.parametrize("stored", [False, True], ids=["memory", "sqlite"])
async def test_a_finished_room_is_freed_without_the_collector(stored: bool,
                                                               tmp_path: Path) -> None:
    """A room holds its whole log (a state per move): when its match is over, reference
    counting frees it at once. Left in a reference cycle it would wait for the cyclic
    collector, whose passes over thousands of such entries stalled every match for tens of
    milliseconds (docs/benchmarks.md)."""
    store = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}") if stored else None
    if store is not None:
        store.upgrade()
    gc.collect()
    gc.disable()
    try:
        async with GauntletServer(config(), store=store) as srv:
            games = asyncio.gather(play_random(srv.tcp_port, 1), play_random(srv.tcp_port, 2))
            await until(lambda: len(srv.rooms) == 1)
            room_id, = srv.rooms
            room = weakref.ref(srv.rooms[room_id])
            async with asyncio.timeout(WAIT):
                await games
            await until(lambda: room_id not in srv.rooms)
            if srv.writer is not None:
                await srv.writer.flush()  # the last entries wait for the writer, room and all
            await assert_freed(room)
    finally:
        gc.enable()
        if store is not None:
            store.close()
