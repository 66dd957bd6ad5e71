"""What the viewer's move lists and clocks read from the frames (issue #30): a Blokus move's
round and Software-Challenge position, numbered Hearth plays, and the seat and think time
of the answer that made each state."""

from __future__ import annotations

from typing import Any

from games import blokus
from server.games.blokus.spectate import move_round, render_state
from server.rooms.events import StateChanged
from tests.server.spectate.spectate_kit import blokus_match, finished, hearth_match, read, site


def test_a_blokus_move_carries_its_round_and_position() -> None:
    from server.games.blokus import BlokusGame

    state = BlokusGame(seed=4).state
    seen = 0
    while not state.is_over:
        played_in = state.round
        move = next(iter(state.legal_moves()))
        state.apply(move)
        last = render_state(state)["last"]
        assert last["round"] == played_in, (last, played_in)
        if isinstance(move, blokus.SetMove):
            assert (last["x"], last["y"]) == (move.x, move.y)
            # The position is the top-left of the piece's bounding box.
            assert (last["x"], last["y"]) == (min(x for x, _ in last["cells"]),
                                              min(y for _, y in last["cells"]))
        seen += 1
    assert seen > 40
    assert state.last_move is not None
    assert move_round(state.turn, state.last_move.color) <= state.round


def _states(stream: Any) -> list[dict[str, Any]]:
    return [e["state"] for e in stream.events if e.get("state")]


async def test_hearth_plays_are_numbered_and_states_name_the_thinking_seat() -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, seed=6)
        await finished(room)
        states = _states(await read(s.url(f"/ws/matches/{room.id}?since=0")))
        lines: dict[int, dict[str, Any]] = {}
        for state in states:
            numbers = [line["n"] for line in state["ticker"]]
            assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
            for line in state["ticker"]:
                assert lines.setdefault(line["n"], line) == line  # a line never changes
        assert sorted(lines) == list(range(len(lines))) and len(lines) > 20
        # Each state made by an answer names its seat and think time, as the room logged.
        logged = [(e.event.seat, round(e.event.think * 1000)) for e in room.log.entries
                  if e.observers and isinstance(e.event, StateChanged)
                  and e.event.think is not None]
        assert logged and all(seat in (0, 1) for seat, _ms in logged)
        shown = [(t["seat"], t["ms"]) for t in (st["think"] for st in states) if t]
        assert shown == logged  # the result's state repeats none


async def test_blokus_states_name_the_team_that_thought() -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.0, seed=1)
        await finished(room)
        teams = {c: i for i, t in enumerate(blokus.TEAMS) for c in blokus.COLORS
                 if blokus.team_of(c) == t}
        for entry in room.log.entries:
            event = entry.event
            if isinstance(event, StateChanged) and event.think is not None:
                # The seat that answered plays the colour of the move it made.
                assert event.seat == teams[event.views.public.last_move.color]
