"""Connection limits on real sockets: the login deadline (silent, half-spoken and
byte-at-a-time clients), connections per address (loopback included) and the server-wide
cap. A connection over a cap evicts the oldest one that joined nothing; a join is refused
only while connections that joined fill the cap, and never one with a valid reservation
(the bots the server launches). Each refusal is said in the client's own protocol (SC:
errorpacket, `<close/>`, `</protocol>`; Kettle: a nack), then the connection is closed;
joined players are never touched.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from bots.blokus.aio import play_async as play_blokus
from bots.blokus.bundled import RandomBot as BlokusBot
from bots.hearth import RandomBot
from bots.hearth.aio import play_async
from protocols.kettle import ClientConnection, Nack
from protocols.kettle.messages import GetGameState, QueuePlayer
from server.config import Limits, ServerConfig
from server.matches import SeatRequest
from server.net.slots import WAITING_RESERVE
from server.rooms import SlotRequest
from server.runtime import GauntletServer
from server.store import Store

SC_HELLO = b"<protocol>"
BLOKUS, HEARTH = "swc_2027_blokus", "hearth"
WAIT = 120.0  # upper bound of every wait; nothing asserts on elapsed time


def config(tmp_path: Path, **limits: object) -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password="pw", seed=1, data_dir=tmp_path,
                        limits=Limits(**limits))  # type: ignore[arg-type]


async def talk(port: int, payload: bytes = b"", pace: float = 0.0,
               wait: float = 10.0) -> tuple[bytes, float]:
    """Send `payload` (a byte every `pace` seconds when pace > 0) while reading until the
    server closes; everything it said and how long the connection lived."""
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = bytearray()

    async def send() -> None:
        if not pace:
            writer.write(payload)
            return
        for i in range(len(payload)):
            writer.write(payload[i : i + 1])
            await asyncio.sleep(pace)

    sending = asyncio.create_task(send())
    try:
        async with asyncio.timeout(wait):
            while chunk := await reader.read(65536):
                received += chunk
    except (ConnectionError, TimeoutError):
        pass
    finally:
        sending.cancel()
        writer.close()
    return bytes(received), time.monotonic() - start


def nacks(data: bytes) -> list[str]:
    client = ClientConnection()
    client.receive_data(data)
    return [e.reason for e in client.events() if isinstance(e, Nack)]


async def test_silent_clients_are_closed_after_the_login_deadline(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, login_timeout_seconds=0.5)) as srv:
        silent, lived = await talk(srv.tcp_port)
        assert silent == b"" and 0.4 < lived < 3.0
        sc, lived = await talk(srv.tcp_port, SC_HELLO)
        assert b"login_timeout" in sc and b"errorpacket" in sc, sc
        assert sc.rstrip().endswith(b"</protocol>") and lived < 3.0
        kettle = ClientConnection().send(QueuePlayer())[:6]  # a header and 2 body bytes
        answer, lived = await talk(srv.tcp_port, kettle)
        assert nacks(answer) == ["login_timeout"] and lived < 3.0


async def test_a_slowloris_is_closed_too(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, login_timeout_seconds=1.0)) as srv:
        # A byte every 0.1 s: frames keep arriving (never a whole one in time).
        frame = ClientConnection().send(GetGameState()) * 4
        answer, lived = await talk(srv.tcp_port, frame, pace=0.1)
        assert nacks(answer)[-1:] == ["login_timeout"] and lived < 3.0
        xml = SC_HELLO + b'<join gameType="' + b"x" * 200 + b'"/>'
        answer, lived = await talk(srv.tcp_port, xml, pace=0.05)
        assert b"login_timeout" in answer


async def test_joined_players_outlive_the_login_deadline(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, login_timeout_seconds=0.3)) as srv:
        async with asyncio.timeout(120):
            one, two = await asyncio.gather(
                play_async(RandomBot(1), "127.0.0.1", srv.tcp_port, idle_timeout=60),
                play_async(RandomBot(2), "127.0.0.1", srv.tcp_port, idle_timeout=60))
        assert one.winner is not None and one.winner == two.winner


async def hold(port: int, count: int) -> list[asyncio.StreamWriter]:
    """`count` SC connections that authenticated as admins (so they hold their slots).

    An admin request for a room that does not exist answers once the password was taken
    (without it the answer would be `UnauthenticatedException`).
    """
    writers = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(SC_HELLO + b'<authenticate password="pw"/><observe roomId="none"/>')
        answer = b""
        async with asyncio.timeout(WAIT):
            while b"</errorpacket>" not in answer:
                chunk = await reader.read(65536)
                assert chunk, answer
                answer += chunk
        assert b"GameRoomException: Couldn&apos;t find a room" in answer, answer
        writers.append(writer)
    return writers


async def until(condition: Callable[[], bool]) -> None:
    """Poll a server-side condition that has no event to await (bounded)."""
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)


def slots(srv: GauntletServer) -> tuple[int, int]:
    """The listener's connections: (all, joined)."""
    assert srv._listener is not None
    return srv._listener.slots.total, srv._listener.slots.settled_total


