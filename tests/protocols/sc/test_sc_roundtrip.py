"""parse(write(x)) == x for every message type, with hypothesis-generated content."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.blokus import COLORS, ROTATIONS, SHAPES, TEAMS, SetMove, SkipMove, State, new_game
from protocols.base import NEED_DATA, StreamEnd
from protocols.sc import (
    Authenticate,
    Cancel,
    ClientConnection,
    Close,
    ErrorPacket,
    Join,
    Joined,
    JoinedGameRoom,
    JoinPrepared,
    JoinRoom,
    Left,
    Memento,
    MoveRequest,
    Observe,
    Observed,
    Pause,
    Paused,
    PlayerScore,
    Prepare,
    Prepared,
    Result,
    RoomError,
    RoomPacket,
    ScoreFragment,
    ServerConnection,
    Slot,
    Step,
    UnknownData,
    Welcome,
    Winner,
)
from protocols.sc.codec import ROOM_DATA_CLASSES
from protocols.sc.messages import ClientMessage, ServerMessage

# Any character XML 1.0 can carry (the writer replaces the others, see xmltree).
xml_char = st.characters(
    blacklist_categories=("Cs",),
    blacklist_characters=[chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"]
    + ["\ufffe", "\uffff"],
)
text = st.text(xml_char, max_size=30)
# Element text is trimmed on reading (tolerance for pretty-printed input), so generated
# text content has no surrounding blanks.
token = st.text(xml_char, min_size=1, max_size=20).map(str.strip).filter(bool)
names = st.one_of(st.just(""), token)

set_moves = st.builds(
    SetMove,
    st.sampled_from(COLORS),
    st.sampled_from(SHAPES),
    rotation=st.sampled_from(ROTATIONS),
    flipped=st.booleans(),
    x=st.integers(-(2**31), 2**31 - 1).filter(lambda v: abs(v) <= 1_000_000),
    y=st.integers(-1_000_000, 1_000_000),
)
moves = st.one_of(set_moves, st.builds(SkipMove, st.sampled_from(COLORS)))

client_messages: st.SearchStrategy[ClientMessage] = st.one_of(
    st.builds(Join, st.one_of(st.none(), text)),
    st.builds(JoinRoom, text),
    st.builds(JoinPrepared, text),
    st.builds(Authenticate, text),
    st.builds(
        Prepare,
        text,
        st.booleans(),
        st.lists(st.builds(Slot, text, st.booleans(), st.booleans()), max_size=4).map(tuple),
    ),
    st.builds(Observe, text),
    st.builds(Pause, text, st.booleans()),
    st.builds(Step, text, st.booleans()),
    st.builds(Cancel, text),
    st.just(Close()),
    st.builds(RoomPacket, text, moves),
    st.builds(RoomPacket, text, st.builds(UnknownData, st.sampled_from(sorted(ROOM_DATA_CLASSES)))),
)


def played_state(seed: int, plies: int) -> State:
    rng = random.Random(seed)
    state = new_game(seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        legal = list(state.legal_moves())
        # Now and then a pass, so SkipMove shows up as lastMove too.
        if state.undeployed(state.current_color) != SHAPES and rng.random() < 0.1:
            state.apply(SkipMove(state.current_color))
        else:
            state.apply(rng.choice(legal))
    return state


states = st.builds(played_state, st.integers(0, 2**32 - 1), st.integers(0, 120))

server_messages: st.SearchStrategy[ServerMessage] = st.one_of(
    st.builds(Joined, text),
    st.builds(Left, text),
    st.builds(JoinedGameRoom, text, st.integers(0, 2**31 - 1)),
    st.builds(Observed, text),
    st.builds(Prepared, text, st.lists(token, max_size=4).map(tuple)),
    st.builds(ErrorPacket, text, st.one_of(st.none(), client_messages)),
    st.builds(Welcome, text, st.sampled_from(TEAMS)),
    st.builds(MoveRequest, text),
    st.builds(RoomError, text, text, st.one_of(st.none(), moves)),
    st.builds(
        Result,
        text,
        st.lists(
            st.builds(
                PlayerScore,
                st.sampled_from(TEAMS),
                st.lists(st.integers(-(2**31), 2**31 - 1), max_size=3).map(tuple),
                names,
            ),
            max_size=3,
        ).map(tuple),
        st.one_of(
            st.none(),
            st.builds(Winner, text, st.booleans(), st.one_of(st.none(), st.sampled_from(TEAMS))),
        ),
        st.lists(st.builds(ScoreFragment, text, token, st.booleans()), min_size=0, max_size=3).map(
            tuple
        ),
    ),
    st.builds(Paused, text, st.booleans()),
    st.just(Close()),
)


def one_event(connection: ServerConnection | ClientConnection, data: bytes) -> object:
    connection.receive_data(data)
    event = connection.next_event()
    assert connection.next_event() is NEED_DATA
    return event


@settings(max_examples=300, deadline=None)
@given(client_messages)
def test_client_messages_round_trip(message: ClientMessage) -> None:
    assert one_event(ServerConnection(), ClientConnection().send(message)) == message


@settings(max_examples=300, deadline=None)
@given(server_messages)
def test_server_messages_round_trip(message: ServerMessage) -> None:
    assert one_event(ClientConnection(), ServerConnection().send(message)) == message


@settings(max_examples=20, deadline=None)
@given(states, text)
def test_mementos_round_trip_into_equal_engine_states(state: State, room_id: str) -> None:
    event = one_event(ClientConnection(), ServerConnection().send(Memento(room_id, state)))
    assert isinstance(event, Memento)
    assert event == Memento(room_id, state)
    # The engine's own equality agrees, and the parsed state plays on identically.
    assert event.state == state
    assert event.state.current_color == state.current_color
    assert set(event.state.legal_moves()) == set(state.legal_moves())


def test_a_whole_random_game_of_mementos_round_trips() -> None:
    rng = random.Random(2027)
    state = new_game(seed=2027)
    server, client = ServerConnection(), ClientConnection()
    count = 0
    while not state.is_over:
        client.receive_data(server.send(Memento("r", state)))
        parsed = client.next_event()
        assert isinstance(parsed, Memento)
        assert parsed.state == state
        state.apply(rng.choice(list(state.legal_moves())))
        count += 1
    assert count > 40


def split_events(
    connection: ServerConnection | ClientConnection, data: bytes, cuts: list[int]
) -> list[object]:
    points = sorted({cut % (len(data) + 1) for cut in cuts})
    events: list[object] = []
    for start, end in zip([0, *points], [*points, len(data)], strict=True):
        if start == end:
            continue
        connection.receive_data(data[start:end])
        while (event := connection.next_event()) is not NEED_DATA:
            events.append(event)
    return events


@settings(max_examples=100, deadline=None)
@given(st.lists(client_messages, max_size=8), st.lists(st.integers(0, 10**6), max_size=12))
def test_client_streams_split_anywhere_give_the_messages(
    messages: list[ClientMessage], cuts: list[int]
) -> None:
    messages = [message for message in messages if message != Close()] + [Close()]
    client = ClientConnection()
    data = b"".join(client.send(message) for message in messages) + client.close()
    assert split_events(ServerConnection(), data, cuts) == [*messages, StreamEnd()]


@settings(max_examples=100, deadline=None)
@given(st.lists(server_messages, max_size=8), st.lists(st.integers(0, 10**6), max_size=12))
def test_server_streams_split_anywhere_give_the_messages(
    messages: list[ServerMessage], cuts: list[int]
) -> None:
    messages = [message for message in messages if message != Close()] + [Close()]
    server = ServerConnection()
    data = b"".join(server.send(message) for message in messages) + server.close()
    assert split_events(ClientConnection(), data, cuts) == [*messages, StreamEnd()]
