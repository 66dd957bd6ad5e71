"""A match recorded through a store writer that is full now and then loses no event."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.config import ServerConfig
from server.rooms import SlotRequest
from server.runtime import GauntletServer
from server.store import Store, StoreWriter
from tests.server.server_testkit import InProcessPlayer


async def test_a_full_writer_delays_events_and_loses_none(tmp_path: Path) -> None:
    """Room for one event only, and every move logs two entries: the second finds the
    writer full and waits in the match's queue. Before, the entries taken off that queue
    for a writer that turned them away were dropped (a stored log with gaps under a
    committed result), and a queue longer than the writer's room waited for it forever."""
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path, no_timeout=True)
    try:
        async with GauntletServer(config, store=store) as server:
            small = StoreWriter(store, max_pending=1, batch_size=1, max_delay=0.001)
            await small.start()
            try:
                server.matches.recorder.writer = small
                room, codes = server.lobby.prepare(
                    "swc_2027_blokus", [SlotRequest("a"), SlotRequest("b")], False, seed=3)
                # They think a little: the writer catches up, and each move finds it empty first.
                players = [InProcessPlayer(seed, delay=0.002) for seed in (1, 2)]
                for player, code in zip(players, codes, strict=True):
                    server.lobby.seated(server.lobby.join_prepared(player, code, "sc"))
                async with asyncio.timeout(60):
                    for player in players:
                        await player.done.wait()
                    while store.get_result(room.id) is None:
                        await asyncio.sleep(0.01)
                await small.flush()
            finally:
                await small.close()
        stored = [event.seq for event in store.events_since(room.id)]
        assert len(room.log.entries) > 50
        assert stored == list(range(len(room.log.entries)))
        assert small.stats.committed_events == len(stored)
    finally:
        store.close()
