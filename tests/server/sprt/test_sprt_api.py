"""Sequential tests over the HTTP API on a real server with an SQLite file: greedy against
random decides H1, the stored pairs are two swapped games of one seed each, the figures
are the statistics of those pairs, a stop ends a test, and bad requests get a 4xx."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from server.store.engine import make_engine
from stats import llr, pair_index
from tests.server.ladder.conftest import AUTH, BLOKUS, Running, running, wait_until

__all__ = ["running"]


async def _ended(http: httpx.AsyncClient, test_id: int, timeout: float) -> dict[str, Any]:
    async def check() -> dict[str, Any] | None:
        answer = (await http.get(f"/api/tests/{test_id}")).json()
        return answer if answer["status"] != "running" else None

    found: dict[str, Any] = await wait_until(check, timeout, f"test {test_id} to end", 0.3)
    return found


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_greedy_against_random_accepts_h1_from_stored_pairs(running: Running) -> None:
    http = running.http
    answer = await http.post("/api/tests", headers=AUTH, json={
        "game": BLOKUS, "a": "greedy", "b": "random", "elo0": 0, "elo1": 50,
        "concurrency": 2, "seed": 11})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    assert created["status"] == "running" and created["seed"] == 11
    test = await _ended(http, created["id"], 240)
    assert test["status"] == "h1", test
    assert test["llr"] >= test["upper"] and test["decided_at"] <= 300
    assert test["elo"] > 50 and test["stopped_elo"] is not None

    pairs = (await http.get(f"/api/tests/{test['id']}/pairs", headers=AUTH)).json()
    counted = sorted((p for p in pairs if p["status"] == "counted"),
                     key=lambda p: p["position"])
    assert [p["position"] for p in counted] == list(range(test["pairs"]))
    assert {p["status"] for p in pairs} <= {"counted", "cancelled"}
    assert test["cancelled"] == sum(p["status"] == "cancelled" for p in pairs)
    # The figures are the statistics of the stored pairs, in the stored order.
    counts = [0] * 5
    for pair in counted:
        counts[pair_index(*pair["results"])] += 1
    assert counts == test["pentanomial"]
    assert llr(counts, 0, 50) == pytest.approx(test["llr"])
    assert len(test["history"]) == len(counted) + 1
    assert test["history"][-1] == [test["games"], pytest.approx(test["llr"], abs=1e-4)]

    # Each pair: two finished matches of one seed, the candidate in seat 0, then seat 1.
    engine = make_engine(running.store.url)
    try:
        with engine.connect() as c:
            for pair in counted:
                rows = c.execute(sa.text(
                    "SELECT m.id, m.seed, s.\"index\", s.display_name, s.outcome FROM matches m "
                    "JOIN seats s ON s.match_id = m.id WHERE m.id IN (:a, :b) "
                    "AND m.status = 'finished'"),
                    {"a": pair["matches"][0], "b": pair["matches"][1]}).all()
                assert len(rows) == 4, pair
                assert {r[1] for r in rows} == {pair["seed"]}
                for game, match_id in enumerate(pair["matches"]):
                    seat = next(r for r in rows if r[0] == match_id and r[2] == game)
                    assert seat[3] == "greedy"
                    assert {"win": "W", "draw": "D", "loss": "L"}[seat[4]] == \
                        pair["results"][game]
    finally:
        engine.dispose()

    listed = (await http.get("/api/tests")).json()
    assert listed["total"] == 1 and listed["items"][0]["id"] == test["id"]
    assert listed["items"][0]["seed"] is None  # the admin's only
    assert listed["items"][0]["history"] is None


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_a_stopped_test_ends_and_starts_no_more_games(running: Running) -> None:
    http = running.http
    answer = await http.post("/api/tests", headers=AUTH, json={
        "game": BLOKUS, "a": "random", "b": "greedy", "elo0": -5, "elo1": 0,
        "alpha": 0.001, "beta": 0.001, "seed": 3})
    assert answer.status_code == 201, answer.text
    test_id = answer.json()["id"]

    async def one_pair() -> bool:
        return bool((await http.get(f"/api/tests/{test_id}")).json()["pairs"] >= 1)

    await wait_until(one_pair, 120, "a counted pair", 0.3)
    stopped = (await http.post(f"/api/tests/{test_id}/stop", headers=AUTH)).json()
    assert stopped["status"] == "stopped" and stopped["reason"]
    assert stopped["playing"] == 0
    pairs = (await http.get(f"/api/tests/{test_id}/pairs")).json()
    assert {p["status"] for p in pairs} <= {"counted", "cancelled"}
    again = (await http.post(f"/api/tests/{test_id}/stop", headers=AUTH)).json()
    assert again["status"] == "stopped" and again["pairs"] == stopped["pairs"]
    # Its task is gone (no pair is started any more).
    assert running.server.sprt is not None and test_id not in running.server.sprt.live
    # The stop cancelled the match being played: it is over, not left running.
    open_ = (await http.get("/api/matches?status=running")).json()["total"]
    assert open_ == 0


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"game": "chess", "a": "greedy", "b": "random"}, 404, "unknown game"),
    ({"game": BLOKUS, "a": "nobody", "b": "random"}, 404, "a: no registered bot"),
    ({"game": BLOKUS, "a": "greedy", "b": "greedy"}, 422, "two different bots"),
    ({"game": BLOKUS, "a": "greedy", "b": "hearth-random"}, 422, "plays hearth"),
    ({"game": BLOKUS, "a": "greedy", "b": "random", "elo0": 5, "elo1": 0}, 422, "elo0"),
    ({"game": BLOKUS, "a": "greedy", "b": "random", "alpha": 0.7}, 422, "alpha"),
    ({"game": BLOKUS, "a": "greedy", "b": "random", "model": "bayeselo"}, 422, "model"),
    ({"game": BLOKUS, "a": "greedy", "b": "random", "max_games": 1}, 422, "max_games"),
    ({"game": BLOKUS, "a": ["x"], "b": "random"}, 422, "a"),
    ({"game": BLOKUS, "a": "greedy", "b": "random", "extra": 1}, 422, "extra"),
])
async def test_a_bad_test_is_refused_and_nothing_is_stored(
        running: Running, body: dict[str, Any], status: int, says: str) -> None:
    answer = await running.http.post("/api/tests", headers=AUTH, json=body)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["detail"]
    assert (await running.http.get("/api/tests")).json()["total"] == 0


async def test_the_tests_routes_need_the_token_to_change_and_name_what_is_missing(
        running: Running) -> None:
    http = running.http
    body = {"game": BLOKUS, "a": "greedy", "b": "random"}
    assert (await http.post("/api/tests", json=body)).status_code == 401
    assert (await http.post("/api/tests/1/stop")).status_code == 401
    missing = await http.get("/api/tests/999")
    assert missing.status_code == 404 and "no test 999" in missing.json()["detail"]
    assert (await http.get("/api/tests/999/pairs")).status_code == 404
    assert (await http.post("/api/tests/999/stop", headers=AUTH)).status_code == 404
    assert (await http.get("/api/tests/0")).status_code == 422
    assert (await http.get("/api/tests?status=maybe")).status_code == 422


async def test_a_test_with_openings_plays_each_pair_from_its_opening(
        running: Running) -> None:
    """An opening book: pair k from opening k mod n, both games from the same position with
    the seats swapped; an opening that does not rebuild is a 422 naming it, nothing stored."""
    http = running.http
    created = await http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seats": [{"bot": "greedy"}, {"bot": "random"}]})
    source = created.json()["id"]

    async def finished() -> bool:
        body = (await http.get(f"/api/matches/{source}")).json()
        return bool(body["status"] == "finished" and not body["live"])

    await wait_until(finished, 120, "the source match", 0.1)
    openings = [{"match": source, "turn": 5}, {"match": source, "turn": 10}]
    refused = await http.post("/api/tests", headers=AUTH, json={
        "game": BLOKUS, "a": "greedy", "b": "random",
        "openings": [*openings, {"match": source, "turn": 100_000}]})
    assert refused.status_code == 422 and "openings[2]: from.turn" in refused.json()["detail"]
    assert (await http.get("/api/tests")).json()["total"] == 0

    answer = await http.post("/api/tests", headers=AUTH, json={
        "game": BLOKUS, "a": "greedy", "b": "random", "elo0": 0, "elo1": 50,
        "max_games": 8, "concurrency": 2, "openings": openings})
    assert answer.status_code == 201, answer.text
    assert answer.json()["openings"] == openings
    test = await _ended(http, answer.json()["id"], 240)
    pairs = (await http.get(f"/api/tests/{test['id']}/pairs", headers=AUTH)).json()
    counted = [p for p in pairs if p["status"] == "counted"]
    assert len(counted) >= 2, pairs
    for pair in counted:
        opening = openings[pair["pair"] % len(openings)]
        firsts = []
        for game, match_id in enumerate(pair["matches"]):
            match = (await http.get(f"/api/matches/{match_id}")).json()
            assert match["options"]["from"] == {**opening, "rng": "same"}, match
            assert match["seats"][game]["name"] == "greedy"
            events = (await http.get(f"/api/matches/{match_id}/events", headers=AUTH,
                                     params={"limit": 10})).text
            firsts.append(next(e["payload"]["blokus"] for e in map(json.loads,
                                                                 events.splitlines())
                               if "blokus" in (e["payload"] or {})))
        # Both games of the pair start from the same stored position, with its moves.
        assert firsts[0] == firsts[1] and len(firsts[0]["moves"]) >= opening["turn"] // 2
