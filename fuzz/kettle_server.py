"""The Kettle server codec (``protocols.kettle.ServerConnection``) fed arbitrary bytes in
arbitrary splits, driven the way ``server.games.hearth.kettle`` drives it.

Input: byte 0 = how to split, byte 1 odd = small limits, the rest = the stream. Allowed:
client messages, ``Refused`` (with a codec reason; closing ones fail the connection),
``ConnectionClosed`` once, ``NEED_DATA``. Every ``Refused``'s nack must be sendable (the
session writes it before closing), and the codec's last-resort net
(``invalid message: ...``) counts as a finding.
"""

from __future__ import annotations

import json
import typing

from fuzz._bytes import split
from protocols.base import NEED_DATA, ConnectionClosed, Limits, ProtocolError
from protocols.kettle import messages as k
from protocols.kettle.connection import ClientConnection, Refused, ServerConnection
from protocols.kettle.reasons import CLOSING, CODEC_REASONS

SMALL_LIMITS = Limits(max_message_bytes=256, max_depth=4, max_buffered_bytes=512)
CLIENT_TYPES = tuple(typing.get_args(k.ClientMessage))
MAX_EVENTS = 10_000


def _frame(value: object) -> bytes:
    body = json.dumps(value).encode()
    return len(body).to_bytes(4, "big") + body


_client = ClientConnection()
SEEDS: tuple[bytes, ...] = tuple(
    bytes([mode, small]) + stream
    for mode, small in ((0, 0), (1, 0), (5, 1))
    for stream in (
        _client.send(k.QueuePlayer(account_name="bot")) + _client.send(k.GetGameState()),
        _client.send(k.JoinGame("g1", "pw")) + _client.send(k.Concede()),
        _client.send(k.ChooseOption(3, 1, target=5, position=2)),
        _client.send(k.ChooseEntities(7, (4, 5))),
        _client.send_batch([k.GetGameState(), k.Concede()]),
        _frame({"type": "kettle:types/choose_option", "choose_option": {"optionsID": -1}}),
        _frame([[[[{}]]]]) + _frame({"type": 1}),
        b"\x00\x00\x00\x05[1,2]",
    )
)


def one_input(data: bytes) -> None:
    mode = data[0] if data else 0
    limits = SMALL_LIMITS if len(data) > 1 and data[1] & 1 else None
    connection = ServerConnection(limits)
    closed = False
    for chunk in [*split(data[2:], mode), b""]:
        connection.receive_data(chunk)
        for _ in range(MAX_EVENTS):
            event = connection.next_event()
            if event is NEED_DATA:
                break
            if isinstance(event, ConnectionClosed):
                assert not closed, "ConnectionClosed twice"
                closed = True
                continue
            if isinstance(event, Refused):
                nack = event.nack
                assert nack.reason in CODEC_REASONS, nack.reason
                assert event.close == (nack.reason in CLOSING), event
                assert not nack.message.startswith("invalid message:"), nack.message
                connection.send(nack)  # must encode: the session writes it
                if event.close:
                    assert connection.errored
                    try:
                        connection.next_event()
                    except ProtocolError:
                        return
                    raise AssertionError("a failed connection produced another event")
                continue
            assert isinstance(event, CLIENT_TYPES), repr(event)
        else:
            raise AssertionError("next_event never returned NEED_DATA")
