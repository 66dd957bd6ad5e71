"""A client decodes a memento as the previous state plus its lastMove when the bytes
match exactly; the states it hands out are those a full parse gives."""

from __future__ import annotations

import random

from games import blokus
from protocols.base import NEED_DATA
from protocols.sc import messages as m
from protocols.sc.blokus import state_key
from protocols.sc.codec import decode_server
from protocols.sc.connection import ClientConnection, ServerConnection
from protocols.sc.xmltree import parse_message


def _stream(seed: int) -> bytes:
    rng = random.Random(seed)
    server = ServerConnection()
    state = blokus.new_game(rng.choice(blokus.PENTOMINOES))
    out = [server.send(m.Joined("r-1")), server.send(m.Memento("r-1", state.clone()))]
    while not state.is_over:
        state.apply(rng.choice(list(state.legal_moves())))
        out.append(server.send(m.Memento("r-1", state.clone())))
        out.append(server.send(m.MoveRequest("r-1")))
    return b"".join(out)


def test_fast_mementos_equal_full_parses() -> None:
    for seed in range(3):
        data = _stream(seed)
        client = ClientConnection()
        fast_hits = 0
        original = client._decode
        full_calls = []

        def counting(element, original=original, calls=full_calls):  # type: ignore[no-untyped-def]
            calls.append(element.tag)
            return original(element)

        client._decode = counting  # type: ignore[method-assign]
        # Odd chunk sizes: the splitter still cuts exact messages.
        position = 0
        rng = random.Random(seed)
        got = []
        while position < len(data):
            step = rng.randint(1, 9000)
            client.receive_data(data[position:position + step])
            position += step
            while (event := client.next_event()) is not NEED_DATA:
                got.append(event)
        mementos = [e for e in got if isinstance(e, m.Memento)]
        fast_hits = len(mementos) - full_calls.count("room") + sum(
            isinstance(e, m.MoveRequest) for e in got)
        assert fast_hits >= len(mementos) - 1
        # Each matches a full parse of the same bytes.
        reference = ClientConnection()
        reference.receive_data(data)
        expected = []
        while (event := reference.next_event()) is not NEED_DATA:
            expected.append(event)
        assert [type(e) for e in got] == [type(e) for e in expected]
        for a, b in zip(got, expected, strict=True):
            if isinstance(a, m.Memento):
                assert state_key(a.state) == state_key(b.state)


def test_a_changed_state_is_parsed_in_full() -> None:
    rng = random.Random(5)
    server = ServerConnection()
    state = blokus.new_game("PENTO_L")
    client = ClientConnection()
    client.receive_data(server.send(m.Memento("r", state.clone())))
    assert isinstance(client.next_event(), m.Memento)
    state.apply(rng.choice(list(state.legal_moves())))
    body = server.send(m.Memento("r", state.clone()))
    # Same lastMove, but one more field on the board than the move explains.
    extra = b'<board>\n          <field x="19" y="19" content="RED"/>'
    tampered = body.replace(b"<board>", extra, 1)
    client.receive_data(tampered)
    event = client.next_event()
    assert isinstance(event, m.Memento)
    assert event.state.color_at(19, 19) == "RED"
    assert decode_server(parse_message(tampered.strip())).state.color_at(19, 19) == "RED"
