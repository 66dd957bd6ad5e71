"""The kit's sans-I/O session fed with bytes made by the server-side codec."""

from __future__ import annotations

import pytest

from bots.blokus import (
    Bot,
    BotFailed,
    BotSession,
    GreedyBot,
    Outcome,
    RandomBot,
    ServerClosed,
    ServerProtocolError,
    ServerRefused,
)
from bots.blokus.kit import violation_cause
from games import blokus
from protocols.base import NEED_DATA
from protocols.sc import ClientConnection, ServerConnection, texts
from protocols.sc import messages as m

ROOM = "room-1"


def result(winner: str | None, points: tuple[int, int], *, regular: bool = True,
           reason: str = "", names: tuple[str, str] = ("", "")) -> m.Result:
    win = {None: (1, 1), "ONE": (2, 0), "TWO": (0, 2)}[winner]
    scores = tuple(m.PlayerScore(team, (win[i], points[i]), names[i])
                   for i, team in enumerate(("ONE", "TWO")))
    return m.Result(ROOM, scores, m.Winner(reason, regular, winner))


class Recorder(Bot):
    """Plays the first legal move and records every hook call."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.states: list[blokus.State] = []
        self.outcome: Outcome | None = None

    def on_start(self, team: str) -> None:
        self.calls.append(f"start {team}")

    def on_update(self, state: blokus.State) -> None:
        self.calls.append(f"update {state.turn}")
        self.states.append(state)

    def move(self, state: blokus.State) -> blokus.Move:
        self.calls.append("move")
        return next(iter(state.legal_moves()))

    def on_result(self, outcome: Outcome) -> None:
        self.calls.append("result")
        self.outcome = outcome


def server_script(state: blokus.State, team: str = "ONE") -> list[bytes]:
    server = ServerConnection()
    return [
        server.send(m.Joined(ROOM)),
        server.send(m.Welcome(ROOM, team)),
        server.send(m.Memento(ROOM, state)),
        server.send(m.MoveRequest(ROOM)),
        server.send(result("ONE", (5, 0), reason="ONE hat am meisten Punkte erzielt.")),
        server.send(m.Left(ROOM)) + server.close(),
    ]


def decode_client(data: bytes) -> list[object]:
    """What the server would read from the kit's bytes."""
    conn = ServerConnection()
    conn.receive_data(data)
    events = []
    while (event := conn.next_event()) is not NEED_DATA:
        events.append(event)
    return events


@pytest.mark.parametrize("chunked", [False, True])
def test_whole_conversation(chunked: bool) -> None:
    state = blokus.new_game("PENTO_U")
    bot = Recorder()
    session = BotSession(bot)
    sent = session.start()
    for message in server_script(state):
        pieces = [message[i:i + 1] for i in range(len(message))] if chunked else [message]
        for piece in pieces:
            sent += session.receive_data(piece)
    assert session.finished and session.moves_sent == 1
    events = decode_client(sent)
    assert events[0] == m.Join()
    move = events[1]
    assert isinstance(move, m.RoomPacket) and move.room_id == ROOM
    assert move.data == next(iter(state.legal_moves()))
    assert isinstance(events[2], m.Close)
    assert sent.endswith(b"</protocol>")
    assert bot.calls == ["start ONE", "update 0", "move", "result"]
    assert bot.outcome is not None and bot.outcome.won and not bot.outcome.lost
    assert bot.outcome.points == {"ONE": 5, "TWO": 0}
    assert session.receive_data(b"<more/>") == b""  # finished sessions ignore the rest


def test_reservation_and_room_requests() -> None:
    assert decode_client(BotSession(RandomBot(), reservation="abc").start()) == [
        m.JoinPrepared("abc")]
    assert decode_client(BotSession(RandomBot(), room_id="r9").start()) == [m.JoinRoom("r9")]


def test_bot_gets_a_private_copy() -> None:
    class Vandal(Bot):
        def move(self, state: blokus.State) -> blokus.Move:
            moves = list(state.legal_moves())
            state.apply(moves[0])  # scribbles on its copy
            return moves[0]

    session = BotSession(Vandal())
    session.start()
    state = blokus.new_game("PENTO_X")
    for message in server_script(state)[:4]:
        session.receive_data(message)
    assert session.state == blokus.new_game("PENTO_X")


@pytest.mark.parametrize("answer", [None, "BLUE MONO 0 0", 42])
def test_move_that_is_not_a_move(answer: object) -> None:
    class Broken(Bot):
        def move(self, state: blokus.State) -> blokus.Move:
            return answer  # type: ignore[return-value]

    session = BotSession(Broken())
    session.start()
    with pytest.raises(BotFailed, match="expected a SetMove or SkipMove"):
        for message in server_script(blokus.new_game("PENTO_U")):
            session.receive_data(message)
    assert session.abort().endswith(b"</protocol>")


def test_bot_exception_is_reported_with_its_cause() -> None:
    class Crashing(Bot):
        def move(self, state: blokus.State) -> blokus.Move:
            raise ZeroDivisionError("oops")

    session = BotSession(Crashing())
    session.start()
    expected = r"Crashing.move\(\) raised ZeroDivisionError: oops"
    with pytest.raises(BotFailed, match=expected) as info:
        for message in server_script(blokus.new_game("PENTO_U")):
            session.receive_data(message)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_illegal_move_is_sent_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    class Skipper(Bot):
        def move(self, state: blokus.State) -> blokus.Move:
            return blokus.SkipMove(state.current_color)  # illegal on the first move

    session = BotSession(Skipper())
    sent = session.start()
    for message in server_script(blokus.new_game("PENTO_U")):
        sent += session.receive_data(message)
    assert m.RoomPacket(ROOM, blokus.SkipMove("BLUE")) in decode_client(sent)
    assert "not legal" in caplog.text


