"""Rooms opened by unauthenticated joins (SC `<join/>`, Kettle `queue_player`) are limited per
address and in all (issue 24 point 11: 1,008 joins had stored 505 matches). Real sockets
and a real SQLite store: the join over the quota gets its protocol's refusal (SC: an
errorpacket in the official `GameRoomException` form, the connection stays open; Kettle:
nack `too_many_rooms`), joins that open no room, prepared and API matches go on, and a
freed quota place is served again. Rooms opened so are stored with `options.source` =
"join", so that the store's retention can tell them apart.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from protocols.kettle import ClientConnection, GameJoined, Nack
from protocols.kettle.messages import QueuePlayer
from protocols.sc import messages as m
from server.config import Limits, ServerConfig
from server.matches import SeatRequest
from server.runtime import GauntletServer
from server.store import MatchStatus, Store
from tests.server.sc_client import ScClient, play_random

BLOKUS = "swc_2027_blokus"
WAIT = 60.0  # upper bound of every wait; nothing asserts on elapsed time
PER_ADDRESS, IN_ALL = 3, 5


@contextlib.asynccontextmanager
async def served(tmp_path: Path, paused: bool = False
                 ) -> AsyncIterator[tuple[GauntletServer, Store]]:
    store = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}")
    limits = Limits(max_join_rooms_per_address=PER_ADDRESS, max_join_rooms=IN_ALL)
    # A short hard clock: a match nobody moves in ends soon (stored, no move made).
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "data",
                          hard_timeout=1.0, soft_timeout=0.5, paused=paused, limits=limits)
    try:
        async with GauntletServer(config, store=store) as srv:
            yield srv, store
    finally:
        store.close()


async def connect(port: int, address: str = "127.0.0.1") -> ScClient:
    """An SC client whose connection comes from `address` (any of 127.0.0.0/8 is local)."""
    async with asyncio.timeout(WAIT):
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(address, 0))
    return ScClient(reader, writer)


async def joins(client: ScClient, count: int) -> list[Any]:
    """Send `count` `<join/>`s; the answer to each (`Joined` or `ErrorPacket`)."""
    await client.send(*[m.Join()] * count)
    answers: list[Any] = []
    while len(answers) < count:
        event = await client.recv()
        if isinstance(event, m.Joined | m.ErrorPacket):
            answers.append(event)
    return answers


async def queue_player(port: int, address: str) -> Any:
    """A Kettle `queue_player` from `address`: the server's first answer (the connection
    is left open, as the server leaves it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    client = ClientConnection()
    writer.write(client.send(QueuePlayer()))
    try:
        async with asyncio.timeout(WAIT):
            while True:
                data = await reader.read(65536)
                assert data, "closed without an answer"
                client.receive_data(data)
                for event in client.events():
                    if isinstance(event, Nack | GameJoined):
                        return event
    finally:
        writer.close()


async def until(condition: Callable[[], bool]) -> None:
    """Poll a server-side condition that has no event to await (bounded)."""
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)


async def test_rooms_opened_by_joins_are_limited_per_address(tmp_path: Path) -> None:
    async with served(tmp_path) as (srv, store):
        port = srv.tcp_port
        # One connection may wait in several rooms: each of its joins opens one.
        opener = await connect(port)
        answers = await joins(opener, PER_ADDRESS + 1)
        assert [type(a) for a in answers] == [m.Joined] * PER_ADDRESS + [m.ErrorPacket]
        refused = answers[-1]
        assert refused.message == (
            "sc.api.plugins.exceptions.GameRoomException: 3 rooms opened by joins from "
            "127.0.0.1 are open; try again when one ends")
        assert isinstance(refused.original_request, m.Join)
        opened = [a.room_id for a in answers[:PER_ADDRESS]]
        nack = await queue_player(port, "127.0.0.1")
        assert isinstance(nack, Nack) and nack.reason == "too_many_rooms", nack
        # Another address is not held up by this one's quota.
        other = await queue_player(port, "127.0.0.2")
        assert isinstance(other, GameJoined), other

        # The server keeps serving: a join that opens no room is seated (in one of the
        # opener's rooms), and matches of admins and of the API are not counted.
        guest = await connect(port)
        seated = await joins(guest, 1)
        assert isinstance(seated[0], m.Joined) and seated[0].room_id in opened
        admin = await connect(port)
        await admin.send(m.Authenticate("pw"), m.Prepare())
        assert isinstance(await admin.recv_until(m.Prepared), m.Prepared)
        api_room, seats = await srv.matches.create_match(
            BLOKUS, [SeatRequest(name="a"), SeatRequest(name="b")])
        await asyncio.gather(*(play_random(port, seed, m.JoinPrepared(seat["reservation"]))
                               for seed, seat in enumerate(seats)))
        assert api_room.result is not None and api_room.result.regular, api_room.result

        # The opener leaves: its rooms close, the quota is free again.
        await opener.close()
        await until(lambda: not srv.lobby.join_openers)
        again = await connect(port)
        assert isinstance((await joins(again, 1))[0], m.Joined)

        # What marks the rooms of unauthenticated joins in the store.
        match = await asyncio.to_thread(store.get_match, opened[0])
        assert match is not None and match.options.get("source") == "join"
        api_match = await asyncio.to_thread(store.get_match, api_room.id)
        assert api_match is not None and api_match.options.get("source") == "api"
        for client in (guest, admin, again):
            await client.close()


