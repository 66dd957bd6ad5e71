"""A Kettle seat counts for the match's start from its first `get_game_state` (or
`login_timeout` seconds after `game_joined` without one): every seat's first snapshot is
the game before its start, however late the bot asks, so how a stored match's history is
cut into blocks never depends on how fast its bots started (`gauntlet ask` sends the
same bytes). Raw clients over real sockets against a real server."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[2] / "conformance" / "kettle"))
from kettle_client import KettleClient

from games import hearth
from protocols.kettle import (
    CHOICE_MULLIGAN,
    ChooseEntities,
    Concede,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    QueuePlayer,
)
from server.config import Limits, ServerConfig
from server.runtime import GauntletServer

WAIT = 60.0


def before_start(room: Any, player: int) -> list[dict[str, Any]]:
    """What `player` may see of the room's game before anybody answered anything."""
    game = room.game
    fresh = hearth.new_game(seed=game.seed, decks=game.decks, history=True)
    return list(fresh.history(player))


async def test_the_match_starts_once_both_asked_for_the_state_and_snapshots_are_the_start(
        ) -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=5)
    async with GauntletServer(config) as srv, asyncio.timeout(WAIT):
        port = srv.tcp_port
        assert port is not None
        first = await KettleClient.connect(port)
        await first.send(QueuePlayer("first"))
        joined = await first.recv_until(GameJoined)
        await first.send(GetGameState())
        first_snapshot = await first.recv_until(HistoryBlock)
        second = await KettleClient.connect(port)
        await second.send(QueuePlayer("second"))
        await second.recv_until(GameJoined)
        room = srv.rooms[joined.game_id]
        # Both seats joined; the second has not asked for the state: the match waits.
        assert room.slots[1].player is not None and not room.slots[1].present
        assert not room.started
        await second.send(GetGameState())
        second_snapshot = await second.recv_until(HistoryBlock)
        for player, client, snapshot in ((1, first, first_snapshot),
                                         (2, second, second_snapshot)):
            # Nobody answered anything before either snapshot: the game before its start.
            assert list(snapshot.entries) == before_start(room, player)
            choices = await client.recv()  # and right after it, the mulligan
            assert isinstance(choices, EntityChoices)
            assert choices.choice_type == CHOICE_MULLIGAN
            await client.send(ChooseEntities(choices.choice_id, ()))
        await first.send(Concede())
        for client in (first, second):
            assert isinstance(await client.recv_until(GameFinished), GameFinished)
            await client.close()


async def test_a_client_that_never_asks_for_the_state_still_gets_its_match() -> None:
    """`login_timeout` after its `game_joined` the seat counts anyway: the match starts, and
    the seat that never asked loses on its clock as any bot that does not answer."""
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=5, hard_timeout=0.5,
                          decision_timeout=0.5,
                          limits=Limits(login_timeout_seconds=0.2))
    async with GauntletServer(config) as srv, asyncio.timeout(WAIT):
        port = srv.tcp_port
        assert port is not None
        asking = await KettleClient.connect(port)
        await asking.send(QueuePlayer("asking"))
        await asking.recv_until(GameJoined)
        await asking.send(GetGameState())
        await asking.recv_until(HistoryBlock)
        silent = await KettleClient.connect(port)
        await silent.send(QueuePlayer("silent"))
        await silent.recv_until(GameJoined)
        choices = await asking.recv_until(EntityChoices)
        await asking.send(ChooseEntities(choices.choice_id, ()))
        finished = await asking.recv_until(GameFinished)
        assert finished.winners == (1,), finished
        assert "timeout" in finished.result.lower(), finished
        for client in (asking, silent):
            await client.close()
