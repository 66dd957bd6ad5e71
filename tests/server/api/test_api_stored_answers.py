"""Every applied answer is in the stored event log (issue #29's foundation): with the seed,
a stored Hearth match replays move by move on the engine to the same end; the answers are
hidden from the public while the match is live, like the history they explain."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from games import hearth
from tests.server.api.conftest import AUTH, Running, running, wait_status

__all__ = ["running"]

WAIT = 60.0


async def _events(running: Running, match_id: str, admin: bool) -> list[dict[str, Any]]:
    got = await running.http.get(f"/api/matches/{match_id}/events",
                                 params={"limit": 10_000}, headers=AUTH if admin else {})
    assert got.status_code == 200, got.text
    return [json.loads(line) for line in got.text.splitlines()]


def _action(move: list[Any]) -> hearth.Action:
    kind, entity, target, position, cards = move
    return hearth.Action(hearth.Kind(kind), entity, target, position, tuple(cards))


async def test_a_hearth_match_replays_from_its_stored_answers(running: Running) -> None:
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seed": 21, "seats": [{"bot": "hearth-greedy"},
                                                {"bot": "hearth-random"}]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    done = await wait_status(running.http, match_id, {"finished"})
    events = await _events(running, match_id, admin=True)
    answers = [e["payload"]["answer"] for e in events
               if e["kind"] == "state" and "answer" in e["payload"]]
    decisions = [e for e in events if e["kind"] == "decision"]
    assert len(answers) == len(decisions) > 10  # every decision was answered and kept
    game = hearth.new_game(seed=21, decks=hearth.DEFAULT_DECKS)
    for answer in answers:
        game.apply(_action(answer["move"]), player=answer["seat"] + 1)
    assert game.is_over
    winner_seat = next(s["index"] for s in done["seats"] if s["outcome"] == "win")
    assert game.winner == winner_seat + 1


async def test_the_answers_are_not_public_before_the_end(running: Running) -> None:
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seed": 22, "paused": True,
        "seats": [{"bot": "hearth-greedy"}, {"bot": "hearth-random"}]})
    match_id = created.json()["id"]
    await wait_status(running.http, match_id, {"paused"})
    async with asyncio.timeout(WAIT):
        while True:  # step until the admin's log holds an answer (one per step)
            stepped = await running.http.post(f"/api/matches/{match_id}/step", headers=AUTH)
            assert stepped.status_code == 202, stepped.text
            if any("answer" in e["payload"] for e in await _events(running, match_id, True)):
                break
    live = await _events(running, match_id, admin=False)
    assert live and not any("answer" in e["payload"] for e in live)
    resumed = await running.http.post(f"/api/matches/{match_id}/resume", headers=AUTH)
    assert resumed.status_code == 202, resumed.text
    await wait_status(running.http, match_id, {"finished"})
    # Finished, and no other match shares the seed: shown to everyone.
    assert any("answer" in e["payload"] for e in await _events(running, match_id, False))
