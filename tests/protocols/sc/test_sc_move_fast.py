"""The standard SetMove fast path decodes exactly what lxml decodes, and steps aside
(None) for anything it does not know for sure."""

from __future__ import annotations

import random

from games import blokus
from protocols.base import ProtocolError
from protocols.sc import messages as m
from protocols.sc.codec import decode_client, decode_standard_move
from protocols.sc.connection import ClientConnection, client_message_body
from protocols.sc.xmltree import parse_message


def _full(data: bytes) -> object:
    try:
        return decode_client(parse_message(data))
    except ProtocolError:
        return ProtocolError


def _moves(count: int) -> list[blokus.SetMove]:
    rng = random.Random(7)
    state = blokus.new_game("PENTO_L")
    found: list[blokus.SetMove] = []
    while len(found) < count and not state.is_over:
        moves = list(state.legal_moves())
        found.extend(mv for mv in rng.sample(moves, min(20, len(moves)))
                     if isinstance(mv, blokus.SetMove))
        state.apply(rng.choice(moves))
    return found[:count]


def test_standard_moves_decode_as_lxml_does() -> None:
    for move in _moves(300):
        body = client_message_body(m.RoomPacket("9f1c-ab_2.x:y", move)).strip()
        fast = decode_standard_move(body)
        assert fast is not None
        assert fast == _full(body)
        compact = body.replace(b"\n", b"").replace(b"  ", b"")
        assert decode_standard_move(compact) == _full(compact)


def test_variants_fall_back_or_agree() -> None:
    base = (b'<room roomId="r"><data class="sc.plugin2027.SetMove"><piece color="RED" '
            b'kind="MONO" rotation="NONE" isFlipped="false"><position x="3" y="0"/></piece>'
            b"</data></room>")
    variants = [
        base,
        base.replace(b'roomId="r"', b'roomId="r&amp;"'),
        base.replace(b'roomId="r"', b'roomId="r\tq"'),
        base.replace(b'"RED"', b'"PINK"'),
        base.replace(b'"MONO"', b'"MONO "'),
        base.replace(b'x="3"', b'x="03"'),
        base.replace(b'x="3"', b'x="99"'),
        base.replace(b'x="3"', b'x="-1"'),
        base.replace(b"false", b"maybe"),
        base.replace(b"</data>", b"</data><data/>"),
        base.replace(b"<position", b"\x0c<position"),
        base.replace(b'rotation="NONE" ', b""),
        base.replace(b"</room>", b""),
    ]
    for data in variants:
        fast = decode_standard_move(data)
        if fast is not None:
            assert fast == _full(data), data


def test_server_connection_takes_the_fast_path() -> None:
    from protocols.sc.connection import ServerConnection

    client, server = ClientConnection(), ServerConnection()
    server.receive_data(client.send(m.Join()))
    assert isinstance(server.next_event(), m.Join)
    move = _moves(1)[0]
    server.receive_data(client.send(m.RoomPacket("r", move)))
    assert server.next_event() == m.RoomPacket("r", move)


def test_skip_moves_decode_as_lxml_does() -> None:
    for color in blokus.COLORS:
        body = client_message_body(m.RoomPacket("9f1c-ab_2.x:y", blokus.SkipMove(color))).strip()
        fast = decode_standard_move(body)
        assert fast == m.RoomPacket("9f1c-ab_2.x:y", blokus.SkipMove(color))
        assert fast == _full(body)
        compact = body.replace(b"\n", b"").replace(b"  ", b"")
        assert decode_standard_move(compact) == _full(compact)
    base = (b'<room roomId="r"><data class="sc.plugin2027.SkipMove"><color>RED</color>'
            b"</data></room>")
    for data in [base.replace(b"RED", b"PINK"), base.replace(b"<color>RED", b"<color> RED"),
                 base.replace(b"</color>", b"</color><color>BLUE</color>"),
                 base.replace(b"SkipMove", b"SkipMoves"), base.replace(b"</room>", b"")]:
        fast = decode_standard_move(data)
        if fast is not None:
            assert fast == _full(data), data


def test_moves_taken_off_the_buffer_in_any_chunks() -> None:
    """The server takes a standard move off the front of its buffer whole; split reads,
    comments between messages and non-standard moves still go through the splitter: the
    same events however the stream is cut."""
    from protocols.base import NEED_DATA
    from protocols.sc.connection import ServerConnection

    moves = _moves(12)
    bodies = [client_message_body(m.Join())]
    expected: list[object] = [m.Join()]
    for index, move in enumerate(moves):
        packet = m.RoomPacket("room-1", move if index % 4 else blokus.SkipMove(move.color))
        body = client_message_body(packet)
        if index % 5 == 2:
            body = b"<!-- a bot's comment -->" + body
        if index % 6 == 3:  # not the standard form: an attribute more
            body = body.replace(b"<data ", b'<data note="x" ')
            packet = _full(body.strip().split(b"-->")[-1])  # type: ignore[assignment]
        bodies.append(body)
        expected.append(packet)
    stream = b"<protocol>" + b"".join(bodies)
    for seed in range(20):
        rng = random.Random(seed)
        server = ServerConnection()
        events: list[object] = []
        position = 0
        while position < len(stream):
            size = rng.choice([1, 3, 17, 64, 500, len(stream)])
            server.receive_data(stream[position:position + size])
            position += size
            while (event := server.next_event()) is not NEED_DATA:
                events.append(event)
        assert events == expected, seed
