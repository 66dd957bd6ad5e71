"""The Blokus replay-file importer (issue #29): an official replay document (as our own
exporter and the official server write it), plain or gzipped, starts a game at its first
memento with turn >= N; anything else is refused with a `PositionError` naming the
problem; the position record carries the moves that rebuild it."""

from __future__ import annotations

import gzip
import json
import random
from types import SimpleNamespace

import pytest

from games import blokus
from protocols.sc.blokus import state_key
from server.games.blokus.position import MAX_REPLAY_BYTES, replay_mementos, replay_position
from server.games.blokus.record import rebuild, record, record_text
from server.games.blokus.replay import stored_document, stored_packets
from server.games.registry import PositionError


def _played(seed: int) -> list[blokus.State]:
    rng = random.Random(seed)
    state = blokus.new_game(seed=seed)
    states = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(list(state.legal_moves())))
        states.append(state.clone())
    return states


def _events(states: list[blokus.State]) -> list[SimpleNamespace]:
    return [SimpleNamespace(seq=i, payload={"blokus": record(s, None)})
            for i, s in enumerate(states)]


def _document(states: list[blokus.State]) -> str:
    return stored_document("room-1", _events(states))


def _packets(packets: list[str]) -> str:
    return "<protocol>\n" + "".join(p + "\n" for p in packets) + "</protocol>"


def test_the_first_memento_at_or_after_the_turn() -> None:
    states = _played(4)
    document = _document(states)
    for turn in (0, 1, 17, states[-2].turn):
        game = replay_position(document.encode(), turn)
        wanted = next(s for s in states if s.turn >= turn)
        assert state_key(game.state) == state_key(wanted)
        assert game.state.moves() == wanted.moves()
    zipped = replay_position(gzip.compress(document.encode()), 17)
    assert state_key(zipped.state) == state_key(next(s for s in states if s.turn >= 17))
    assert len(replay_mementos(document.encode())) == len(states)


def test_a_position_record_rebuilds_the_position_from_nothing() -> None:
    state = _played(6)[30]
    found = json.loads(record_text(state, None, position=True))
    assert len(found["moves"]) == len(state.moves())
    assert state_key(rebuild(None, found)) == state_key(state)
    plain = json.loads(record_text(state, None))
    assert "moves" not in plain


@pytest.mark.parametrize(("data", "words"), [
    (b"not xml at all", "not a Software-Challenge replay"),
    (b"<protocol><room roomId='a'><data class='result'/></room></protocol>", "no memento"),
    (b"<html><body/></html>", "not a Software-Challenge replay"),
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><protocol/>',
     "not a Software-Challenge replay"),
    (b"<protocol>" + b"<a>" * 40 + b"</a>" * 40 + b"</protocol>",
     "not a Software-Challenge replay"),
    (b"\x1f\x8b\x08 broken gzip", "not a gzip file"),
    (gzip.compress(b" " * (MAX_REPLAY_BYTES + 10)), "larger than"),
])
def test_what_is_not_a_replay_is_refused(data: bytes, words: str) -> None:
    with pytest.raises(PositionError, match=words) as caught:
        replay_position(data, 0)
    assert caught.value.field == "from.replay"


def test_a_turn_past_the_end_and_a_broken_chain() -> None:
    states = _played(4)
    document = _document(states)
    with pytest.raises(PositionError, match="past the replay's end") as caught:
        replay_position(document.encode(), states[-1].turn + 1)
    assert caught.value.field == "from.turn"
    # A memento left out: the next one does not follow from the one before by its move.
    packets = list(stored_packets("room-1", _events(states)))
    gapped = _packets(packets[:5] + packets[7:])
    with pytest.raises(PositionError, match=r"does not follow|is not the state"):
        replay_position(gapped.encode(), 40)
    # A replay that starts mid-game: the moves before it are unknown.
    with pytest.raises(PositionError, match="does not start at turn 0"):
        replay_position(_packets(packets[10:]).encode(), 40)
