"""A client that floods the server is told why in an errorpacket and disconnected; the
server and the other clients carry on."""

from __future__ import annotations

import pytest

from protocols.base import ConnectionClosed, StreamEnd
from protocols.sc import messages as m
from server.config import Limits, ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import ScClient, no_errors_logged  # noqa: F401

pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def test_flood_gets_an_errorpacket_then_the_connection_closes() -> None:
    limits = Limits(messages_per_second=5, message_burst=10)
    config = ServerConfig(tcp_port=0, admin_password="pw", no_timeout=True, limits=limits)
    async with GauntletServer(config) as server:
        flooder = await ScClient.connect(server.tcp_port)
        # 50 admin requests without authentication, in one write: each is refused with an
        # errorpacket until the burst is spent, then the rate limit speaks and hangs up.
        await flooder.send(*[m.Observe(f"room-{i}") for i in range(50)])
        packets = []
        while True:
            event = await flooder.recv()
            if isinstance(event, ConnectionClosed | StreamEnd | m.Close):
                break
            packets.append(event)
        assert all(isinstance(p, m.ErrorPacket) for p in packets)
        refused = [p for p in packets if "UnauthenticatedException" in p.message]
        assert len(refused) == 10
        assert packets[-1].message == (
            "sc.server.network.RateLimitException: More than 5 messages per second"
        )
        assert len(packets) == 11

        # The server still serves everyone else: a new room fills and its game starts.
        one = await ScClient.connect(server.tcp_port)
        two = await ScClient.connect(server.tcp_port)
        await one.send(m.Join())
        await one.recv_until(m.Joined)
        await two.send(m.Join())
        await two.recv_until(m.Joined)
        memento = await one.recv_until(m.Memento)
        assert memento.state.turn == 0
        await one.close()
        await two.close()
