"""Blokus matches that start from a position (issue #29): a stored match's position before
a decision, or an official Software-Challenge replay file's at a turn.

Either way the position is rebuilt by playing its moves from the start on the engine, so
the room's state knows every move before it (`games.blokus.State.moves`): the new match's
first stored record carries them (`record.record_text(position=True)`), and its replay and
spectator frames begin at the position.

A replay file is untrusted input: it is cut into messages by the SC codec's own splitter
(size and nesting caps per message, no DOCTYPE, no entities), each parsed by its hardened
lxml parser, gzip inflated up to a cap; each memento must follow from the one before by its
`lastMove`, else the file is refused.
"""

from __future__ import annotations

import zlib
from typing import Any

from games import blokus
from protocols.base import Limits, ProtocolError
from protocols.sc.blokus import state_from_element, state_key
from protocols.sc.stream import END_OF_STREAM, MessageSplitter
from protocols.sc.xmltree import parse_message
from server.games.blokus.record import KEY, BadRecord, rebuild
from server.games.blokus.room import BlokusGame
from server.games.registry import PositionError, StoredPosition

MAX_REPLAY_BYTES = 64 * 1024 * 1024
"""A replay file's size once inflated (a whole official match is about 1 MB)."""
_LIMITS = Limits(max_message_bytes=512 * 1024, max_depth=16,
                 max_buffered_bytes=MAX_REPLAY_BYTES + 1)
_GZIP = b"\x1f\x8b"


def stored_position(stored: StoredPosition) -> BlokusGame:
    """The room game at a stored match's position: its stored records (moves) replayed."""
    if stored.rng != "same":
        raise PositionError("Blokus has no randomness after its start: rng must be 'same'",
                            "from.rng")
    state: blokus.State | None = None
    for event in stored.events:
        payload = event.payload if isinstance(event.payload, dict) else {}
        if KEY in payload:
            try:
                state = rebuild(state, payload[KEY])
            except BadRecord as exc:
                raise PositionError(f"the stored match does not rebuild at event {event.seq}: "
                                    f"{exc}") from None
    if state is None:
        raise PositionError("the stored match has no state before that decision")
    return _playable(state)


def replay_position(data: bytes, turn: int) -> BlokusGame:
    """The room game at the first memento with turn >= `turn` of an official replay file
    (`.xml` or `.xml.gz` bytes), as the official server's `--loadGameFile --turn`."""
    mementos = replay_mementos(data)
    chosen = next((i for i, s in enumerate(mementos) if s.turn >= turn), None)
    if chosen is None:
        raise PositionError(f"turn {turn} is past the replay's end (its last memento is turn "
                            f"{mementos[-1].turn})")
    first = mementos[0]
    if first.turn != 0 or first.last_move is not None:
        raise PositionError(f"the replay does not start at turn 0 (its first memento is turn "
                            f"{first.turn}): the moves before it are unknown", "from.replay")
    state = blokus.new_game(first.start_piece)
    if state_key(state) != state_key(first):
        raise PositionError("the replay's first memento is not a game's start", "from.replay")
    for memento in mementos[1:chosen + 1]:
        if state_key(memento) == state_key(state):
            continue  # the same state sent again
        move = memento.last_move
        try:
            if move is None:
                raise ValueError("it has no lastMove")
            state.apply(move)
        except (blokus.IllegalMove, ValueError) as exc:
            raise PositionError(f"the replay's memento at turn {memento.turn} does not follow "
                                f"from the one before: {exc}", "from.replay") from None
        if state_key(memento) != state_key(state):
            raise PositionError(f"the replay's memento at turn {memento.turn} is not the state "
                                "its lastMove makes", "from.replay")
    return _playable(state)


def replay_mementos(data: bytes) -> list[blokus.State]:
    """Every memento's state of a replay file, in order; `PositionError` when it is not one."""
    if data[:2] == _GZIP:
        data = _inflated(data)
    if len(data) > MAX_REPLAY_BYTES:
        raise PositionError(f"the replay is larger than {MAX_REPLAY_BYTES} bytes",
                            "from.replay")
    splitter = MessageSplitter(_LIMITS)
    buffer = bytearray(data)
    states: list[blokus.State] = []
    try:
        while (message := splitter.next(buffer)) not in (None, END_OF_STREAM):
            assert message is not None
            state = _memento_state(parse_message(message))
            if state is not None:
                states.append(state)
    except ProtocolError as exc:  # LimitExceeded is one
        raise PositionError(f"not a Software-Challenge replay: {exc}", "from.replay") from None
    if splitter.root not in (None, "protocol"):
        raise PositionError(f"not a Software-Challenge replay: its root is "
                            f"<{splitter.root[:40]}>, not <protocol>", "from.replay")
    if not states:
        raise PositionError("not a Software-Challenge replay: it holds no memento",
                            "from.replay")
    return states


def _memento_state(element: Any) -> blokus.State | None:
    """A `<room>` packet's memento state; None for the replay's other packets (errors,
    the result)."""
    if element.tag != "room":
        raise ProtocolError(f"a replay holds <room> packets, not <{str(element.tag)[:40]}>")
    data = element.find("data")
    if data is None or data.get("class") != "memento":
        return None
    kids = [k for k in data if isinstance(k.tag, str)]
    if len(kids) != 1 or kids[0].tag != "state":
        raise ProtocolError('<data class="memento"> must contain one <state>')
    return state_from_element(kids[0])


def _inflated(data: bytes) -> bytes:
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip framing
    try:
        out = inflate.decompress(data, MAX_REPLAY_BYTES + 1)
    except zlib.error as exc:
        raise PositionError(f"not a gzip file: {exc}", "from.replay") from None
    if len(out) > MAX_REPLAY_BYTES:
        raise PositionError(f"the replay is larger than {MAX_REPLAY_BYTES} bytes inflated",
                            "from.replay")
    return out


def _playable(state: blokus.State) -> BlokusGame:
    if state.is_over:
        raise PositionError("the game is over at that position: nothing is left to play")
    return BlokusGame.at(state)
