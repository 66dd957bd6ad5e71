"""The SC server codec (``protocols.sc.ServerConnection``) fed arbitrary bytes in
arbitrary splits.

Input: byte 0 = how to split (see ``fuzz._bytes.split``), byte 1 odd = small limits (so
that size and depth refusals are reached with short inputs), the rest = the stream.
Allowed: client messages, ``StreamEnd``, ``ConnectionClosed``, ``NEED_DATA``, and
``ProtocolError`` (after which the connection refuses further use). The connection's
last-resort net (``invalid message content: ...``) counts as a finding: a decoder let an
unexpected exception through.
"""

from __future__ import annotations

import typing

from fuzz._bytes import split
from games.blokus import SetMove, SkipMove
from protocols.base import NEED_DATA, ConnectionClosed, Limits, ProtocolError, StreamEnd
from protocols.sc import messages as m
from protocols.sc.connection import ClientConnection, ServerConnection

SMALL_LIMITS = Limits(max_message_bytes=512, max_depth=4, max_buffered_bytes=1024)
CLIENT_TYPES = tuple(typing.get_args(m.ClientMessage))
MAX_EVENTS = 10_000


def _stream(*messages: m.ClientMessage, close: bool = True) -> bytes:
    client = ClientConnection()
    data = b"".join(client.send(message) for message in messages)
    return data + (client.close() if close else b"")


SEEDS: tuple[bytes, ...] = tuple(
    bytes([mode, small]) + stream
    for mode, small in ((0, 0), (1, 0), (7, 1))
    for stream in (
        _stream(m.Join("swc_2027_blokus"), m.Close()),
        _stream(m.JoinRoom("r-1"), m.RoomPacket("r-1", SetMove("BLUE", "PENTO_L", x=0, y=0))),
        _stream(m.RoomPacket("r", SetMove("RED", "MONO", rotation="LEFT", flipped=True, x=19,
                                          y=3)), m.RoomPacket("r", SkipMove("GREEN"))),
        _stream(m.Authenticate("pw"), m.Prepare(), m.Observe("r"), m.Pause("r", True),
                m.Step("r", True), m.Cancel("r"), m.JoinPrepared("code"), close=False),
        b'<?xml version="1.0"?><protocol><!-- c --><room roomId="r"><data class="x">'
        b"<![CDATA[a]]></data></room></protocol>",
    )
)


def one_input(data: bytes) -> None:
    mode = data[0] if data else 0
    limits = SMALL_LIMITS if len(data) > 1 and data[1] & 1 else Limits()
    connection = ServerConnection(limits)
    ended = False
    try:
        for chunk in [*split(data[2:], mode), b""]:
            connection.receive_data(chunk)
            for _ in range(MAX_EVENTS):
                event = connection.next_event()
                if event is NEED_DATA:
                    break
                if isinstance(event, ConnectionClosed):
                    assert not ended, "ConnectionClosed twice"
                    ended = True
                    continue
                assert isinstance(event, (StreamEnd, *CLIENT_TYPES)), repr(event)
            else:
                raise AssertionError("next_event never returned NEED_DATA")
    except ProtocolError as error:
        assert isinstance(error.reason, str) and error.reason, "an error without a reason"
        assert connection.errored, "ProtocolError without entering the error state"
        assert not error.reason.startswith("invalid message content"), error.reason
        try:
            connection.next_event()
        except ProtocolError:
            return
        raise AssertionError("a failed connection produced another event") from None
