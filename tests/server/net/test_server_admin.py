"""Admin control over TCP: prepare, observe, pause, step, cancel; and room isolation."""

from __future__ import annotations

import asyncio
import random

import pytest

from protocols.sc import messages as m
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import ScClient, no_errors_logged, play_random  # noqa: F401

PASSWORD = "admin-test"

pytestmark = pytest.mark.usefixtures("no_errors_logged")


def config(**overrides: object) -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password=PASSWORD, **overrides)  # type: ignore[arg-type]


async def admin_client(port: int) -> ScClient:
    admin = await ScClient.connect(port)
    await admin.send(m.Authenticate(PASSWORD))
    return admin


def kinds(client: ScClient) -> list[str]:
    return [type(e).__name__ for e in client.received]


def mementos(client: ScClient) -> list[int]:
    return [e.state.turn for e in client.received if isinstance(e, m.Memento)]


async def move(client: ScClient, room_id: str, rng: random.Random) -> None:
    state = next(e for e in reversed(client.received) if isinstance(e, m.Memento)).state
    await client.send(m.RoomPacket(room_id, rng.choice(list(state.legal_moves()))))


async def test_prepare_observe_pause_step_cancel() -> None:
    rng = random.Random(7)
    async with GauntletServer(config(no_timeout=True)) as srv:
        admin = await admin_client(srv.tcp_port)
        await admin.send(m.Prepare(pause=True, slots=(m.Slot("Alice"), m.Slot("Bob"))))
        prepared = await admin.recv_until(m.Prepared)
        room_id = prepared.room_id
        assert len(prepared.reservations) == 2 and room_id in srv.rooms
        await admin.send(m.Observe(room_id))
        await admin.recv_until(m.Observed)

        a, b = await ScClient.connect(srv.tcp_port), await ScClient.connect(srv.tcp_port)
        await a.send(m.JoinPrepared(prepared.reservations[0]))
        assert (await a.recv_until(m.Joined)).room_id == room_id
        await b.send(m.JoinPrepared(prepared.reservations[1]))
        await a.recv_until(m.Welcome)
        assert (await b.recv_until(m.Welcome)).team == "TWO"
        counts = [(await admin.recv_until(m.JoinedGameRoom)).player_count for _ in range(2)]
        assert counts == [1, 2]
        # Paused: the start memento goes to the observer only.
        assert (await admin.recv_until(m.Memento)).state.turn == 0

        await admin.send(m.Step(room_id))  # players get the memento and one request
        await a.recv_until(m.MoveRequest)
        assert kinds(a) == ["Joined", "Welcome", "Memento", "MoveRequest"]
        await move(a, room_id, rng)
        assert (await admin.recv_until(m.Memento)).state.turn == 1

        await admin.send(m.Step(room_id))
        await b.recv_until(m.MoveRequest)
        assert mementos(b) == [0, 1]  # the turn-1 state came with the step, not before
        await move(b, room_id, rng)
        assert (await admin.recv_until(m.Memento)).state.turn == 2

        await admin.send(m.Pause(room_id, False))
        assert (await admin.recv_until(m.Paused)).paused is False
        await a.recv_until(m.MoveRequest)  # unpausing: current memento + request
        assert mementos(a) == [0, 1, 2]  # one memento per step / unpause, none in between
        await move(a, room_id, rng)
        await b.recv_until(m.MoveRequest)  # no longer paused: memento to all, then request
        assert mementos(b) == [0, 1, 2, 3]

        await admin.send(m.Pause(room_id, True))
        assert (await admin.recv_until(m.Paused)).paused is True
        await admin.send(m.Cancel(room_id))
        result = await a.recv_until(m.Result)
        assert result == await b.recv_until(m.Result) == await admin.recv_until(m.Result)
        state = next(e for e in reversed(a.received) if isinstance(e, m.Memento)).state
        points = [state.team_points("ONE"), state.team_points("TWO")]
        assert [e.parts[1] for e in result.scores] == points
        assert [e.name for e in result.scores] == ["Alice", "Bob"]
        assert result.winner is not None and result.winner.regular
        if points[0] != points[1]:
            leader = 0 if points[0] > points[1] else 1
            assert result.winner.team == ("ONE", "TWO")[leader]
            name = ("Alice", "Bob")[leader]
            assert result.winner.reason == f"{name} hat am meisten Punkte erzielt."
        for client in (a, b, admin):
            assert (await client.recv_until(m.Left)).room_id == room_id
        assert srv.rooms == {}
        for client in (a, b, admin):
            await client.close()


