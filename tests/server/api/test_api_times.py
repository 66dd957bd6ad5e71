"""Times are when things happened (issue #30): a match created paused started when its game
began, not when it was resumed; a match starts before its result; each event keeps the
time it was logged, not its commit group's."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tests.server.api.conftest import AUTH, Running, running, wait_settled, wait_status

__all__ = ["running"]


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_a_paused_match_started_when_its_game_began(running: Running) -> None:
    http = running.http
    created = await http.post("/api/matches", headers=AUTH, json={
        "game": "blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}], "paused": True,
        "seed": 4})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    paused = await wait_status(http, match_id, {"paused"})
    assert paused["started"] is not None  # both joined: the game began, paused
    resumed_at = datetime.now(UTC)
    assert (await http.post(f"/api/matches/{match_id}/resume", headers=AUTH)).is_success
    done = await wait_settled(http, match_id)
    assert _time(done["started"]) == _time(paused["started"]) < resumed_at
    assert _time(done["started"]) <= _time(done["finished"])


async def test_each_event_keeps_the_time_it_was_logged(running: Running) -> None:
    http = running.http
    created = await http.post("/api/matches", headers=AUTH, json={
        "game": "blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}], "seed": 5})
    match_id = created.json()["id"]
    done = await wait_settled(http, match_id)
    lines = (await http.get(f"/api/matches/{match_id}/events", headers=AUTH)).text
    events = [json.loads(line) for line in lines.splitlines()]
    times = [_time(e["time"]) for e in events]
    assert len(times) > 50
    assert times == sorted(times)  # in seq order
    # A commit group holds many events; one time for all of them was the bug. (Times are
    # to the millisecond: a move's state and its next decision request may share one.)
    assert len(set(times)) > len(times) // 4, times
    started, finished = _time(done["started"]), _time(done["finished"])
    assert _time(done["created"]) <= started <= finished
    # The game began at its first welcome (event times are to the millisecond), and its
    # result was logged before it was committed; the room's close comes after that.
    welcome = next(t for t, e in zip(times, events, strict=True) if e["kind"] == "welcome")
    assert welcome <= started < welcome + timedelta(milliseconds=1)
    result = next(t for t, e in zip(times, events, strict=True) if e["kind"] == "result")
    assert result <= finished
