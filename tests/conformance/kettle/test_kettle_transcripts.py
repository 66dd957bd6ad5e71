"""Golden transcripts of the Kettle session over real sockets: what each player receives.

One JSON line per frame a client received (room ids normalised to "GAME"), clients one
after the other (``client`` numbers them in connection order; ``playerID`` is in
``game_joined``). Regenerate with GAUNTLET_REGEN_GOLDEN=1 and review the diff; the
assertions next to each golden hold independently of the files.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from kettle_client import KettleClient

from games.hearth import MAGE_DECK
from protocols.kettle import (
    ChooseEntities,
    ChooseOption,
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
from server.config import ServerConfig
from server.rooms import Clocks
from server.runtime import GauntletServer

GOLDEN = Path(__file__).parent / "golden"
SEED = 11


def check_golden(name: str, *clients: KettleClient) -> None:
    lines = [f'{{"client":{n},"received":{line}}}'
             for n, client in enumerate(clients, 1) for line in client.transcript()]
    text = "\n".join(lines) + "\n"
    path = GOLDEN / f"{name}.jsonl"
    if os.environ.get("GAUNTLET_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@asynccontextmanager
async def server(clocks: Clocks | None = None) -> AsyncIterator[GauntletServer]:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=SEED)
    async with GauntletServer(config) as srv:
        if clocks is not None:
            srv.lobby.clocks = clocks
        yield srv


async def joined(port: int) -> tuple[KettleClient, KettleClient]:
    """Two players in one game, each with its snapshot and its mulligan choice."""
    a = await KettleClient.connect(port)
    await a.send(QueuePlayer("a"))
    await a.recv_until(GameJoined)
    await a.send(GetGameState())
    await a.recv_until(HistoryBlock)
    b = await KettleClient.connect(port)
    await b.send(QueuePlayer("b"))
    await b.recv_until(GameJoined)
    await b.send(GetGameState())
    await b.recv_until(EntityChoices)
    await a.recv_until(EntityChoices)
    return a, b


async def mulliganed(port: int) -> tuple[KettleClient, KettleClient, Options]:
    """Both mulligans kept; returns (player to move, the other, its first options)."""
    a, b = await joined(port)
    for me, other in ((a, b), (b, a)):
        choice = next(e for e in me.received if isinstance(e, EntityChoices))
        await me.send(ChooseEntities(choice.choice_id, ()))
        await me.recv_until(HistoryBlock)
        if me is a:
            await other.recv_until(HistoryBlock)
    found: dict[int, Options] = {}

    async def first_options(client: KettleClient, n: int) -> None:
        found[n] = await client.recv_until(Options)

    waiters = [asyncio.create_task(first_options(c, n)) for n, c in ((1, a), (2, b))]
    _done, pending = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    mover = a if 1 in found else b
    return mover, (b if mover is a else a), found[1 if mover is a else 2]


def policy(options: Options) -> ChooseOption:
    """Deterministic: the last option (attackers come last), its first target."""
    index = len(options.options) - 1
    main = options.options[index].main_option
    target = main.targets[0] if main is not None and main.targets else None
    return ChooseOption(options.options_id, index, target)


async def play_out(client: KettleClient) -> None:
    while True:
        event = await client.recv()
        if isinstance(event, Options):
            await client.send(policy(event))
        elif isinstance(event, GameFinished):
            await client.read_to_eof()
            return


async def test_whole_seeded_game() -> None:
    async with server() as srv:
        a, b = await joined(srv.tcp_port)
        for me, other in ((a, b), (b, a)):
            choice = next(e for e in me.received if isinstance(e, EntityChoices))
            await me.send(ChooseEntities(choice.choice_id, ()))
            await me.recv_until(HistoryBlock)
            await other.recv_until(HistoryBlock)
        async with asyncio.timeout(60):
            await asyncio.gather(play_out(a), play_out(b))
    check_golden("whole_game", a, b)
    for client in (a, b):
        kinds = [type(e).__name__ for e in client.received]
        assert kinds[:2] == ["GameJoined", "HistoryBlock"]
        assert kinds[-2:] == ["GameFinished", "ConnectionClosed"]
        final = client.received[-3]
        assert isinstance(final, HistoryBlock)
        assert not any(isinstance(e, Nack) for e in client.received)
    finished = [e for c in (a, b) for e in c.received if isinstance(e, GameFinished)]
    assert finished[0] == finished[1] and finished[0].result == "hero died"


async def test_oversize_truncated_and_non_json_frames_are_nacked_then_closed() -> None:
    async with server() as srv:
        clients = []
        for data in (b"\x00\x20\x00\x00", b"\x00\x00\x00\x64{\"type\":", b"\x00\x00\x00\x05hello"):
            c = await KettleClient.connect(srv.tcp_port)
            await c.send_raw(data)
            if data.startswith(b"\x00\x00\x00\x64"):
                c.writer.write_eof()
            await c.read_to_eof()
            clients.append(c)
    check_golden("bad_frames", *clients)
    reasons = [[e.reason for e in c.received if isinstance(e, Nack)] for c in clients]
    assert reasons == [["frame_too_large"], ["truncated"], ["bad_json"]]


async def test_unknown_type_bad_decks_and_choosing_before_joining() -> None:
    warrior = (*MAGE_DECK[:-1], "CS2_106")
    three = (*MAGE_DECK[:-1], "CS2_025")
    async with server() as srv:
        c = await KettleClient.connect(srv.tcp_port)
        await c.send_raw(b'\x00\x00\x00\x28{"type":"kettle:types/dance","dance":{}}')
        await c.send(QueuePlayer("c", "HERO_08", warrior), QueuePlayer("c", "HERO_08", three),
                     QueuePlayer("c", "HERO_08a"), ChooseOption(1, 0), ChooseEntities(1, ()),
                     GetGameState(), Concede())
        nacks = [await c.recv_until(Nack) for _ in range(8)]
        await c.close()
    check_golden("refused_messages", c)
    assert [n.reason for n in nacks] == ["unknown_type", "invalid_deck", "invalid_deck",
                                         "invalid_deck", "unexpected_message",
                                         "unexpected_message", "unexpected_message",
                                         "unexpected_message"]
    assert "CS2_106" in nacks[1].message and "Warrior" in nacks[1].message
    assert "3 copies" in nacks[2].message


async def test_other_players_options_stale_ids_and_illegal_choices_then_concede() -> None:
    async with server() as srv:
        mover, other, options = await mulliganed(srv.tcp_port)
        await other.send(ChooseOption(options.options_id, 0))  # not its options
        assert (await other.recv_until(Nack)).reason == "unexpected_message"
        await mover.send(ChooseOption(options.options_id - 1, 0))
        assert (await mover.recv_until(Nack)).reason == "stale_id"
        await mover.send(ChooseOption(options.options_id, len(options.options)))
        assert (await mover.recv_until(Nack)).reason == "illegal"
        await mover.send(ChooseEntities(options.options_id, ()))
        assert (await mover.recv_until(Nack)).reason == "unexpected_message"
        await mover.send(policy(options))  # the same options are still open
        await mover.recv_until(HistoryBlock)
        await mover.send(Concede())
        for c in (mover, other):
            await c.read_to_eof()
    check_golden("refused_choices_then_concede", mover, other)
    finished = [next(e for e in c.received if isinstance(e, GameFinished)) for c in (mover, other)]
    assert finished[0] == finished[1] and finished[0].result.startswith("conceded (player ")
    assert finished[0].losers == (int(finished[0].result[-2]),)


async def test_disconnect_mid_game_loses() -> None:
    async with server() as srv:
        mover, other, _ = await mulliganed(srv.tcp_port)
        await mover.close()
        await other.read_to_eof()
    check_golden("disconnect", other)
    finished = next(e for e in other.received if isinstance(e, GameFinished))
    assert finished.result.startswith("left: lost_connection (player ")
    assert finished.winners == (next(e for e in other.received
                                     if isinstance(e, GameJoined)).player_id,)


async def test_a_slow_player_loses_on_time() -> None:
    async with server(Clocks(decision=0.5, turn=5.0)) as srv:
        mover, other, _ = await mulliganed(srv.tcp_port)
        for c in (mover, other):
            await c.read_to_eof()
    check_golden("timeout", mover, other)
    finished = next(e for e in other.received if isinstance(e, GameFinished))
    assert finished.result.startswith("hard_timeout (player ")


async def test_no_timeout_waits() -> None:
    async with server(Clocks(decision=0.05, turn=0.05, enabled=False)) as srv:
        mover, other, options = await mulliganed(srv.tcp_port)
        await asyncio.sleep(0.3)
        await mover.send(policy(options))
        await mover.recv_until(HistoryBlock)
        await other.send(Concede())
        await other.read_to_eof()
        await mover.read_to_eof()
