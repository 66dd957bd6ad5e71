"""The Blokus move decoders: the lxml-free fast path (``decode_standard_move``) against the
full path (``parse_message`` + ``decode_client``), on arbitrary bytes.

Input: byte 0 odd = fill the standard SetMove template with ``|``-separated fuzzer fields
(room id, colour, kind, rotation, isFlipped, x, y), else the bytes are the message.
Allowed: the full path returns a message or raises ``ProtocolError``; the fast path
returns None or a ``RoomPacket``, and then the full path must decode the same message.
"""

from __future__ import annotations

from protocols.base import ProtocolError
from protocols.sc import messages as m
from protocols.sc.codec import decode_client, decode_standard_move
from protocols.sc.xmltree import parse_message

TEMPLATE = (
    b'<room roomId="%s">\n    <data class="sc.plugin2027.SetMove">\n      <piece color="%s" '
    b'kind="%s" rotation="%s" isFlipped="%s">\n        <position x="%s" y="%s"/>\n      '
    b"</piece>\n    </data>\n  </room>"
)
DEFAULTS = (b"r", b"BLUE", b"PENTO_L", b"NONE", b"false", b"0", b"0")

SEEDS: tuple[bytes, ...] = (
    b"\x01r|RED|MONO|LEFT|true|19|3",
    b"\x01a.b:c-d_0|GREEN|PENTO_Y|MIRROR|false|0|0",
    b"\x00" + TEMPLATE % DEFAULTS,
    b'\x00<room roomId="r"><data class="sc.plugin2027.SkipMove"><color>RED</color></data></room>',
    b'\x00<room roomId="r"><data class="sc.plugin2027.SetMove"><piece color="RED" kind="MONO">'
    b'<position x="1" y="2"/></piece></data></room>',
)


def message_bytes(data: bytes) -> bytes:
    if not data or not data[0] & 1:
        return data[1:]
    fields = data[1:].split(b"|")
    fields += list(DEFAULTS[len(fields) :])
    return TEMPLATE % tuple(fields[:7])


def one_input(data: bytes) -> None:
    message = message_bytes(data)
    fast = decode_standard_move(message)
    assert fast is None or isinstance(fast, m.RoomPacket), repr(fast)
    try:
        full = decode_client(parse_message(message))
    except ProtocolError as error:
        assert error.reason
        assert fast is None, f"fast path accepted what the full path refuses: {fast!r}"
        return
    if fast is not None:
        assert fast == full, (fast, full)
