"""END_TURN takes no target (issue #24, point 14c): one named is refused with Kettle's
`nack illegal`, the options stay open, and END_TURN without one is then taken. Two raw
Kettle clients against a real server over TCP."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from games.hearth import END_TURN
from protocols.base import NEED_DATA, ConnectionClosed
from protocols.kettle import (
    ChooseEntities,
    ChooseOption,
    ClientConnection,
    Concede,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    Nack,
    Options,
    QueuePlayer,
)
from protocols.kettle.hearth import action_for
from protocols.kettle.messages import OPTION_END_TURN, Option
from server.config import ServerConfig
from server.runtime import GauntletServer

WAIT = 60.0  # an upper bound for the whole game; nothing asserts on elapsed time
NO_SUCH_ENTITY = 9999


class Probe:
    """The first client to get `options` tries END_TURN with a target, then without one,
    then concedes; every message either client receives is kept."""

    def __init__(self) -> None:
        self.tried: Options | None = None
        self.refused: list[Nack] = []
        self.after_end_turn: list[Any] = []
        self.ended_turn = False


async def client(port: int, probe: Probe) -> GameFinished:
    conn = ClientConnection()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    def send(message: Any) -> None:
        writer.write(conn.send(message))

    try:
        send(QueuePlayer("end-turn"))
        while True:
            event = conn.next_event()
            if event is NEED_DATA:
                conn.receive_data(await reader.read(65536))
                continue
            assert not isinstance(event, ConnectionClosed), "closed before game_finished"
            if probe.ended_turn:
                probe.after_end_turn.append(event)
            match event:
                case GameJoined():
                    send(GetGameState())
                case EntityChoices(choice_id=choice):
                    send(ChooseEntities(choice, ()))
                case Options(options_id=ident) if probe.tried is None:
                    probe.tried = event
                    send(ChooseOption(ident, 0, NO_SUCH_ENTITY))
                case Nack() if probe.tried is not None and not probe.ended_turn:
                    probe.refused.append(event)
                    probe.ended_turn = True
                    send(ChooseOption(probe.tried.options_id, 0))
                case HistoryBlock() if probe.ended_turn and probe.after_end_turn == [event]:
                    send(Concede())  # the END_TURN was taken: its news came, no nack
                case GameFinished():
                    return event
            await writer.drain()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def test_end_turn_with_a_target_is_refused(tmp_path: Path) -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=3, data_dir=tmp_path)
    async with GauntletServer(config) as server:
        probe = Probe()
        async with asyncio.timeout(WAIT):
            finished = await asyncio.gather(*(client(server.tcp_port, probe)
                                              for _ in range(2)))
    assert probe.tried is not None and probe.tried.options[0].type == OPTION_END_TURN
    [nack] = probe.refused
    assert (nack.not_acknowledged_object, nack.reason) == ("kettle:types/choose_option",
                                                           "illegal")
    assert "END_TURN" in nack.message and str(NO_SUCH_ENTITY) in nack.message
    # Taken without a target: the news of the turn's end, not a second nack.
    assert isinstance(probe.after_end_turn[0], HistoryBlock), probe.after_end_turn[:2]
    assert all("conceded" in f.result for f in finished)


def test_end_turn_maps_to_no_action_when_a_target_is_named() -> None:
    end_turn = END_TURN
    options = (Option(OPTION_END_TURN),)
    assert action_for([end_turn], options, 0, None, None) == end_turn
    assert action_for([end_turn], options, 0, 0, None) == end_turn  # 0: Kettle's "none"
    assert action_for([end_turn], options, 0, NO_SUCH_ENTITY, None) is None
