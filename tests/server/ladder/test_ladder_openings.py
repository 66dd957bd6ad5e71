"""Ladder openings (issue #29: a match from a position counts in the ladder only when the
ladder asks for it): `PUT /api/ladder/{game}/openings` names stored positions; round k
starts from opening k mod n, both legs alike with the seats swapped, and every leg is
rated. A match from a position made through `POST /api/matches` is never rated; an
opening that does not rebuild is a 422 naming it, and nothing changes."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.server.ladder.conftest import AUTH, BLOKUS, HEARTH, Running, wait_until

ROUNDS = 3


async def played(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    """A match made through the API, finished."""
    created = await client.post("/api/matches", headers=AUTH, json=body)
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]

    async def finished() -> dict[str, Any] | None:
        found: dict[str, Any] = (await client.get(f"/api/matches/{match_id}")).json()
        return found if found["status"] == "finished" and not found["live"] else None

    done: dict[str, Any] = await wait_until(finished, 120, f"match {match_id}", every=0.1)
    return done


async def events(client: httpx.AsyncClient, match_id: str) -> list[dict[str, Any]]:
    answer = await client.get(f"/api/matches/{match_id}/events", headers=AUTH,
                              params={"limit": 10_000})
    return [json.loads(line) for line in answer.text.splitlines()]


async def position_turn(client: httpx.AsyncClient, match_id: str, decision: int) -> int:
    """The Blokus turn of the stored position before the match's decision `decision`."""
    found = await events(client, match_id)
    seq = [e["seq"] for e in found if e["kind"] == "decision"][decision]
    state = [e for e in found if e["seq"] < seq and "blokus" in (e["payload"] or {})][-1]
    turn: int = state["payload"]["blokus"]["turn"]
    return turn


def legs(running: Running, game: str) -> list[dict[str, Any]]:
    with running.store.engine.connect() as c:
        import sqlalchemy as sa

        rows = c.execute(sa.text(
            "SELECT round, leg, bot_a, bot_b, seed, start, match_id, status "
            "FROM ladder_pairings WHERE game = :g ORDER BY id"), {"g": game}).mappings()
        return [{**r, "start": json.loads(r["start"]) if isinstance(r["start"], str)
                 else r["start"]} for r in rows]


async def test_ladder_rounds_start_from_the_openings_and_are_rated(running: Running) -> None:
    client = running.http
    original = await played(client, {"game": BLOKUS, "seats": [{"bot": "greedy"},
                                                                {"bot": "random"}]})
    hearth = await played(client, {"game": HEARTH, "seats": [{"bot": "hearth-greedy"},
                                                              {"bot": "hearth-random"}]})
    openings = [{"match": original["id"], "turn": 8}, {"match": original["id"], "turn": 13}]

    # Refused, each naming the opening and what is wrong; nothing changes.
    url = f"/api/ladder/{BLOKUS}/openings"
    for bad, words in (
            ([*openings, {"match": "no-such-match", "turn": 3}], "openings[2]: from.match"),
            ([{"match": original["id"], "turn": 10_000}], "openings[0]: from.turn"),
            ([{"match": hearth["id"], "turn": 3}], "is a hearth match")):
        refused = await client.put(url, headers=AUTH, json={"openings": bad})
        assert refused.status_code == 422, refused.text
        assert words in refused.json()["detail"], refused.text
    for garbage in ({"openings": [{"match": original["id"]}]}, {"openings": "x"},
                    {"openings": [{"match": original["id"], "turn": -1}]}, {}):
        assert (await client.put(url, headers=AUTH, json=garbage)).status_code == 422
    assert (await client.put(url, json={"openings": openings})).status_code == 401
    assert (await client.get(f"/api/ladder/{BLOKUS}")).json()["openings"] == []

    answer = await client.put(url, headers=AUTH, json={"openings": openings})
    assert answer.status_code == 200, answer.text
    assert answer.json()["openings"] == openings
    hearth_opening = [{"match": hearth["id"], "turn": 4}]
    answer = await client.put(f"/api/ladder/{HEARTH}/openings", headers=AUTH,
                              json={"openings": hearth_opening})
    assert answer.status_code == 200, answer.text

    # A match from a position made through the API: played, never rated.
    outside = await played(client, {"game": BLOKUS, "seats": [{"bot": "greedy"},
                                                               {"bot": "random"}],
                                    "from": {"match": original["id"], "turn": 8}})

    for game in (BLOKUS, HEARTH):
        assert (await client.post(f"/api/ladder/{game}/start", headers=AUTH)).status_code == 200

    async def enough() -> bool:
        return all(sum(leg["status"] == "done" for leg in legs(running, g)) >= 2 * ROUNDS
                   for g in (BLOKUS, HEARTH))

    await wait_until(enough, 300, f"{ROUNDS} rounds of each game", every=0.5)
    for game in (BLOKUS, HEARTH):
        await client.post(f"/api/ladder/{game}/stop", headers=AUTH)

    turns = {o["turn"]: await position_turn(client, original["id"], o["turn"])
             for o in openings}
    assert len(set(turns.values())) == 2
    done = [leg for leg in legs(running, BLOKUS) if leg["status"] == "done"]
    for leg in done:
        # Round k from opening k mod n; both legs of it alike.
        assert leg["start"] == openings[(leg["round"] - 1) % len(openings)], leg
        match = (await client.get(f"/api/matches/{leg['match_id']}")).json()
        assert match["options"]["from"] == {**leg["start"], "rng": "same"}, match
        # Its log starts at the opening's position.
        first = next(e["payload"]["blokus"] for e in await events(client, leg["match_id"])
                     if "blokus" in (e["payload"] or {}))
        assert first["turn"] == turns[leg["start"]["turn"]]
        assert running.server.ladder is not None
        assert running.server.ladder.ladder.is_rated(leg["match_id"])
    by_round: dict[int, list[dict[str, Any]]] = {}
    for leg in done:
        by_round.setdefault(leg["round"], []).append(leg)
    pairs = [r for r in by_round.values() if len(r) == 2]
    assert len(pairs) >= ROUNDS - 1
    for one, two in pairs:
        assert (one["bot_a"], one["bot_b"]) == (two["bot_b"], two["bot_a"])
        assert one["start"] == two["start"] and one["seed"] == two["seed"]

    # Hearth draws what follows the position fresh from the round's seed: both legs of a
    # round the same, another round another.
    hearth_done = [leg for leg in legs(running, HEARTH) if leg["status"] == "done"]
    seeds = set()
    for leg in hearth_done:
        assert leg["start"] == hearth_opening[0]
        match = (await client.get(f"/api/matches/{leg['match_id']}")).json()
        origin = match["options"]["from"]
        assert origin == {**hearth_opening[0], "rng": "fresh", "seed": leg["seed"]}, origin
        seeds.add(leg["seed"])
    assert len(seeds) == len({leg["round"] for leg in hearth_done}) >= ROUNDS

    assert running.server.ladder is not None
    assert not running.server.ladder.ladder.is_rated(outside["id"])
