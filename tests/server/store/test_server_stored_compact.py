"""With spectators on (the HTTP API), a Blokus state is still stored as its move: the
frames rendered for the spectators are not stored beside a recorded state (the store
rebuilds them from the moves), only beside the entries stored as their news."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.config import ServerConfig
from server.rooms import SlotRequest
from server.runtime import GauntletServer
from server.store import Store
from tests.server.server_testkit import InProcessPlayer


async def test_a_recorded_state_is_stored_without_the_spectators_frame(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path, no_timeout=True)
    try:
        async with GauntletServer(config, store=store, http_port=0,
                                  admin_token="t0ken") as server:
            assert server.http_port > 0  # the spectators' hub renders every frame
            room, codes = server.lobby.prepare(
                "swc_2027_blokus", [SlotRequest("a"), SlotRequest("b")], False, seed=3)
            players = [InProcessPlayer(seed) for seed in (1, 2)]
            for player, code in zip(players, codes, strict=True):
                server.lobby.seated(server.lobby.join_prepared(player, code, "sc"))
            async with asyncio.timeout(60):
                for player in players:
                    await player.done.wait()
                while store.get_result(room.id) is None:
                    await asyncio.sleep(0.01)
            assert server.writer is not None
            await server.writer.flush()
        states = [e for e in store.events_since(room.id) if e.kind == "state"]
        assert len(states) > 20
        assert all("blokus" in e.payload and "spectate" not in e.payload for e in states)
        others = [e for e in store.events_since(room.id) if e.kind in ("pause", "result")]
        assert others and all("spectate" in e.payload for e in others)
    finally:
        store.close()
