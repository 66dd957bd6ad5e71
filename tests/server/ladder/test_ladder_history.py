"""GET /api/ladder/{game}/history (issue #30): each bot's rating after each of its rated
games, oldest first, led by its start, in the standings' order; `limit` keeps the last games
of each bot. The games are written into the store directly (`finish`), the ladder itself is
not started."""

from __future__ import annotations

import asyncio

from server.store.ladder import LadderStore
from tests.server.ladder.conftest import BLOKUS, Running
from tests.server.ladder.test_ladder_batch import finish


async def test_the_history_follows_every_rated_game_of_each_bot(running: Running) -> None:
    store = running.store
    ladder = LadderStore(store)
    strong = store.create_bot("strong", BLOKUS, ["true"]).id
    weak = store.create_bot("weak", BLOKUS, ["true"]).id
    assert strong is not None and weak is not None

    empty = (await running.http.get(f"/api/ladder/{BLOKUS}/history")).json()
    assert empty["game"] == BLOKUS and empty["limit"] == 200
    assert {b["bot"]: b["points"] for b in empty["bots"]}["strong"] == []

    outcomes = ["win", "win", "draw", "win", "loss", "win"]

    def play() -> None:
        for outcome in outcomes:
            finish(store, ladder, strong, weak, outcome)

    await asyncio.to_thread(play)
    answer = await running.http.get(f"/api/ladder/{BLOKUS}/history")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    standings = (await running.http.get(f"/api/ladder/{BLOKUS}")).json()["standings"]
    assert [b["bot"] for b in body["bots"]] == [s["bot"] for s in standings]
    bots = {b["bot"]: b for b in body["bots"]}
    assert bots["greedy"]["points"] == [] and bots["greedy"]["games"] == 0

    for name, mine in (("strong", outcomes),
                       ("weak", [{"win": "loss", "loss": "win"}.get(o, o) for o in outcomes])):
        line = bots[name]
        points = line["points"]
        assert line["games"] == len(outcomes) and len(points) == len(outcomes) + 1
        start, *games = points
        assert start["game"] == 0 and start["at"] is None and start["match_id"] is None
        assert start["rating"] == round(ladder.mu - 3 * ladder.sigma, 3)  # unrated
        assert [p["game"] for p in games] == list(range(1, len(outcomes) + 1))
        assert [p["outcome"] for p in games] == mine
        assert [p["at"] for p in games] == sorted(p["at"] for p in games)
        assert all(p["match_id"] for p in games)
        last = next(s for s in standings if s["bot"] == name)
        assert games[-1]["rating"] == last["rating"]
        assert games[-1]["mu"] == last["mu"] and games[-1]["sigma"] == last["sigma"]
    # The winner's rating went up with each of its wins.
    strong_points = bots["strong"]["points"]
    assert strong_points[1]["rating"] > strong_points[0]["rating"]

    # `limit`: the last games, led by the rating the first of them started from.
    short = (await running.http.get(f"/api/ladder/{BLOKUS}/history",
                                    params={"limit": 2})).json()
    points = {b["bot"]: b["points"] for b in short["bots"]}["strong"]
    full = bots["strong"]["points"]
    assert [p["game"] for p in points] == [4, 5, 6]
    assert points[0]["rating"] == full[4]["rating"] and points[0]["at"] is None
    assert points[1:] == full[5:]


async def test_the_history_refuses_an_unknown_game_and_a_bad_limit(running: Running) -> None:
    client = running.http
    unknown = await client.get("/api/ladder/chess/history")
    assert unknown.status_code in (404, 422), unknown.text
    assert "chess" in unknown.json()["detail"]
    for limit in ("0", "5001", "x"):
        bad = await client.get(f"/api/ladder/{BLOKUS}/history", params={"limit": limit})
        assert bad.status_code == 422, (limit, bad.text)
    alias = await client.get("/api/ladder/blokus/history")
    assert alias.status_code == 200 and alias.json()["game"] == BLOKUS
