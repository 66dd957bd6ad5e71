"""The kit's I/O layers over real loopback sockets.

Against the hand-made server (``hearth_kit_server.serve_over_tcp``) and against the
server's own Kettle session (``test_against_the_kettle_session``).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from hearth_kit_server import HandServer, serve_over_tcp

from bots.hearth import ConnectFailed, GreedyBot, RandomBot, play
from bots.hearth.aio import play_async
from server.rooms import SlotRequest

sys.path.insert(0, str(Path(__file__).parents[1]))  # bots_testkit


async def test_blocking_and_asyncio_layers_play_a_whole_game() -> None:
    server = HandServer(21)
    listener, port = await serve_over_tcp(server)
    async with listener:
        first = asyncio.create_task(asyncio.to_thread(play, RandomBot(1), "127.0.0.1", port,
                                                      idle_timeout=30))
        while not server.joined and not first.done():
            await asyncio.sleep(0.01)  # seat 1 must be the blocking bot
        second = asyncio.create_task(play_async(RandomBot(2), "127.0.0.1", port,
                                                idle_timeout=30))
        async with asyncio.timeout(60):
            one, two = await asyncio.gather(first, second)
    result = server.game.result()
    assert result is not None
    assert (one.player, two.player) == (1, 2)
    assert one.winner == two.winner == result.winner
    assert one.reason == two.reason == result.reason


async def test_reservations_are_sent_as_join_game() -> None:
    server = HandServer(22)
    listener, port = await serve_over_tcp(server)
    async with listener, asyncio.timeout(60):
        outcomes = await asyncio.gather(
            play_async(RandomBot(1), "127.0.0.1", port, "g1:pw1", idle_timeout=30),
            play_async(RandomBot(2), "127.0.0.1", port, ("g1", "pw2"), idle_timeout=30))
    assert {o.player for o in outcomes} == {1, 2}
    assert type(server.answers[1][0]).__name__ == "JoinGame"


async def test_nobody_listening() -> None:
    with pytest.raises(ConnectFailed):
        await asyncio.to_thread(play, RandomBot(1), "127.0.0.1", 1)


async def test_against_the_kettle_session(tmp_path: Path) -> None:
    from bots_testkit import running_server

    async with running_server(tmp_path) as srv, asyncio.timeout(60):
        outcomes = await asyncio.gather(
            play_async(GreedyBot(1), "127.0.0.1", srv.tcp_port, idle_timeout=30),
            play_async(RandomBot(2), "127.0.0.1", srv.tcp_port, idle_timeout=30))
        assert {o.player for o in outcomes} == {1, 2}
        assert outcomes[0].winner == outcomes[1].winner and outcomes[0].reason == "hero died"
        # a reservation, as `--reservation GAME_ID:PASSWORD` passes it
        room, codes = srv.lobby.prepare("hearth", [SlotRequest("a"), SlotRequest("b")], False)
        reserved = await asyncio.gather(
            play_async(RandomBot(3), "127.0.0.1", srv.tcp_port, f"{room.id}:{codes[0]}",
                       idle_timeout=30),
            play_async(RandomBot(4), "127.0.0.1", srv.tcp_port, (room.id, codes[1]),
                       idle_timeout=30))
        assert [o.player for o in reserved] == [1, 2]


def test_module_runner_reports_failures_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from bots.hearth.__main__ import main

    assert main(["no-such-bot"]) == 1
    assert capsys.readouterr().err.startswith("error: unknown bot 'no-such-bot'")
    assert main(["hearth-greedy", "-p", "1", "--seed", "3"]) == 1
    assert "cannot connect to 127.0.0.1:1" in capsys.readouterr().err


async def test_module_runner_plays_a_game_against_the_hand_made_server() -> None:
    server = HandServer(23)
    listener, port = await serve_over_tcp(server)
    async with listener, asyncio.timeout(60):
        from bots.hearth.__main__ import main

        codes = await asyncio.gather(
            asyncio.to_thread(main, ["hearth-random", "-p", str(port), "--seed", "1"]),
            asyncio.to_thread(main, ["bots.hearth.bundled:RandomBot", "--port", str(port)]))
    assert codes == [0, 0] and server.game.is_over