async def test_connections_per_address_are_capped_loopback_too(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, max_loopback_connections=3)) as srv:
        held = await hold(srv.tcp_port, 3)
        # The address's slots are all held by connections that joined: a join is refused.
        sc, _ = await talk(srv.tcp_port, SC_HELLO + b"<join/>")
        assert b"too_many_connections" in sc and sc.rstrip().endswith(b"</protocol>")
        kettle, _ = await talk(srv.tcp_port, ClientConnection().send(QueuePlayer()))
        assert nacks(kettle) == ["too_many_connections"]
        held.pop().close()
        await until(lambda: slots(srv) == (2, 2))
        # A slot is free again: this one is served.
        ok, _ = await talk(srv.tcp_port, SC_HELLO + b"<join/>", wait=0.5)
        assert b"<joined" in ok and b"too_many_connections" not in ok
        for writer in held:
            writer.close()


async def test_the_server_wide_cap_refuses_politely(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, max_connections=3)) as srv:
        held = await hold(srv.tcp_port, 3)
        sc, _ = await talk(srv.tcp_port, SC_HELLO + b"<join/>")
        assert b"server_full" in sc and b"<close/>" in sc
        kettle, _ = await talk(srv.tcp_port, ClientConnection().send(QueuePlayer()))
        assert nacks(kettle) == ["server_full"]
        for writer in held:
            writer.close()


async def read_all(reader: asyncio.StreamReader) -> bytes:
    """Everything the server says until it closes."""
    received = b""
    while chunk := await reader.read(65536):
        received += chunk
    return received


async def test_a_newcomer_evicts_the_oldest_connection_that_joined_nothing(
        tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, max_loopback_connections=4,
                                     login_timeout_seconds=WAIT)) as srv:
        held = await hold(srv.tcp_port, 1)
        # The oldest waiting connection spoke SC (it is told why, in SC), the others nothing;
        # as many wait as may whatever the cap.
        readers, writers = [], []
        for payload in (SC_HELLO, *[b""] * (WAITING_RESERVE - 1)):
            reader, writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
            writer.write(payload)
            readers.append(asyncio.create_task(read_all(reader)))
            writers.append(writer)
        await until(lambda: slots(srv) == (1 + WAITING_RESERVE, 1))
        # One more: the newcomer stays, the oldest waiting one goes.
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
        said = await asyncio.wait_for(readers[0], WAIT)
        assert b"too_many_connections" in said and said.rstrip().endswith(b"</protocol>")
        writer.write(SC_HELLO + b"<join/>")  # it joins: it holds its slot from now on
        assert b"<joined" in await reader.readuntil(b"/>")
        # The next two: the first waits in the reserve's free place, the second evicts the
        # oldest silent one, closed without a word (it spoke no protocol).
        _, late = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
        _, later = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
        assert await asyncio.wait_for(readers[1], WAIT) == b""
        assert not any(r.done() for r in readers[2:])
        assert slots(srv) == (2 + WAITING_RESERVE, 2)
        for w in [*held, *writers, writer, late, later]:
            w.close()