async def test_forced_step_cancels_a_room_missing_a_player() -> None:
    async with GauntletServer(config()) as srv:
        admin = await admin_client(srv.tcp_port)
        await admin.send(m.Prepare(slots=(m.Slot("Alice"), m.Slot("Bob"))))
        prepared = await admin.recv_until(m.Prepared)
        await admin.send(m.Observe(prepared.room_id))
        await admin.recv_until(m.Observed)
        a = await ScClient.connect(srv.tcp_port)
        await a.send(m.JoinPrepared(prepared.reservations[0]))
        await a.recv_until(m.Joined)
        await admin.recv_until(m.JoinedGameRoom)
        await admin.send(m.Step(prepared.room_id, forced=True))
        result = await a.recv_until(m.Result)
        assert result.winner is not None
        assert result.winner.reason == "Bob hat das Spiel verlassen: NOT_CONNECTED"
        assert result.winner.team == "ONE" and not result.winner.regular
        assert await admin.recv_until(m.Result) == result
        await a.recv_until(m.Left)
        assert "Welcome" not in kinds(a)


async def test_admin_cannot_step_unknown_room_but_stays_admin() -> None:
    async with GauntletServer(config()) as srv:
        admin = await admin_client(srv.tcp_port)
        await admin.send(m.Step("no-such-room"))
        error = await admin.recv_until(m.ErrorPacket)
        assert error.message.endswith("Couldn't find a room with id no-such-room")
        await admin.send(m.Prepare(game_type="swc_1999_nothing"))
        error = await admin.recv_until(m.ErrorPacket)
        assert error.message == ("sc.api.plugins.exceptions.GameRoomException: "
                                 "Unknown game type 'swc_1999_nothing'")
        await admin.send(m.Prepare())
        assert (await admin.recv_until(m.Prepared)).room_id in srv.rooms


async def test_garbage_in_one_room_leaves_another_undisturbed() -> None:
    async with GauntletServer(config()) as srv:
        admin = await admin_client(srv.tcp_port)
        await admin.send(m.Prepare(slots=(m.Slot("C"), m.Slot("D"))))
        prepared = await admin.recv_until(m.Prepared)
        game = asyncio.gather(play_random(srv.tcp_port, 11), play_random(srv.tcp_port, 12))
        c, d = await ScClient.connect(srv.tcp_port), await ScClient.connect(srv.tcp_port)
        await c.send(m.JoinPrepared(prepared.reservations[0]))
        await d.send(m.JoinPrepared(prepared.reservations[1]))
        await c.recv_until(m.MoveRequest)
        await d.recv_until(m.Memento)
        await c.send_raw(b"\x00\xff garbage <<<")
        await c.read_to_eof()
        result = await d.recv_until(m.Result)
        assert result.winner is not None
        assert result.winner.reason == "C hat das Spiel verlassen: PROTOCOL_ERROR"
        (result_1, _), (result_2, _) = await game
        assert result_1 == result_2
        assert result_1.winner is not None and result_1.winner.regular
        assert srv.rooms == {}


async def test_pause_while_a_move_is_requested_honours_that_move() -> None:
    """Reference §2.3: a pending moveRequest is still honoured; the pause takes effect after
    that move, whose memento then goes to observers only; `step` resumes one move."""
    rng = random.Random(3)
    async with GauntletServer(config(no_timeout=True)) as srv:
        admin = await admin_client(srv.tcp_port)
        await admin.send(m.Prepare(slots=(m.Slot("Alice"), m.Slot("Bob"))))
        prepared = await admin.recv_until(m.Prepared)
        room_id = prepared.room_id
        await admin.send(m.Observe(room_id))
        await admin.recv_until(m.Observed)
        a, b = await ScClient.connect(srv.tcp_port), await ScClient.connect(srv.tcp_port)
        await a.send(m.JoinPrepared(prepared.reservations[0]))
        await b.send(m.JoinPrepared(prepared.reservations[1]))
        await a.recv_until(m.MoveRequest)  # BLUE (team ONE) is asked
        await b.recv_until(m.Memento)
        await admin.send(m.Pause(room_id, True))
        assert (await admin.recv_until(m.Paused)).paused is True
        await move(a, room_id, rng)  # the pending request is honoured
        observed = await admin.recv_until(m.Memento)
        assert observed.state.turn == 1
        # Paused: the players hear nothing more, and nobody is asked to move.
        with pytest.raises(TimeoutError):
            await b.recv(timeout=0.3)
        assert mementos(b) == [0] and kinds(b).count("MoveRequest") == 0
        # One step: the players get the current state and YELLOW's team (TWO) is asked.
        await admin.send(m.Step(room_id))
        await b.recv_until(m.MoveRequest)
        assert mementos(b) == [0, 1]
        await admin.send(m.Cancel(room_id))
        await a.recv_until(m.Left)
        await b.recv_until(m.Left)
        for client in (a, b, admin):
            await client.close()
