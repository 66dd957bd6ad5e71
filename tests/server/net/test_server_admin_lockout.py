"""Guessing the SC admin password: an address that failed five times is locked out.

Over real sockets: the guesser reconnects between guesses (the lockout is per address, not
per connection), is then refused even with the right password, and another address
(127.0.0.2, loopback too) logs in meanwhile. The lockout's expiry is in the doctest of
`server.net.lockout`, with a clock that does not need waiting for.
"""

from __future__ import annotations

import asyncio

from protocols.sc import messages as m
from protocols.sc import texts
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import WAIT, ScClient

PASSWORD = "lockout-test"


async def connect(port: int, source: str) -> ScClient:
    async with asyncio.timeout(WAIT):
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
    return ScClient(reader, writer)


async def login(port: int, source: str, password: str) -> str | None:
    """The errorpacket's message, or None when the login worked (it has no reply: a
    prepare answered with `prepared` shows it)."""
    client = await connect(port, source)
    try:
        await client.send(m.Authenticate(password), m.Prepare())
        reply = await client.recv()
        while not isinstance(reply, m.ErrorPacket | m.Prepared):
            reply = await client.recv()
        if isinstance(reply, m.Prepared):
            return None
        message: str = reply.message
        if message.startswith(texts.authentication_failed()):
            await client.recv_until(m.ErrorPacket)  # the prepare's own refusal
        return message
    finally:
        client.writer.close()


async def test_five_wrong_passwords_lock_the_address_out_of_the_right_one() -> None:
    async with GauntletServer(ServerConfig(tcp_port=0, admin_password=PASSWORD)) as srv:
        port = srv.tcp_port
        admin = await connect(port, "127.0.0.1")  # logged in before the guessing
        await admin.send(m.Authenticate(PASSWORD), m.Prepare())
        await admin.recv_until(m.Prepared)
        for guess in range(5):
            assert await login(port, "127.0.0.1", f"guess-{guess}") == \
                texts.authentication_failed()
        refused = await login(port, "127.0.0.1", PASSWORD)
        assert refused is not None and refused.startswith(texts.authentication_failed())
        assert "5 wrong passwords from this address, locked out for 300 s" in refused
        # Another address is not locked, and its admin works.
        assert await login(port, "127.0.0.2", PASSWORD) is None
        # Only logins are refused: a session that was admin before stays admin.
        await admin.send(m.Prepare())
        await admin.recv_until(m.Prepared)
        admin.writer.close()


async def test_a_right_password_forgives_the_earlier_failures() -> None:
    async with GauntletServer(ServerConfig(tcp_port=0, admin_password=PASSWORD)) as srv:
        port = srv.tcp_port
        for _ in range(3):
            for guess in range(4):
                assert await login(port, "127.0.0.1", f"typo-{guess}") == \
                    texts.authentication_failed()
            assert await login(port, "127.0.0.1", PASSWORD) is None
