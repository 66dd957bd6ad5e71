"""The kit against our real server over TCP: mementos, reservations, servers that vanish."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from bots_testkit import WAIT, fake_server, free_port, prepare, run_cli, running_server

from bots.blokus import (
    ConnectFailed,
    Outcome,
    RandomBot,
    ServerClosed,
    ServerSilent,
    play,
)
from bots.blokus.aio import play_async
from games import blokus
from protocols.sc import ServerConnection
from protocols.sc import messages as m


class Recording(RandomBot):
    """A random bot that keeps every state it is shown and its team."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.states: list[blokus.State] = []
        self.team: str | None = None
        self.outcome: Outcome | None = None

    def on_start(self, team: str) -> None:
        self.team = team

    def on_update(self, state: blokus.State) -> None:
        self.states.append(state)

    def on_result(self, outcome: Outcome) -> None:
        self.outcome = outcome


def check_state_sequence(states: list[blokus.State]) -> None:
    """Each memento is the previous one plus its lastMove, under our own engine's rules."""
    assert states and states[0].turn == 0 and states[0].last_move is None
    for before, after in itertools.pairwise(states):
        replayed = before.clone()
        assert after.last_move is not None
        replayed.apply(after.last_move)
        assert replayed.fields() == after.fields()
        assert replayed.turn == after.turn
        assert replayed.valid_colors == after.valid_colors
        for color in blokus.COLORS:
            assert replayed.undeployed(color) == after.undeployed(color)
    assert states[-1].is_over


async def test_kit_parses_real_server_mementos(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        port = server.tcp_port
        first, second = Recording(1), Recording(2)
        # The blocking layer (a student's bot) in a thread, the asyncio layer on the loop.
        blocking = asyncio.create_task(
            asyncio.to_thread(play, first, "127.0.0.1", port, idle_timeout=WAIT))
        await asyncio.sleep(0)
        async with asyncio.timeout(WAIT):
            while not server.rooms:  # the first joiner is team ONE: wait for it
                await asyncio.sleep(0.01)
            outcome_two = await play_async(second, "127.0.0.1", port, idle_timeout=WAIT)
            outcome_one = await blocking
    assert (first.team, second.team) == ("ONE", "TWO")
    assert outcome_one.team == "ONE" and outcome_two.team == "TWO"
    check_state_sequence(first.states)
    assert [s.fields() for s in first.states] == [s.fields() for s in second.states]
    final = first.states[-1]
    expected = final.result()
    for outcome in (outcome_one, outcome_two):
        assert outcome.regular and outcome.cause is None
        assert outcome.points == expected.points
        assert outcome.win_points == expected.win_points
        assert outcome.winner == expected.winner
    assert first.outcome == outcome_one and second.outcome == outcome_two


async def test_reservations_decide_the_seats(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        prepared = await prepare(server.tcp_port, ("left", "right"))
        bots = [Recording(3), Recording(4)]
        async with asyncio.timeout(WAIT):
            # Join in reverse order: the reservation, not the order, decides the team.
            second = asyncio.create_task(play_async(
                bots[1], "127.0.0.1", server.tcp_port, prepared.reservations[1],
                idle_timeout=WAIT))
            await asyncio.sleep(0.05)
            first = await play_async(bots[0], "127.0.0.1", server.tcp_port,
                                     prepared.reservations[0], idle_timeout=WAIT)
            outcome_two = await second
    assert (first.team, outcome_two.team) == ("ONE", "TWO")
    assert first.names == {"ONE": "left", "TWO": "right"}
    check_state_sequence(bots[0].states)


async def test_server_shutdown_mid_wait_is_a_clear_error(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        port = server.tcp_port
        waiting = asyncio.create_task(play_async(RandomBot(1), "127.0.0.1", port,
                                                 idle_timeout=WAIT))
        async with asyncio.timeout(WAIT):
            while not server.rooms:
                await asyncio.sleep(0.01)
    with pytest.raises(ServerClosed, match="before the game was over"):
        async with asyncio.timeout(WAIT):
            await waiting


@pytest.mark.parametrize("layer", ["blocking", "asyncio"])
async def test_server_hangs_up_mid_game(layer: str) -> None:
    server = ServerConnection()
    script = server.send(m.Joined("r")) + server.send(m.Welcome("r", "ONE"))
    async with fake_server(script) as port:
        with pytest.raises(ServerClosed, match="before the game was over"):
            async with asyncio.timeout(WAIT):
                if layer == "blocking":
                    await asyncio.to_thread(play, RandomBot(1), "127.0.0.1", port,
                                            idle_timeout=WAIT)
                else:
                    await play_async(RandomBot(1), "127.0.0.1", port, idle_timeout=WAIT)


@pytest.mark.parametrize("layer", ["blocking", "asyncio"])
async def test_silent_server_gives_up_after_idle_timeout(layer: str) -> None:
    server = ServerConnection()
    async with fake_server(server.send(m.Joined("r")), close_after=False) as port:
        with pytest.raises(ServerSilent, match="no message"):
            async with asyncio.timeout(WAIT):
                if layer == "blocking":
                    await asyncio.to_thread(play, RandomBot(1), "127.0.0.1", port,
                                            idle_timeout=0.3)
                else:
                    await play_async(RandomBot(1), "127.0.0.1", port, idle_timeout=0.3)


async def test_nobody_listening() -> None:
    port = free_port()
    with pytest.raises(ConnectFailed, match=f"cannot connect to 127.0.0.1:{port}"):
        await asyncio.to_thread(play, RandomBot(1), "127.0.0.1", port)
    with pytest.raises(ConnectFailed):
        await play_async(RandomBot(1), "127.0.0.1", port)


async def test_cli_bot_without_server_exits_cleanly() -> None:
    code, out, err = await run_cli("bot", "blokus-random", "-p", str(free_port()))
    assert code == 1
    assert err.startswith("error: cannot connect to 127.0.0.1:")
    assert "Traceback" not in err + out


async def test_cli_bot_whose_server_vanishes_exits_cleanly(tmp_path: Path) -> None:
    server = ServerConnection()
    script = server.send(m.Joined("r"))
    async with fake_server(script) as port:
        code, out, err = await run_cli("bot", "blokus-greedy", "--port", str(port))
    assert code == 1
    assert "error: the server closed the connection before the game was over" in err
    assert "Traceback" not in err + out


async def test_bad_reservation_is_refused(tmp_path: Path) -> None:
    async with running_server(tmp_path) as server:
        code, out, err = await run_cli("bot", "blokus-random", "-p", str(server.tcp_port),
                                       "-r", "no-such-code")
    assert code == 1
    assert "error: the server refused a request" in err and "reservation" in err
    assert "Traceback" not in err + out


