"""Kettle over real sockets: the bundled Hearth bots (through the kit) against the server.

For every game, each player's received history stream (the `get_game_state` snapshot,
then every `history_block`) goes through hslog's packet tree and `EntityTreeExporter`
(`tests/hearth/hslog_bridge.py`); the exported entity tree must

- be exactly the engine's own stream for that player (`State.history(player)`),
- agree with the engine's final state on everything the player may see, show the
  opponent's hand and deck without card ids and with public tags only, and never name a
  hidden card anywhere in the stream (`test_hslog_games.stream_problems`),
- agree with the other player's tree on every entity both see (the public board).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[2] / "hearth"))
import hslog_bridge as bridge
from test_hslog_games import stream_problems

from bots.hearth import BotSession, GreedyBot, RandomBot
from protocols.kettle import ClientConnection, HistoryBlock
from server.config import ServerConfig
from server.rooms import Room
from server.runtime import GauntletServer
from tests.server.server_testkit import assert_freed

WAIT = 120.0


class Received:
    """A shim with the engine's `history`/`entities` API: the received stream, the engine's
    final entities (what `stream_problems` compares)."""

    def __init__(self, history: list[dict[str, Any]], engine: Any) -> None:
        self._history = history
        self._engine = engine

    def history(self, viewer: int | None = None) -> list[dict[str, Any]]:
        return self._history

    def entities(self) -> Any:
        return self._engine.entities()


async def play_recorded(bot: Any, port: int) -> tuple[BotSession, bytes]:
    """A bot through the kit's sans-I/O session, recording every byte the server sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    session = BotSession(bot)
    writer.write(session.start())
    raw = bytearray()
    while data := await reader.read(65536):
        raw += data
        reply = session.receive_data(data)
        if reply:
            writer.write(reply)
            await writer.drain()
    writer.close()
    return session, bytes(raw)


def history_of(raw: bytes) -> list[dict[str, Any]]:
    conn = ClientConnection()
    conn.receive_data(raw)
    conn.receive_data(b"")
    stream: list[dict[str, Any]] = []
    for event in conn.events():
        if isinstance(event, HistoryBlock):
            if event.entries and event.entries[0]["type"].endswith("/create_game"):
                stream = []
            stream.extend(event.entries)
    return stream


async def watch_rooms(srv: GauntletServer, seen: dict[str, Room]) -> None:
    while True:
        seen.update(srv.rooms)
        await asyncio.sleep(0.002)


def public_disagreements(one: Any, two: Any) -> list[str]:
    """Entities both players' trees show with a card id: same card, same public tags."""
    a, b = bridge.entity_snapshot(one), bridge.entity_snapshot(two)
    problems = []
    for entity_id in sorted(set(a) & set(b)):
        (card_a, tags_a), (card_b, tags_b) = a[entity_id], b[entity_id]
        if card_a is None or card_b is None:
            continue
        if card_a != card_b or tags_a != tags_b:
            diff = {t for t in set(tags_a) | set(tags_b) if tags_a.get(t) != tags_b.get(t)}
            problems.append(f"entity {entity_id}: {card_a}/{card_b} tags {sorted(diff)}")
    return problems


async def play_games(srv: GauntletServer, seeds: Sequence[int]) -> list[str]:
    seen: dict[str, Room] = {}
    watcher = asyncio.create_task(watch_rooms(srv, seen))
    problems: list[str] = []
    try:
        for seed in seeds:
            first = GreedyBot(1) if seed % 2 else RandomBot(seed)
            async with asyncio.timeout(WAIT):
                (s1, raw1), (s2, raw2) = await asyncio.gather(
                    play_recorded(first, srv.tcp_port),
                    play_recorded(RandomBot(seed + 1000), srv.tcp_port))
            room = seen[s1.game_id or ""]
            state = room.game.state  # type: ignore[attr-defined]
            assert state.is_over and s1.outcome is not None and s2.outcome is not None
            assert s1.outcome.winner == s2.outcome.winner == (state.result().winner or 0)
            trees = []
            for session, raw in ((s1, raw1), (s2, raw2)):
                player = session.player
                stream = history_of(raw)
                if stream != state.history(player):
                    problems.append(f"seed {seed} player {player}: stream != engine stream")
                problems += [f"seed {seed} player {player}: {p}"
                             for p in stream_problems(Received(stream, state), player)[:5]]
                trees.append(bridge.export_game(stream))
            problems += [f"seed {seed}: {p}" for p in public_disagreements(*trees)[:5]]
    finally:
        watcher.cancel()
    return problems


async def test_bundled_bots_games_replay_through_hslog(tmp_path: Path) -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=5, data_dir=tmp_path)
    async with GauntletServer(config) as srv:
        problems = await play_games(srv, range(12))
    assert problems == []


async def test_blokus_and_hearth_at_the_same_time(tmp_path: Path) -> None:
    from bots.blokus import bundled
    from bots.blokus.aio import play_async as play_blokus

    config = ServerConfig(tcp_port=0, admin_password="pw", seed=6, data_dir=tmp_path)
    async with GauntletServer(config) as srv, asyncio.timeout(WAIT):
        port = srv.tcp_port
        one, two, problems = await asyncio.gather(
            play_blokus(bundled.RandomBot(1), "127.0.0.1", port, idle_timeout=WAIT),
            play_blokus(bundled.GreedyBot(2), "127.0.0.1", port, idle_timeout=WAIT),
            play_games(srv, range(3)))
    assert problems == []
    assert one.regular and two.regular and one.winner == two.winner
    assert {one.team, two.team} == {"ONE", "TWO"}


async def test_a_finished_hearth_room_is_freed_without_the_collector() -> None:
    """As for Blokus (`test_server_room_lifecycle`): reference counting frees a finished
    Hearth room and its log; no cycle leaves them to the collector."""
    import gc
    import weakref

    gc.collect()
    gc.disable()
    try:
        async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw",
                                               no_timeout=True)) as srv:
            games = asyncio.gather(play_recorded(RandomBot(1), srv.tcp_port),
                                   play_recorded(RandomBot(2), srv.tcp_port))
            async with asyncio.timeout(WAIT):
                while len(srv.rooms) != 1:
                    await asyncio.sleep(0.01)
            room_id, = srv.rooms
            room = weakref.ref(srv.rooms[room_id])
            async with asyncio.timeout(WAIT):
                await games
                while room_id in srv.rooms:
                    await asyncio.sleep(0.01)
            await assert_freed(room)
    finally:
        gc.enable()
