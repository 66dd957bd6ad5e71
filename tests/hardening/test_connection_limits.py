"""Connection limits on real sockets: the login deadline (silent, half-spoken and
byte-at-a-time clients), connections per address and the server-wide cap. Each refusal
is said in the client's own protocol (SC: errorpacket, `<close/>`, `</protocol>`;
Kettle: a nack), then the connection is closed; joined players are never touched.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bots.hearth import RandomBot
from bots.hearth.aio import play_async
from protocols.kettle import ClientConnection, Nack
from protocols.kettle.messages import GetGameState, QueuePlayer
from server.config import Limits, ServerConfig
from server.runtime import GauntletServer

SC_HELLO = b"<protocol>"


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
    """`count` SC connections that authenticated as admins (so no deadline applies)."""
    writers = []
    for _ in range(count):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(SC_HELLO + b'<authenticate password="pw"/>')
        writers.append(writer)
    await asyncio.sleep(0.3)
    return writers


async def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, max_connections_per_address=3,
                                            cap_loopback=True)) as srv:
        held = await hold(srv.tcp_port, 3)
        sc, _ = await talk(srv.tcp_port, SC_HELLO)
        assert b"too_many_connections" in sc and sc.rstrip().endswith(b"</protocol>")
        kettle, _ = await talk(srv.tcp_port, ClientConnection().send(QueuePlayer()))
        assert nacks(kettle) == ["too_many_connections"]
        held.pop().close()
        await asyncio.sleep(0.3)
        # A slot is free again: this one is served (and only times out if it stays idle).
        ok, _ = await talk(srv.tcp_port, SC_HELLO + b'<authenticate password="pw"/>',
                           wait=0.5)
        assert b"too_many_connections" not in ok
        for writer in held:
            writer.close()


async def test_the_server_wide_cap_refuses_politely(tmp_path: Path) -> None:
    async with GauntletServer(config(tmp_path, max_connections=3)) as srv:
        held = await hold(srv.tcp_port, 3)
        sc, _ = await talk(srv.tcp_port, SC_HELLO)
        assert b"server_full" in sc and b"<close/>" in sc
        kettle, _ = await talk(srv.tcp_port, ClientConnection().send(QueuePlayer()))
        assert nacks(kettle) == ["server_full"]
        for writer in held:
            writer.close()
