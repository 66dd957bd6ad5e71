"""The rooms layer with in-process seats and the real Blokus engine (no sockets)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from games import blokus
from server.net.sc_translate import sc_scores
from server.rooms import (
    Cause,
    Clocks,
    LeftCause,
    Lobby,
    LobbyError,
    LobbyErrorKind,
    MoveRejected,
    Outcome,
    SlotRequest,
    StateChanged,
)
from tests.server.sc_client import no_errors_logged  # noqa: F401
from tests.server.server_testkit import InProcessObserver, InProcessPlayer

pytestmark = pytest.mark.usefixtures("no_errors_logged")

WAIT = 20.0  # generous upper bound for any wait; the tests never assert on elapsed time


async def finished(*players: InProcessPlayer) -> None:
    async with asyncio.timeout(WAIT):
        for p in players:
            await p.done.wait()


async def seat_two(lobby: Lobby, a: object, b: object) -> None:
    for link in (a, b):
        seating = lobby.join(link, None)
        lobby.seated(seating)


async def test_whole_game_regular_result() -> None:
    lobby = Lobby()
    a, b = InProcessPlayer(1), InProcessPlayer(2)
    await seat_two(lobby, a, b)
    await finished(a, b)
    final = a.state
    assert final.is_over
    expected = final.result()
    result = a.result()
    assert result == b.result()
    assert result.regular and result.violation is None
    # The game's own outcome; the SC scoring (2/1/0) of it is the engine's.
    assert result.scores == (expected.points["ONE"], expected.points["TWO"])
    assert sc_scores(result) == ((expected.win_points["ONE"], expected.win_points["TWO"]),
                                 result.scores)
    winner = expected.winner
    assert result.winner == (None if winner is None else blokus.TEAMS.index(winner))
    # Flow: welcome, first memento, then request/memento pairs, then result and left.
    assert a.kinds()[:2] == ["Welcome", "StateChanged"]
    assert a.kinds()[-2:] == ["GameOver", "RoomClosed"]
    assert "DecisionRequested" not in b.kinds()[:2]
    # Both players saw the same sequence of states.
    assert [e.state.turn for e in a.events if isinstance(e, StateChanged)] == \
        [e.state.turn for e in b.events if isinstance(e, StateChanged)]
    assert lobby.rooms == {}
    assert len(lobby.stats.move_processing_seconds) > 0


async def test_rule_violation_reaches_offender_and_observers() -> None:
    lobby = Lobby()
    bad = blokus.SkipMove("BLUE")  # skipping the first move is illegal
    a, b = InProcessPlayer(choose=lambda s: bad), InProcessPlayer(2)
    seating = lobby.join(a, None)
    observer = InProcessObserver()
    seating.room.add_observer(observer)
    lobby.seated(seating)
    lobby.seated(lobby.join(b, None))
    await finished(a, b)
    result = a.result()
    assert result.violation is not None and result.violation.cause is Cause.RULE_VIOLATION
    assert result.violation.mistake_name == "SKIP_FIRST_TURN"
    assert sc_scores(result)[0] == (0, 2) and result.winner == 1 and not result.regular
    rejected = [e for e in a.events if isinstance(e, MoveRejected)]
    assert len(rejected) == 1 and rejected[0].rule
    assert not any(isinstance(e, MoveRejected) for e in b.events)
    assert "MoveRejected" in observer.kinds()
    assert observer.kinds()[-2:] == ["GameOver", "RoomClosed"]
    assert "Welcome" not in observer.kinds() and "DecisionRequested" not in observer.kinds()


async def test_move_out_of_turn_is_a_process_violation() -> None:
    lobby = Lobby()
    a, b = InProcessPlayer(answer=False), InProcessPlayer(2)
    seating_a = lobby.join(a, None)
    lobby.seated(seating_a)
    seating_b = lobby.join(b, None)
    lobby.seated(seating_b)
    room = seating_a.room
    async with asyncio.timeout(WAIT):
        while not any(type(e).__name__ == "DecisionRequested" for e in a.events):
            await asyncio.sleep(0.01)
    room.submit(b, blokus.SkipMove("YELLOW"), 0.0)
    await finished(a, b)
    result = b.result()
    assert result.violation is not None
    assert result.violation.cause is Cause.PROCESS_VIOLATION
    assert result.violation.seat == 1 and result.violation.expected_seat == 0
    assert sc_scores(result)[0] == (2, 0)
    assert next(e for e in b.events if isinstance(e, MoveRejected)).process == "NOT_YOUR_TURN"
    assert not any(isinstance(e, MoveRejected) for e in a.events)


async def test_soft_timeout_discards_the_late_move() -> None:
    lobby = Lobby(clocks=Clocks(soft=0.05, hard=30.0))
    a, b = InProcessPlayer(1, delay=0.3), InProcessPlayer(2)
    await seat_two(lobby, a, b)
    await finished(a, b)
    result = a.result()
    assert result.violation is not None and result.violation.cause is Cause.SOFT_TIMEOUT
    assert result.violation.seat == 0
    # The late move was discarded: the only memento is the initial one.
    assert [type(e).__name__ for e in b.events].count("StateChanged") == 1


async def test_hard_timeout() -> None:
    lobby = Lobby(clocks=Clocks(soft=0.05, hard=0.2))
    a, b = InProcessPlayer(answer=False), InProcessPlayer(2)
    await seat_two(lobby, a, b)
    await finished(a, b)
    assert a.result().violation.cause is Cause.HARD_TIMEOUT


async def test_quick_moves_share_one_alarm(monkeypatch: pytest.MonkeyPatch) -> None:
    """The room's clock is one timer set at the first deadline, not one per move (each
    later move's deadline is later still): a whole game of instant answers schedules it
    once (and the wait for the players once)."""
    loop = asyncio.get_running_loop()
    scheduled: list[object] = []
    call_at = loop.call_at

    def counting(when: float, callback: Any, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        scheduled.append(callback)
        return call_at(when, callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_at", counting)
    lobby = Lobby(clocks=Clocks(soft=30.0, hard=60.0))
    a, b = InProcessPlayer(1), InProcessPlayer(2)
    await seat_two(lobby, a, b)
    await finished(a, b)
    assert a.result().regular
    assert a.kinds().count("DecisionRequested") > 20
    assert len(scheduled) <= 2, scheduled


async def test_hard_timeout_after_the_first_deadline_passed() -> None:
    """The alarm rings at the first move's deadline while a later decision is open: the
    room sets it again for that one, which then runs out."""
    lobby = Lobby(clocks=Clocks(soft=5.0, hard=0.3))
    a, b = InProcessPlayer(1, delay=0.05), InProcessPlayer(2, delay=0.05)
    moves = {"left": 12}
    random_move = a.choose

    def choose(state: Any) -> Any:
        moves["left"] -= 1
        a.answer = moves["left"] > 0  # the last answer: the next request goes unanswered
        return random_move(state)

    a.choose = choose
    await seat_two(lobby, a, b)
    await finished(a, b)
    violation = a.result().violation
    assert violation is not None and violation.cause is Cause.HARD_TIMEOUT
    assert violation.seat == 0
    # Well past the first deadline (0.3 s): a dozen moves of 0.05 s each by both seats.
    assert a.kinds().count("StateChanged") > 12


async def test_a_full_inbox_refuses_then_drains() -> None:
    """A room queues at most 64 commands; one more is refused at once (LIMIT), and once
    the room has handled them it takes commands again."""
    lobby = Lobby(clocks=Clocks(enabled=False))
    a, b = InProcessPlayer(1, answer=False), InProcessPlayer(2, answer=False)
    await seat_two(lobby, a, b)
    room = next(iter(lobby.rooms.values()))
    async with asyncio.timeout(WAIT):
        while not room.started:
            await asyncio.sleep(0.01)
    for _ in range(64):
        room.pause(False)
    with pytest.raises(LobbyError) as refused:
        room.pause(False)
    assert refused.value.kind is LobbyErrorKind.LIMIT
    await asyncio.sleep(0)  # the room's task handles what is queued
    room.pause(False)
    room.cancel()
    await finished(a, b)
    assert a.result().regular


async def test_no_timeout_clocks_wait() -> None:
    lobby = Lobby(clocks=Clocks(soft=0.01, hard=0.05, enabled=False))
    a, b = InProcessPlayer(1, delay=0.1), InProcessPlayer(2)
    await seat_two(lobby, a, b)
    async with asyncio.timeout(WAIT):
        while len([e for e in b.events if isinstance(e, StateChanged)]) < 3:
            await asyncio.sleep(0.02)
    room = next(iter(lobby.rooms.values()))
    room.cancel()
    await finished(a, b)
    assert a.result().regular


async def test_disconnect_mid_game_is_left() -> None:
    lobby = Lobby()
    a, b = InProcessPlayer(answer=False), InProcessPlayer(2)
    await seat_two(lobby, a, b)
    room = next(iter(lobby.rooms.values()))
    async with asyncio.timeout(WAIT):
        while not room.started:
            await asyncio.sleep(0.01)
    room.player_gone(a, LeftCause.LOST_CONNECTION)
    await b.done.wait()
    result = b.result()
    assert result.violation.cause is Cause.LEFT
    assert result.violation.left_cause is LeftCause.LOST_CONNECTION
    assert result.winner == 1
    assert "GameOver" not in a.kinds()  # a is gone: nothing more is sent to it


async def test_paused_prepared_room_waits_for_step() -> None:
    lobby = Lobby()
    room, codes = lobby.prepare(None, [SlotRequest("Alice"), SlotRequest("Bob")], pause=True)
    assert len(codes) == 2 and len(set(codes)) == 2
    observer = InProcessObserver()
    room.add_observer(observer)
    a, b = InProcessPlayer(1), InProcessPlayer(2)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    lobby.seated(lobby.join_prepared(b, codes[1]))
    async with asyncio.timeout(WAIT):
        while "StateChanged" not in observer.kinds():
            await asyncio.sleep(0.01)
    assert a.kinds() == ["Welcome"] and b.kinds() == ["Welcome"]
    room.step()
    async with asyncio.timeout(WAIT):
        while observer.kinds().count("StateChanged") < 2:
            await asyncio.sleep(0.01)
    # One step = one move: the players got the memento and one request; the new state
    # went to observers only.
    assert a.kinds() == ["Welcome", "StateChanged", "DecisionRequested"]
    room.pause(False)
    await finished(a, b)
    assert a.result().regular
    assert observer.kinds().count("PauseChanged") == 1
    with pytest.raises(LobbyError) as err:
        lobby.join_prepared(object(), codes[0])
    assert err.value.kind is LobbyErrorKind.RESERVATION_NOT_FOUND


async def test_cancel_gives_regular_result_from_points() -> None:
    lobby = Lobby(clocks=Clocks(enabled=False))
    a, b = InProcessPlayer(1), InProcessPlayer(answer=False)
    await seat_two(lobby, a, b)
    room = next(iter(lobby.rooms.values()))
    async with asyncio.timeout(WAIT):
        while not any(type(e).__name__ == "DecisionRequested" for e in b.events):
            await asyncio.sleep(0.01)
    room.cancel()
    await finished(a, b)
    result = a.result()
    points = b.state.team_points("ONE"), b.state.team_points("TWO")
    # An admin's cancel ends Blokus as if it were over: the leader by points wins.
    assert result.regular and result.outcome == Outcome(0, "stopped", points)
    assert sc_scores(result) == ((2, 0), points) and points[0] > points[1]


async def test_forced_step_with_one_player_cancels() -> None:
    lobby = Lobby()
    room, codes = lobby.prepare(None, [SlotRequest("Alice"), SlotRequest("Bob")], pause=False)
    a = InProcessPlayer(1)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    room.step(forced=False)  # not forced: nothing happens
    room.step(forced=True)
    await finished(a)
    result = a.result()
    assert result.violation.cause is Cause.LEFT and result.violation.seat == 1
    assert result.violation.left_cause is LeftCause.NOT_CONNECTED


async def test_a_seat_that_failed_before_joining_loses_when_the_other_joins() -> None:
    lobby = Lobby()
    room, codes = lobby.prepare(None, [SlotRequest("Alice"), SlotRequest("Bob")], pause=False)
    room.seat_failed(0)  # the launcher saw Alice's bot exit; Bob has not joined yet
    b = InProcessPlayer(2)
    lobby.seated(lobby.join_prepared(b, codes[1]))
    await finished(b)
    result = b.result()
    assert (result.violation.cause, result.violation.seat) == (Cause.LEFT, 0)
    assert result.violation.left_cause is LeftCause.NOT_CONNECTED
    assert result.winner == 1 and result.lost(0) and not result.lost(1)
    assert b.state is None  # it never started


async def test_a_seat_that_failed_loses_also_when_nobody_else_comes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import server.rooms.room

    monkeypatch.setattr(server.rooms.room, "FAILED_SEAT_WAIT", 0.05)
    lobby = Lobby()
    room, _codes = lobby.prepare(None, [SlotRequest("Alice"), SlotRequest("Bob")], pause=False)
    room.seat_failed(1)
    assert room.task is not None
    async with asyncio.timeout(WAIT):
        await room.task
    assert room.result is not None and room.result.winner == 0
    assert room.result.violation is not None and room.result.violation.seat == 1


async def test_two_seats_that_failed_both_lose() -> None:
    lobby = Lobby()
    room, _codes = lobby.prepare(None, [SlotRequest("Alice"), SlotRequest("Bob")], pause=False)
    room.seat_failed(1)
    room.seat_failed(0)
    assert room.task is not None
    async with asyncio.timeout(WAIT):
        await room.task
    result = room.result
    assert result is not None and result.winner is None
    assert result.violation is not None and result.violation.seat is None
    assert result.lost(0) and result.lost(1)
    assert sc_scores(result) == ((0, 0), (0, 0))


async def test_lobby_errors() -> None:
    lobby = Lobby()
    with pytest.raises(LobbyError) as err:
        lobby.join_room(object(), "no-such-room")
    assert err.value.kind is LobbyErrorKind.ROOM_NOT_FOUND
    with pytest.raises(LobbyError) as err:
        lobby.join_prepared(object(), "bad-code")
    assert err.value.kind is LobbyErrorKind.RESERVATION_NOT_FOUND
    room, _ = lobby.prepare(None, [SlotRequest(), SlotRequest()], pause=False)
    with pytest.raises(LobbyError) as err:
        lobby.join_room(object(), room.id)  # both slots reserved
    assert err.value.kind is LobbyErrorKind.ROOM_FULL
    # join never lands in a reserved seat: it opens a new room instead.
    seating = lobby.join(object(), None)
    assert seating.room is not room
    # Non-move data and strangers are refused without touching the match.
    with pytest.raises(LobbyError) as err:
        seating.room.submit(seating.room.slots[0].player, "not a move", 0.0)
    assert err.value.kind is LobbyErrorKind.NON_MOVE
    with pytest.raises(LobbyError) as err:
        seating.room.submit(object(), blokus.SkipMove("BLUE"), 0.0)
    assert err.value.kind is LobbyErrorKind.NOT_A_MEMBER
    await lobby.close()


async def test_unreserved_prepared_slot_joinable() -> None:
    lobby = Lobby()
    room, codes = lobby.prepare(None, [SlotRequest("A"), SlotRequest("B", reserved=False)],
                                pause=False)
    assert len(codes) == 1
    a, b = InProcessPlayer(1), InProcessPlayer(2)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    seating = lobby.join_room(b, room.id)
    assert seating.seat == 1
    lobby.seated(seating)
    await finished(a, b)


async def test_slow_observer_is_dropped_match_goes_on() -> None:
    lobby = Lobby()
    a, b = InProcessPlayer(1), InProcessPlayer(2)
    seating = lobby.join(a, None)
    slow = InProcessObserver(capacity=3)
    seating.room.add_observer(slow)
    lobby.seated(seating)
    lobby.seated(lobby.join(b, None))
    await finished(a, b)
    assert len(slow.events) == 3
    assert a.result().regular


async def test_one_connection_takes_one_seat_per_room() -> None:
    lobby = Lobby()
    link = object()
    first = lobby.join(link, None)
    second = lobby.join(link, None)
    assert first.room is not second.room
    with pytest.raises(LobbyError) as err:
        lobby.join_room(link, first.room.id)
    assert err.value.kind is LobbyErrorKind.BAD_REQUEST
    await lobby.close()


async def test_can_timeout_false_seat_has_no_clock() -> None:
    lobby = Lobby(clocks=Clocks(soft=0.1, hard=0.15))
    room, codes = lobby.prepare(
        None, [SlotRequest("slow", can_timeout=False), SlotRequest("fast")], pause=False)
    a, b = InProcessPlayer(1, delay=0.4), InProcessPlayer(2)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    lobby.seated(lobby.join_prepared(b, codes[1]))
    async with asyncio.timeout(WAIT):
        while len([e for e in b.events if isinstance(e, StateChanged)]) < 2:
            await asyncio.sleep(0.02)
    # The slow seat's first move counted although it came after both clocks.
    states = [e.state for e in b.events if isinstance(e, StateChanged)]
    assert states[1].turn == 1
    with contextlib.suppress(LobbyError):  # the fast seat may have ended it on a busy machine
        room.cancel()
    await finished(a, b)


async def test_per_room_clocks() -> None:
    lobby = Lobby(clocks=Clocks(soft=30.0, hard=60.0))
    quick, codes = lobby.prepare(None, [SlotRequest(), SlotRequest()], False,
                                 clocks=Clocks(soft=0.05, hard=0.2))
    a, b = InProcessPlayer(answer=False), InProcessPlayer(2)
    lobby.seated(lobby.join_prepared(a, codes[0]))
    lobby.seated(lobby.join_prepared(b, codes[1]))
    await finished(a, b)
    assert a.result().violation.cause is Cause.HARD_TIMEOUT
    assert lobby.clocks.hard == 60.0 and quick.clocks.hard == 0.2


def test_log_entries_share_their_audiences() -> None:
    """A match keeps every entry; the few distinct seat sets are one object each."""
    from server.rooms import MatchLog, RoomClosed

    log = MatchLog()
    first = log.append(RoomClosed(), {0, 1}, True)
    second = log.append(RoomClosed(), frozenset({1, 0}), False)
    assert first.seats == second.seats == frozenset({0, 1})
    assert first.seats is second.seats
