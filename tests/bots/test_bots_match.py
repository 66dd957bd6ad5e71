"""The series runner's admin client against our server: prepare, cancel, refusals."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from bots_testkit import PASSWORD, WAIT, free_port, running_server

from bots.blokus import RandomBot
from bots.blokus.aio import play_async
from server.series import AdminClient, AdminError, InProcessKit, run_series

KIT_RANDOM = InProcessKit(RandomBot, play_async)


async def test_concurrent_prepares_get_their_own_rooms(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        admin = await AdminClient.connect("127.0.0.1", server.tcp_port, PASSWORD)
        try:
            async with asyncio.timeout(WAIT):
                prepared = await asyncio.gather(
                    *(admin.prepare((f"a{i}", f"b{i}")) for i in range(6)))
        finally:
            await admin.close()
        rooms = {p.room_id for p in prepared}
        codes = [code for p in prepared for code in p.reservations]
        assert len(rooms) == 6 and len(set(codes)) == 12
        # The slot names came through in order: slot 1 of room i is "a{i}".
        for i, p in enumerate(prepared):
            slots = server.rooms[p.room_id].slots
            assert [s.display_name for s in slots] == [f"a{i}", f"b{i}"]


async def test_cancel_tells_the_player_who_came(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        admin = await AdminClient.connect("127.0.0.1", server.tcp_port, PASSWORD)
        try:
            prepared = await admin.prepare(("here", "absent"))
            player = asyncio.create_task(play_async(
                RandomBot(1), "127.0.0.1", server.tcp_port, prepared.reservations[0],
                idle_timeout=WAIT))
            async with asyncio.timeout(WAIT):
                while not server.rooms[prepared.room_id].slots[0].present:
                    await asyncio.sleep(0.01)
                await admin.cancel(prepared.room_id)
                outcome = await player
        finally:
            await admin.close()
    assert not outcome.regular and outcome.cause == "LEFT"
    # The absent slot is the violator; no welcome came, so our team is unknown.
    assert (outcome.winner, outcome.violator, outcome.team) == ("ONE", "TWO", None)
    assert not outcome.won and not outcome.lost


async def test_wrong_password_fails_the_prepare(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        admin = await AdminClient.connect("127.0.0.1", server.tcp_port, "not it")
        try:
            with pytest.raises(AdminError, match="admin password"):
                async with asyncio.timeout(WAIT):
                    await admin.prepare(("a", "b"))
        finally:
            await admin.close()


async def test_admin_without_server() -> None:
    with pytest.raises(AdminError, match="cannot connect"):
        await AdminClient.connect("127.0.0.1", free_port(), PASSWORD)


async def test_series_argument_checks(tmp_path: Path) -> None:
    bots = (("same", KIT_RANDOM), ("same", KIT_RANDOM))
    with pytest.raises(ValueError, match="different labels"):
        await run_series(bots, 2, host="127.0.0.1", port=1, password="x")
    async with running_server(tmp_path) as server:
        records = await run_series((("a", KIT_RANDOM), ("b", KIT_RANDOM)), 0, host="127.0.0.1",
                                   port=server.tcp_port, password=PASSWORD)
    assert records == []


async def test_close_lets_the_callers_cancellation_through(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        admin = await AdminClient.connect("127.0.0.1", server.tcp_port, PASSWORD)
        closing = asyncio.create_task(admin.close())
        await asyncio.sleep(0)  # `closing` now waits for the admin's reader task to end
        closing.cancel()
        with pytest.raises(asyncio.CancelledError):
            async with asyncio.timeout(WAIT):
                await closing
        assert closing.cancelled()
        assert admin._writer.is_closing()  # the cleanup ran all the same


async def test_a_cancelled_series_cancels_its_bots(tmp_path: Path) -> None:
    async with running_server(tmp_path, no_timeout=True) as server:
        started = asyncio.Event()

        class Slow(RandomBot):
            def move(self, state):  # type: ignore[no-untyped-def]
                started.set()
                return super().move(state)

        series = asyncio.create_task(run_series(
            (("a", InProcessKit(Slow, play_async)), ("b", KIT_RANDOM)), 4, host="127.0.0.1",
            port=server.tcp_port,
            password=PASSWORD))
        async with asyncio.timeout(WAIT):
            await started.wait()
        series.cancel()
        with pytest.raises(asyncio.CancelledError):
            async with asyncio.timeout(WAIT):
                await series
        bots = [t for t in asyncio.all_tasks() if "play_async" in repr(t.get_coro())]
        await asyncio.sleep(0)
        assert all(t.done() for t in bots), bots