async def test_launched_bots_get_a_slot_whatever_silent_connections_hold(
        tmp_path: Path) -> None:
    """The attack of issue 24 point 7, scaled down: one local client holds more silent
    connections than both caps; every launched bot connects and plays anyway, a seated
    player keeps its seat, and the silent connections are the ones that go (oldest first).
    """
    cap, flood = 8, 40
    store = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}")
    # The server-wide cap is the one the old code applied to loopback (which it exempted
    # from the per-address one): the flood filled it and launched bots got `server_full`.
    limits = Limits(max_connections=1 + WAITING_RESERVE, max_loopback_connections=cap,
                    login_timeout_seconds=600.0)
    cfg = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "data",
                       limits=limits)
    try:
        async with GauntletServer(cfg, store=store) as srv:
            port = srv.tcp_port
            # A player seated (its opponent comes later): it talked and joined.
            waiting, codes = await srv.matches.create_match(
                BLOKUS, [SeatRequest(name="early"), SeatRequest(name="late")])
            early = asyncio.create_task(play_blokus(BlokusBot(1), "127.0.0.1", port,
                                                    codes[0]["reservation"]))
            await until(lambda: waiting.slots[0].player is not None)

            readers, writers = [], []
            for _ in range(flood):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                readers.append(asyncio.create_task(read_all(reader)))
                writers.append(writer)

            async def closed(count: int) -> None:
                """Wait until `count` silent connections were closed; they must be the
                oldest ones (eviction goes oldest first)."""
                async with asyncio.timeout(WAIT):
                    while sum(r.done() for r in readers) < count:
                        await asyncio.wait([r for r in readers if not r.done()],
                                           return_when=asyncio.FIRST_COMPLETED)
                assert [r.done() for r in readers] == [True] * count + [False] * (flood - count)

            # Over the loopback cap only the reserve of silent ones stays.
            await closed(flood - WAITING_RESERVE)
            assert slots(srv) == (1 + WAITING_RESERVE, 1)

            matches = [await srv.matches.create_match(
                BLOKUS, [SeatRequest(bot="random"), SeatRequest(bot="random")])
                for _ in range(2)]
            for room, _ in matches:
                await asyncio.wait_for(asyncio.shield(room.task), WAIT)  # type: ignore[arg-type]
                assert room.result is not None and room.result.regular, room.result
                seats = await asyncio.to_thread(store.seats, room.id)
                assert [s.failure for s in seats] == [None, None]
            # Bots that arrived with the reserve full took the slot of a silent connection
            # each (how many did depends on how many connected before the others joined):
            # the oldest went, the server counts the rest.
            await until(lambda: slots(srv)[1] == 1)  # the bots' connections are gone
            await until(lambda: sum(not r.done() for r in readers) == slots(srv)[0] - 1)
            await closed(sum(r.done() for r in readers))

            late = await play_blokus(BlokusBot(2), "127.0.0.1", port, codes[1]["reservation"])
            first = await asyncio.wait_for(early, WAIT)
            assert first.regular and late.regular and first.winner == late.winner
            for writer in writers:
                writer.close()
    finally:
        store.close()


async def test_a_kettle_reservation_is_never_refused_for_a_full_server(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, max_connections=2)) as srv:
        room, codes = srv.lobby.prepare(HEARTH, [SlotRequest(), SlotRequest()], False)
        held = await hold(srv.tcp_port, 2)  # the server is full of connections that joined
        refused, _ = await talk(srv.tcp_port, ClientConnection().send(QueuePlayer()))
        assert nacks(refused) == ["server_full"]
        async with asyncio.timeout(WAIT):
            one, two = await asyncio.gather(*(
                play_async(RandomBot(seat), "127.0.0.1", srv.tcp_port, (room.id, code),
                           idle_timeout=60) for seat, code in enumerate(codes)))
        assert one.winner is not None and one.winner == two.winner
        # A made-up reservation is none: refused like any other join.
        fake, _ = await talk(srv.tcp_port, SC_HELLO + b'<joinPrepared reservationCode="x"/>')
        assert b"server_full" in fake
        for writer in held:
            writer.close()
