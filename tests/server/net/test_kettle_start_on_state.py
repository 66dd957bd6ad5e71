"""A Kettle seat counts for the match's start from its first `get_game_state` (or
`login_timeout` seconds after `game_joined` without one): every seat's first snapshot is
the game before its start, however late the bot asks, so how a stored match's history is
cut into blocks never depends on how fast its bots started (`gauntlet ask` sends the
same bytes). Raw clients over real sockets against a real server."""

from __future__ import annotations

import asyncio
from typing import Any

from games import hearth
from protocols.base import NEED_DATA, ConnectionClosed
from protocols.kettle import (
    CHOICE_MULLIGAN,
    ChooseEntities,
    ClientConnection,
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


class Client:
    """One raw Kettle connection: send messages, read the next event."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.conn = ClientConnection()
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, port: int) -> Client:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    def send(self, message: Any) -> None:
        self.writer.write(self.conn.send(message))

    async def next(self) -> Any:
        while (event := self.conn.next_event()) is NEED_DATA:
            self.conn.receive_data(await self.reader.read(65536))
        assert not isinstance(event, ConnectionClosed), "the server closed the connection"
        return event

    async def until(self, kind: type) -> Any:
        while not isinstance(event := await self.next(), kind):
            pass
        return event

    def close(self) -> None:
        self.writer.close()


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
        first = await Client.connect(port)
        first.send(QueuePlayer("first"))
        joined = await first.until(GameJoined)
        first.send(GetGameState())
        first_snapshot = await first.until(HistoryBlock)
        second = await Client.connect(port)
        second.send(QueuePlayer("second"))
        await second.until(GameJoined)
        room = srv.rooms[joined.game_id]
        # Both seats joined; the second has not asked for the state: the match waits.
        assert room.slots[1].player is not None and not room.slots[1].present
        assert not room.started
        second.send(GetGameState())
        second_snapshot = await second.until(HistoryBlock)
        for player, client, snapshot in ((1, first, first_snapshot),
                                         (2, second, second_snapshot)):
            # Nobody answered anything before either snapshot: the game before its start.
            assert list(snapshot.entries) == before_start(room, player)
            choices = await client.next()  # and right after it, the mulligan
            assert isinstance(choices, EntityChoices)
            assert choices.choice_type == CHOICE_MULLIGAN
            client.send(ChooseEntities(choices.choice_id, ()))
        first.send(Concede())
        for client in (first, second):
            assert isinstance(await client.until(GameFinished), GameFinished)
            client.close()


async def test_a_client_that_never_asks_for_the_state_still_gets_its_match() -> None:
    """`login_timeout` after its `game_joined` the seat counts anyway: the match starts, and
    the seat that never asked loses on its clock as any bot that does not answer."""
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=5, hard_timeout=0.5,
                          decision_timeout=0.5,
                          limits=Limits(login_timeout_seconds=0.2))
    async with GauntletServer(config) as srv, asyncio.timeout(WAIT):
        port = srv.tcp_port
        assert port is not None
        asking = await Client.connect(port)
        asking.send(QueuePlayer("asking"))
        await asking.until(GameJoined)
        asking.send(GetGameState())
        await asking.until(HistoryBlock)
        silent = await Client.connect(port)
        silent.send(QueuePlayer("silent"))
        await silent.until(GameJoined)
        choices = await asking.until(EntityChoices)
        asking.send(ChooseEntities(choices.choice_id, ()))
        finished = await asking.until(GameFinished)
        assert finished.winners == (1,), finished
        assert "timeout" in finished.result.lower(), finished
        for client in (asking, silent):
            client.close()
