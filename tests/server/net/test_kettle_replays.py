"""`--save-replays` for Hearth: Power.log and HSReplay XML, read back with hslog/hsreplay."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from hslog import LogParser
from hslog.export import EntityTreeExporter
from hsreplay.document import HSReplayDocument

from bots.hearth import GreedyBot, RandomBot
from bots.hearth.aio import play_async
from server.config import ServerConfig
from server.rooms import Room
from server.runtime import GauntletServer

sys.path.insert(0, str(Path(__file__).parents[2] / "hearth"))
import hslog_bridge as bridge


async def test_hearth_replays_read_back_to_the_engines_final_state(tmp_path: Path) -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=9, data_dir=tmp_path,
                          save_replays=True, replay_dir=tmp_path / "replays")
    seen: dict[str, Room] = {}
    async with GauntletServer(config) as srv, asyncio.timeout(60):
        async def watch() -> None:
            while True:
                seen.update(srv.rooms)
                await asyncio.sleep(0.002)

        watcher = asyncio.create_task(watch())
        outcomes = await asyncio.gather(
            play_async(GreedyBot(1), "127.0.0.1", srv.tcp_port, idle_timeout=30),
            play_async(RandomBot(2), "127.0.0.1", srv.tcp_port, idle_timeout=30))
        watcher.cancel()
    paths = sorted(srv.replays)  # written after the result; the server's close waits for them
    assert outcomes[0].winner == outcomes[1].winner
    [room] = seen.values()
    engine = room.game.state  # type: ignore[attr-defined]
    expected = {i: (card or None, tags) for i, (card, tags) in engine.entities().items()}
    log_path = next(p for p in paths if p.name.endswith(".power.log"))
    xml_path = next(p for p in paths if p.name.endswith(".hsreplay.xml"))

    parser = LogParser()
    with log_path.open(encoding="utf-8") as f:
        parser.read(f)
    parser.flush()
    from_log = EntityTreeExporter(parser.games[0]).export().game
    assert bridge.compare_entities(from_log, expected) == []

    with xml_path.open("rb") as f:
        [tree] = HSReplayDocument.from_xml_file(f).to_packet_tree()
    from_xml = EntityTreeExporter(tree).export().game
    assert bridge.compare_entities(from_xml, expected) == []
    assert {e.id for e in from_xml.entities} == set(expected)


def test_the_hsreplay_export_leaves_no_cyclic_garbage() -> None:
    """hslog's blocks refer back to their packet tree; the export empties the trees, so a
    finished game's packets are freed at once, not left to the cyclic collector (in
    `make soak` its passes over them paused the server for hundreds of milliseconds)."""
    import collections
    import gc
    from datetime import UTC, datetime

    from games.hearth.playout import random_game
    from server.games.hearth.replay import hsreplay_xml, power_log

    when = datetime.now(UTC)
    text = power_log(random_game(3, history=True).history(), when)
    hsreplay_xml(text, when)  # imports and caches settle
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage
    try:
        xml = hsreplay_xml(text, when)
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert "<HSReplay" in xml and xml.count("<TagChange") > 100
    # Only the export's own objects count: the full suite may leave another thread (a
    # server of an earlier test shutting down) making garbage while the collector is off.
    ours = [o for o in found
            if type(o).__module__.split(".")[0] in ("hslog", "hsreplay", "hearthstone")]
    kinds = collections.Counter(f"{type(o).__module__}.{type(o).__name__}" for o in found)
    assert len(ours) < 20, (f"{len(ours)} of the export's objects were left to the cyclic "
                            f"collector; all found: {kinds.most_common(8)}")
