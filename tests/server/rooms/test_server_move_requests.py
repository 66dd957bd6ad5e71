"""Who is asked to move: always the team of the current colour, and so the same team twice
in a row once a colour of the other team is out (reference §3.1, §3.3)."""

from __future__ import annotations

import asyncio

import pytest

from games import blokus
from protocols.sc import messages as m
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import no_errors_logged, play_random  # noqa: F401

pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def test_move_requests_follow_the_current_colour_even_twice_in_a_row() -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", no_timeout=True, seed=11)
    twice_in_a_row = 0
    async with GauntletServer(config) as server:
        for game in range(4):
            (_, one), (_, two) = await asyncio.gather(
                play_random(server.tcp_port, seed=2 * game),
                play_random(server.tcp_port, seed=2 * game + 1))
            for client in (one, two):
                team = next(e.team for e in client.received if isinstance(e, m.Welcome))
                state = None
                mementos_since_request: int | None = None
                for event in client.received:
                    if isinstance(event, m.Memento):
                        state = event.state
                        if mementos_since_request is not None:
                            mementos_since_request += 1
                    elif isinstance(event, m.MoveRequest):
                        assert state is not None and not state.is_over
                        assert blokus.team_of(state.current_color) == team
                        # Only the memento of our own move since our last request: nobody
                        # else moved, the colours in between were out.
                        if mementos_since_request == 1:
                            twice_in_a_row += 1
                            assert blokus.team_of(state.last_move.color) == team
                        mementos_since_request = 0
    assert twice_in_a_row > 0
