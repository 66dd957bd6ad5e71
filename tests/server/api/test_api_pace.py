"""A paced match for people watching (issue #30): `clocks.min_move_time` of an API match,
and the ladder's `min_move_time`, keep each decision at least that far from the one before
(a lower bound: a loaded machine only makes the gaps longer)."""

from __future__ import annotations

import itertools
import json
from datetime import datetime

from server.ladder import LadderOptions
from server.ladder.scheduler import Ladder
from tests.server.api.conftest import AUTH, Running, running, wait_settled

__all__ = ["running"]

PACE = 0.05


def _decision_times(lines: str) -> list[datetime]:
    events = [json.loads(line) for line in lines.splitlines()]
    return [datetime.fromisoformat(e["time"].replace("Z", "+00:00")) for e in events
            if e["kind"] == "decision"]


async def test_a_paced_match_asks_no_sooner_than_its_pace(running: Running) -> None:
    http = running.http
    created = await http.post("/api/matches", headers=AUTH, json={
        "game": "blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}], "seed": 6,
        "clocks": {"min_move_time": PACE}})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    done = await wait_settled(http, match_id)
    assert done["status"] == "finished"
    times = _decision_times((await http.get(f"/api/matches/{match_id}/events",
                                            headers=AUTH)).text)
    assert len(times) > 20
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    # Event times are to the millisecond: a gap of 50 ms reads 49 ms at worst.
    assert min(gaps) >= PACE - 0.002, gaps


def test_matches_are_not_paced_unless_asked(running: Running) -> None:
    assert running.server.lobby.clocks.min_move_time == 0


def test_the_ladder_paces_its_legs_with_the_servers_other_clocks(running: Running) -> None:
    lobby_clocks = running.server.lobby.clocks
    ladder = Ladder(running.server.matches, running.store, running.server.games,
                    LadderOptions(min_move_time=0.3))
    clocks = ladder._clocks()
    assert clocks is not None and clocks.min_move_time == 0.3
    assert (clocks.soft, clocks.hard, clocks.turn) == (lobby_clocks.soft, lobby_clocks.hard,
                                                       lobby_clocks.turn)
    assert Ladder(running.server.matches, running.store, running.server.games)._clocks() \
        is None
