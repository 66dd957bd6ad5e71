"""Hearth through a Room with in-process seats (no sockets): the engine decides, the room
times, asks several seats at once and hands each seat only what it may see."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from games import hearth
from server.games.hearth import MULLIGAN, HearthAsk, HearthGame
from server.rooms import (
    Cause,
    Clock,
    Clocks,
    Decision,
    LeftCause,
    Lobby,
    LobbyError,
    LobbyErrorKind,
    MoveRejected,
    Room,
    Slot,
    SlotRequest,
)
from tests.server.sc_client import no_errors_logged  # noqa: F401
from tests.server.server_testkit import InProcessSeat

pytestmark = pytest.mark.usefixtures("no_errors_logged")

WAIT = 60.0  # generous upper bound for any wait; the tests never assert on elapsed time
RELAXED = Clocks(decision=30.0, turn=60.0)


def random_choice(seed: int) -> Any:
    rng = random.Random(seed)

    def choose(decision: Decision) -> hearth.Action:
        ask: HearthAsk = decision.payload
        return rng.choice(ask.actions)

    return choose


async def play(seats: list[InProcessSeat], clocks: Clocks = RELAXED, seed: int = 1
               ) -> tuple[Room, HearthGame]:
    lobby = Lobby(clocks=clocks, seed=seed)
    room, codes = lobby.prepare("hearth", [SlotRequest("p1"), SlotRequest("p2")], pause=False)
    for seat, code in zip(seats, codes, strict=True):
        lobby.seated(lobby.join_prepared(seat, code, protocol="kettle"))
    async with asyncio.timeout(WAIT):
        for seat in seats:
            await seat.done.wait()
    assert isinstance(room.game, HearthGame)
    return room, room.game


def flat(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        out.append(entry)
        if "power_block" in entry:
            out.extend(flat(entry["power_block"]["history"]))
    return out


def delivered(seat: InProcessSeat) -> list[dict[str, Any]]:
    return [entry for news in seat.news for entry in news]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_whole_games_end_with_the_engines_winner(seed: int) -> None:
    seats = [InProcessSeat(random_choice(seed)), InProcessSeat(random_choice(seed + 100))]
    room, game = await play(seats, seed=seed)
    engine = game.state.result()
    assert engine is not None
    result = seats[0].result()
    assert result == seats[1].result() == room.result
    assert result.regular and result.violation is None
    assert result.winner == (engine.winner - 1 if engine.winner else None)
    assert result.reason == engine.reason
    assert not any(seat.refused for seat in seats)


@pytest.mark.parametrize("seed", [5, 6])
async def test_each_seat_gets_its_own_history_and_never_a_hidden_card(seed: int) -> None:
    seats = [InProcessSeat(random_choice(seed)), InProcessSeat(random_choice(seed + 1))]
    _, game = await play(seats, seed=seed)
    for index, seat in enumerate(seats):
        player = index + 1
        # Exactly the engine's stream for that viewer, in order, nothing twice or missing.
        assert delivered(seat) == game.state.history(player)
        assert delivered(seat) != game.state.history(None)
        # Cards the opponent still holds hidden (deck, hand) were never named to this seat.
        opponent = 3 - player
        hidden = set(game.state.deck[opponent]) | set(game.state.hand[opponent])
        assert hidden
        for entry in flat(delivered(seat)):
            for kind in ("full_entity", "show_entity", "change_entity"):
                body = entry.get(kind)
                if body is not None and body["entityID"] in hidden:
                    assert body["name"] == "", (kind, body)


async def test_the_second_seat_may_answer_its_mulligan_first() -> None:
    order: list[int] = []

    def answering(seat: int, seed: int) -> Any:
        pick = random_choice(seed)

        def choose(decision: Decision) -> hearth.Action:
            if decision.payload.kind == MULLIGAN:
                order.append(seat)
            return pick(decision)

        return choose

    def later_for_seat_0(decision: Decision) -> float:
        return 0.2 if decision.payload.kind == MULLIGAN else 0.0

    first = InProcessSeat(answering(0, 1), delays=later_for_seat_0)
    second = InProcessSeat(answering(1, 2))
    room, _ = await play([first, second])
    assert order == [1, 0]
    assert room.result is not None and room.result.regular
    assert not first.refused and not second.refused
    # Each seat was asked its mulligan once: seat 1's answer left seat 0's decision open
    # (same decision, same clock) instead of asking again.
    for seat in (first, second):
        mulligans = [d for d in seat.asked if d.payload.kind == MULLIGAN]
        assert len(mulligans) == 1 and mulligans[0].clock is Clock.DECISION
    # Seat 0 heard of seat 1's mulligan (news) while its own decision was still open.
    asked_at = [i for i, e in enumerate(first.entries)
                if type(e.event).__name__ == "DecisionRequested"]
    news_at = [i for i, e in enumerate(first.entries) if type(e.event).__name__ == "StateChanged"]
    assert news_at[1] > asked_at[0] and len(asked_at) > 1 and news_at[1] < asked_at[1]


async def test_an_illegal_answer_is_nacked_and_the_decision_stays_open() -> None:
    rng = random.Random(3)
    wrong = hearth.Action(hearth.Kind.ATTACK, 9999, 9998)
    tried: list[bool] = []

    def wrong_once(decision: Decision) -> hearth.Action:
        if decision.payload.kind != MULLIGAN and not tried:
            tried.append(True)
            return wrong
        return rng.choice(decision.payload.actions)

    first, second = InProcessSeat(wrong_once), InProcessSeat(random_choice(4))
    room, _ = await play([first, second])
    nacks = first.refused + second.refused
    assert len(nacks) == 1 and nacks[0].move == wrong and not nacks[0].final
    assert nacks[0].rule and nacks[0].mistake_name == "ILLEGAL_ACTION"
    assert room.result is not None and room.result.regular


async def test_a_timeout_loses_and_the_engine_records_it() -> None:
    idle = InProcessSeat(None)  # never answers
    other = InProcessSeat(random_choice(5))
    room, game = await play([idle, other], clocks=Clocks(decision=0.2, turn=5.0))
    result = other.result()
    assert result.violation is not None and result.violation.cause is Cause.HARD_TIMEOUT
    assert result.violation.seat == 0 and result.winner == 1
    # The engine ended the game too (a concession), and the other seat saw its end.
    assert game.state.result() is not None and game.state.result().winner == 2
    assert delivered(other) == game.state.history(2)
    assert room.result == result


async def test_the_turn_clock_ends_a_turn_its_decisions_would_not() -> None:
    def slow_turns(decision: Decision) -> float:
        return 0.0 if decision.payload.kind == MULLIGAN else 0.5

    seats = [InProcessSeat(random_choice(6), delays=slow_turns),
             InProcessSeat(random_choice(7), delays=slow_turns)]
    await play(seats, clocks=Clocks(decision=10.0, turn=0.2))
    result = seats[0].result()
    assert result.violation is not None and result.violation.cause is Cause.HARD_TIMEOUT


async def test_no_timeout_disables_the_hearth_clocks() -> None:
    seats = [InProcessSeat(random_choice(8), delay=0.05), InProcessSeat(random_choice(9))]
    room, _ = await play(seats, clocks=Clocks(decision=0.01, turn=0.01, enabled=False))
    assert room.result is not None and room.result.regular


async def test_concede_ends_the_game_at_once() -> None:
    conceder = InProcessSeat(None)
    other = InProcessSeat(random_choice(10))
    lobby = Lobby(clocks=RELAXED)
    room, codes = lobby.prepare("hearth", [SlotRequest(), SlotRequest()], pause=False)
    lobby.seated(lobby.join_prepared(conceder, codes[0], protocol="kettle"))
    lobby.seated(lobby.join_prepared(other, codes[1], protocol="kettle"))
    async with asyncio.timeout(WAIT):
        while not conceder.asked:
            await asyncio.sleep(0.01)
        room.concede(conceder)
        await other.done.wait()
    result = other.result()
    assert result.violation is not None and result.violation.cause is Cause.CONCEDED
    assert result.winner == 1
    game = room.game
    assert isinstance(game, HearthGame)
    assert game.state.result() is not None and game.state.result().reason == "concede"


async def test_a_disconnect_loses() -> None:
    gone = InProcessSeat(None)
    other = InProcessSeat(random_choice(11))
    lobby = Lobby(clocks=RELAXED)
    room, codes = lobby.prepare("hearth", [SlotRequest(), SlotRequest()], pause=False)
    lobby.seated(lobby.join_prepared(gone, codes[0], protocol="kettle"))
    lobby.seated(lobby.join_prepared(other, codes[1], protocol="kettle"))
    async with asyncio.timeout(WAIT):
        while not gone.asked:
            await asyncio.sleep(0.01)
        room.player_gone(gone, LeftCause.LOST_CONNECTION)
        await other.done.wait()
    result = other.result()
    assert result.violation is not None and result.violation.cause is Cause.LEFT
    assert result.winner == 1 and not gone.done.is_set()


async def test_the_turn_budget_spans_the_decisions_of_one_turn() -> None:
    room = Room(HearthGame(seed=1), [Slot(), Slot()], clocks=Clocks(decision=10.0, turn=75.0))
    ask = Decision(None, Clock.DECISION, turn=1)
    assert room._deadline(0, ask, 100.0) == 110.0
    assert room._deadline(0, ask, 168.0) == 175.0  # the turn's 75 s run out first
    assert room._deadline(0, Decision(None, Clock.DECISION, turn=2), 200.0) == 210.0
    assert room._deadline(0, Decision(None, Clock.DECISION), 300.0) == 310.0  # mulligan


async def test_hearth_is_not_seated_over_sc_nor_blokus_over_kettle() -> None:
    lobby = Lobby()
    room, codes = lobby.prepare("hearth", [SlotRequest(), SlotRequest()], pause=False)
    with pytest.raises(LobbyError) as err:
        lobby.join_prepared(object(), codes[0], protocol="sc")
    assert err.value.kind is LobbyErrorKind.BAD_REQUEST
    seating = lobby.join(object(), None, protocol="kettle")
    assert seating.room.game_type == "hearth" and seating.room is not room
    assert lobby.join(object(), None, protocol="sc").room.game_type == "swc_2027_blokus"
    assert not any(isinstance(e.event, MoveRejected) for e in room.log.entries)
    await lobby.close()
