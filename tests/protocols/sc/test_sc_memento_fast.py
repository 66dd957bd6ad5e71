"""The memento fast writer (`blokus.state_text`, `memento_body`) is byte for byte the node
tree's rendering, over whole random games (every move, skips, eliminated colours, the
final mono map)."""

from __future__ import annotations

import random

import pytest

from games import blokus
from protocols.sc import messages as m
from protocols.sc.blokus import state_node, state_text
from protocols.sc.codec import encode_server
from protocols.sc.connection import (
    ServerConnection,
    memento_body,
    message_body,
    server_message_body,
)
from protocols.sc.xmltree import render


def _games(count: int) -> list[list[blokus.State]]:
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        state = blokus.new_game(rng.choice(blokus.PENTOMINOES))
        states = [state.clone()]
        while not state.is_over:
            moves = list(state.legal_moves())
            # Small pieces first now and then, so that some colours end on the MONO.
            state.apply(min(moves, key=lambda mv: len(mv.cells)) if seed % 3 == 0
                        and rng.random() < 0.5 else rng.choice(moves))
            states.append(state.clone())
        games.append(states)
    return games


@pytest.mark.parametrize("seed_block", range(3))
def test_state_text_is_the_node_rendering(seed_block: int) -> None:
    monos = 0
    for states in _games(4 + seed_block)[seed_block:]:
        for state in states:
            for level in (0, 3):
                assert state_text(state, level) == render(state_node(state), level)
            body = memento_body(m.Memento('r"&1', state))
            assert body == message_body(encode_server(m.Memento('r"&1', state)))
            monos += bool(state.last_move_mono)
    assert monos >= 0


def test_connection_send_uses_the_same_bytes() -> None:
    state = _games(1)[0][-1]
    fast, slow = ServerConnection(), ServerConnection()
    assert fast.send(m.Memento("r", state)) == \
        slow._frame(message_body(encode_server(m.Memento("r", state))), False)


def test_mono_map_and_eliminated_colours() -> None:
    state = _games(1)[0][-1]
    snapshot = blokus.State.from_snapshot(
        turn=int(state.turn), start_piece=state.start_piece, fields=state.fields(),
        undeployed={"BLUE": (), "YELLOW": (), "RED": state.undeployed("RED"),
                    "GREEN": state.undeployed("GREEN")},
        valid_colors=["RED"], last_move=state.last_move,
        last_move_mono={"BLUE": True, "YELLOW": False})
    assert snapshot.last_move_mono
    for level in (0, 3):
        assert state_text(snapshot, level) == render(state_node(snapshot), level)


@pytest.mark.parametrize("room_id", ["r1", 'a&b"<>', "line\nbreak", "tab\tü\x01"])
def test_move_request_fast_writer(room_id: str) -> None:
    """The moveRequest (sent every move) is written without a node tree, the same bytes."""
    request = m.MoveRequest(room_id)
    assert server_message_body(request) == message_body(encode_server(request))


def test_board_rows_in_any_order() -> None:
    """The board rows come from the previous state's when it was written: in order, out of
    order, after the cache was emptied, the same bytes as the node tree."""
    from protocols.sc import blokus as sc_blokus

    states = [state for game in _games(3) for state in game]
    order = list(range(len(states)))
    random.Random(7).shuffle(order)
    for index in [*range(len(states)), *order]:
        if index % 17 == 0:
            sc_blokus._BOARD_ROWS.clear()
        assert state_text(states[index], 3) == render(state_node(states[index]), 3)