async def test_rooms_opened_by_joins_are_limited_in_all(tmp_path: Path) -> None:
    # Paused: the full rooms stay open (and count) while the test goes on.
    async with served(tmp_path, paused=True) as (srv, _store):
        port = srv.tcp_port
        first = await connect(port, "127.0.0.1")
        second = await connect(port, "127.0.0.2")
        filler = await connect(port, "127.0.0.4")
        assert all(isinstance(a, m.Joined) for a in await joins(first, PER_ADDRESS))
        # The first joins fill the first connection's rooms, the last ones open rooms.
        more = IN_ALL - PER_ADDRESS
        assert all(isinstance(a, m.Joined) for a in await joins(second, PER_ADDRESS + more))
        assert all(isinstance(a, m.Joined) for a in await joins(filler, more))
        assert len(srv.lobby.join_openers) == IN_ALL
        # Every room is full: a join from a fourth address would open one.
        third = await connect(port, "127.0.0.3")
        (refused,) = await joins(third, 1)
        assert isinstance(refused, m.ErrorPacket)
        assert refused.message.endswith(": 5 rooms opened by joins are open; join one of them "
                                        "or try again when one ends")
        nack = await queue_player(port, "127.0.0.3")
        assert isinstance(nack, Nack) and nack.reason == "too_many_rooms", nack
        # The refused connection is still served: it takes a reserved seat.
        _, seats = await srv.matches.create_match(
            BLOKUS, [SeatRequest(name="a"), SeatRequest(name="b")])
        await third.send(m.JoinPrepared(seats[0]["reservation"]))
        assert isinstance(await third.recv_until(m.Joined), m.Joined)
        for client in (first, second, filler, third):
            await client.close()


async def test_a_match_nobody_moved_in_ends_marked(tmp_path: Path) -> None:
    """Two unauthenticated joins that never move: the match ends by the hard clock and is
    stored finished, marked as opened by a join, with no move among its events: what the
    store's retention can look for."""
    async with served(tmp_path) as (srv, store):
        one, two = await connect(srv.tcp_port), await connect(srv.tcp_port)
        (joined,) = await joins(one, 1)
        await joins(two, 1)
        assert isinstance(await one.recv_until(m.Result), m.Result)
        room_id = joined.room_id

        def stored() -> tuple[Any, list[str]]:
            match = store.get_match(room_id)
            assert match is not None
            return match, [e.kind for e in store.events_since(room_id)]

        await until(lambda: store.get_match(room_id) is not None
                    and store.get_match(room_id).status == MatchStatus.FINISHED.value)  # type: ignore[union-attr]
        match, kinds = await asyncio.to_thread(stored)
        result = await asyncio.to_thread(store.get_result, room_id)
        # The result stands (the seat that never moved lost on time); no move was made:
        # the first state is the only one (every applied move logs one more).
        assert result is not None and result.winner == 1
        assert match.options.get("source") == "join" and kinds.count("state") == 1, kinds
        for client in (one, two):
            await client.close()
