"""Replay files (reference §7): name pattern, gzip, content recorded from the match log."""

from __future__ import annotations

import asyncio
import gzip
import re
from pathlib import Path

import pytest

from protocols.sc import NEED_DATA, ClientConnection, StreamEnd
from protocols.sc import messages as m
from server.net.replay import write_replay
from server.rooms import Lobby, SlotRequest
from tests.server.sc_client import no_errors_logged  # noqa: F401
from tests.server.server_testkit import InProcessPlayer

pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def test_gzipped_replay_with_display_names(tmp_path: Path) -> None:
    lobby = Lobby()
    room, codes = lobby.prepare(None, [SlotRequest("Team Alpha"), SlotRequest("Bob")], False)
    a, b = InProcessPlayer(3), InProcessPlayer(4)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    lobby.seated(lobby.join_prepared(b, codes[1]))
    async with asyncio.timeout(20):
        await a.done.wait()
    assert room.result is not None
    first = write_replay(room, room.result, tmp_path, gzipped=True)
    second = write_replay(room, room.result, tmp_path, gzipped=True)
    pattern = r"replay_swc_2027_blokus_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_Team_Alpha_Bob(_2)?\.xml\.gz"
    assert re.fullmatch(pattern, first.name)
    assert re.fullmatch(pattern, second.name) and second != first  # never overwritten
    data = gzip.decompress(first.read_bytes())
    assert data.startswith(b"<protocol>\n<room ") and data.endswith(b"</room>\n</protocol>")
    reader = ClientConnection()
    reader.receive_data(data)
    events = []
    while (event := reader.next_event()) is not NEED_DATA:
        events.append(event)
    assert isinstance(events[-1], StreamEnd)
    mementos = [e for e in events if isinstance(e, m.Memento)]
    states = [e.state for e in a.events if type(e).__name__ == "StateChanged"]
    assert [e.state.turn for e in mementos] == [s.turn for s in states]
    result = events[-2]
    assert isinstance(result, m.Result)
    assert [s.name for s in result.scores] == ["Team Alpha", "Bob"]
    assert [s.parts[1] for s in result.scores] == list(room.result.scores)


async def test_long_display_names_still_give_a_legal_file_name(tmp_path: Path) -> None:
    lobby = Lobby()
    long_name = "x" * 300
    room, codes = lobby.prepare(None, [SlotRequest(long_name), SlotRequest(long_name)], False)
    a, b = InProcessPlayer(5), InProcessPlayer(6)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    lobby.seated(lobby.join_prepared(b, codes[1]))
    async with asyncio.timeout(20):
        await a.done.wait()
    assert room.result is not None
    path = write_replay(room, room.result, tmp_path, gzipped=False)
    assert path.exists() and len(path.name.encode()) <= 255
    await lobby.close()


async def test_saved_replays_are_the_sent_bytes_and_equal_a_fresh_encoding(
        tmp_path: Path) -> None:
    """`--save-replays` writes each memento from the bytes the players got (kept by the
    shared encodings until the end): the files equal encoding every state again."""
    from bench import free_bots
    from server.config import ServerConfig
    from server.net.replay import replay_bytes
    from server.rooms import Room
    from server.runtime import GauntletServer

    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path,
                          save_replays=True, replay_dir=tmp_path / "replays")
    rooms: list[Room] = []
    async with GauntletServer(config) as server:
        server.lobby.room_listeners.append(rooms.append)
        async with asyncio.timeout(60):
            report = await free_bots.play("127.0.0.1", server.tcp_port, "pw", 3, 3, 1)
            while len(server.replays) < 3:
                await asyncio.sleep(0.01)
        assert report["failed"] == 0 and report["games"] == 3
        assert server._listener is not None and server._listener.shared.take("x") == {}
        assert not server._listener.shared._kept  # nothing kept after the matches
        written = sorted(path.read_bytes() for path in server.replays)
    expected = []
    for room in rooms:
        assert room.result is not None
        # replay_bytes adds the result to the log; it is in the log now: drop the copy.
        again = replay_bytes(room, room.result)
        expected.append(again[:again.rindex(b"<room ")] + b"</protocol>")
    assert written == sorted(expected)
    assert all(data.count(b'<data class="memento">') > 40 for data in written)


def test_a_kept_rooms_mementos_are_the_bytes_of_any_other_room() -> None:
    """With `--save-replays` a memento is encoded as its replay packet and the players get
    it one level deeper (`nested`): over whole games, with room ids that need escaping,
    those are the bytes a room without replays sends."""
    import random

    from games import blokus
    from protocols.sc.connection import server_message_body
    from server.net.replay import packet_bytes
    from server.net.sc_cache import SharedEncodings, nested

    shared = SharedEncodings()
    for game, room_id in enumerate(["r1", 'a"b<c>\n&d', "0f8a3f5e-aaaa-bbbb-cccc-0123456789ab"]):
        shared.keep(room_id, packet_bytes)
        rng = random.Random(game)
        state = blokus.new_game(rng.choice(blokus.PENTOMINOES))
        seq = 0
        while not state.is_over:
            memento = m.Memento(room_id, state.clone())
            expected = server_message_body(memento)
            assert nested(packet_bytes(memento)) == expected
            assert shared.body((room_id, seq, None), memento) == expected
            state.apply(rng.choice(list(state.legal_moves())))
            seq += 1
        kept = shared.take(room_id)
        assert sorted(kept) == list(range(seq)) and all(b"\n  <" in p for p in kept.values())