def test_errorpacket_refuses() -> None:
    server = ServerConnection()
    session = BotSession(RandomBot(), reservation="nope")
    session.start()
    with pytest.raises(ServerRefused, match="Couldn't find a reservation"):
        session.receive_data(server.send(m.ErrorPacket(texts.unknown_reservation())))


@pytest.mark.parametrize("ending", [b"", b"</protocol>"])
def test_server_gone_before_the_end(ending: bytes) -> None:
    server = ServerConnection()
    session = BotSession(RandomBot())
    session.start()
    session.receive_data(server.send(m.Joined(ROOM)))
    with pytest.raises(ServerClosed, match="before the game was over"):
        session.receive_data(b"\n</protocol>" if ending else b"")
        session.receive_data(b"")


@pytest.mark.parametrize("ending", [b"", b"\n</protocol>"])
def test_end_after_the_result_without_left_is_fine(ending: bytes) -> None:
    session = BotSession(RandomBot(1))
    sent = session.start()
    for message in server_script(blokus.new_game("PENTO_U"))[:5]:
        sent += session.receive_data(message)
    sent += session.receive_data(ending)
    if not session.finished:
        sent += session.receive_data(b"")
    assert session.finished and session.outcome is not None and session.outcome.won
    assert m.Close() in decode_client(sent) and sent.endswith(b"</protocol>")


def test_server_gone_before_joining() -> None:
    session = BotSession(RandomBot())
    session.start()
    with pytest.raises(ServerClosed, match="before we could join"):
        session.receive_data(b"")


@pytest.mark.parametrize("garbage", [
    b"<protocol><joined/>",                       # missing roomId
    b"<protocol><banana/>",                       # unknown message
    b"<protocol><room roomId='r'><data class='memento'><state/></data></room>",
    b"\xff\xfe<<<<",
    b"<protocol>" + b"<a>" * 100,                 # nesting beyond the limit
])
def test_garbage_from_the_server(garbage: bytes) -> None:
    session = BotSession(RandomBot())
    session.start()
    with pytest.raises((ServerProtocolError, ServerClosed)):
        session.receive_data(garbage)
        session.receive_data(b"")


def test_move_request_before_any_state() -> None:
    server = ServerConnection()
    session = BotSession(RandomBot())
    session.start()
    with pytest.raises(ServerProtocolError, match="before sending a state"):
        session.receive_data(server.send(m.Joined(ROOM)) + server.send(m.MoveRequest(ROOM)))


# --- results ----------------------------------------------------------------------------


@pytest.mark.parametrize(("reason", "cause"), [
    (texts.soft_timeout_reason("greedy"), "SOFT_TIMEOUT"),
    (texts.hard_timeout_reason("ONE"), "HARD_TIMEOUT"),
    (texts.left_reason("random (A)", "LOST_CONNECTION"), "LEFT"),
    (texts.rule_violation_reason("x", "Der Spielstein berührt", "Setze MONO"), "RULE_VIOLATION"),
    (texts.process_violation_reason("y", "It's not your turn yet"), "PROCESS_VIOLATION"),
    (texts.regular_win_reason("hat fuer die Antwort"), None),
    (texts.TIE_REASON, None),
    ("", None),
])
def test_violation_cause(reason: str, cause: str | None) -> None:
    assert violation_cause(reason) == cause


def test_outcome_of_a_violation() -> None:
    message = result("ONE", (120, 0), regular=False, reason=texts.hard_timeout_reason("b"),
                     names=("a", "b"))
    outcome = Outcome.from_result(message, "TWO")
    assert outcome.lost and not outcome.won and not outcome.drew
    assert (outcome.cause, outcome.violator) == ("HARD_TIMEOUT", "TWO")
    assert outcome.win_points == {"ONE": 2, "TWO": 0}
    assert outcome.names == {"ONE": "a", "TWO": "b"}
    assert "lost by hard timeout, official text: " in outcome.describe()


def test_outcome_of_a_draw_round_trips_the_codec() -> None:
    server, client = ServerConnection(), ClientConnection()
    client.receive_data(server.send(result(None, (77, 77), reason=texts.TIE_REASON)))
    decoded = client.next_event()
    assert isinstance(decoded, m.Result)
    outcome = Outcome.from_result(decoded, "ONE")
    assert outcome.drew and outcome.regular and outcome.violator is None
    assert outcome.describe().startswith("draw 77:77")


def test_greedy_session_answers_with_the_largest_piece() -> None:
    state = blokus.new_game("PENTO_W")
    state.apply(next(iter(state.legal_moves())))
    for _ in range(3):
        state.apply(next(iter(state.legal_moves())))
    session = BotSession(GreedyBot(seed=0))
    sent = session.start()
    for message in server_script(state)[:4]:
        sent += session.receive_data(message)
    move = decode_client(sent)[1].data  # type: ignore[attr-defined]
    largest = max(blokus.SHAPE_SIZE[mv.kind] for mv in state.legal_moves()
                  if isinstance(mv, blokus.SetMove))
    assert blokus.SHAPE_SIZE[move.kind] == largest and state.is_legal(move)
