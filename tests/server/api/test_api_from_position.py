"""Matches that start from a position (issue #29): from turn N of a stored match, bots
that play the original moves again end in the same final state and result as the
original; a Blokus match also starts from an official replay file. Bad requests are a
422 naming the field, with nothing started and nothing stored."""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import sys
from pathlib import Path
from typing import Any

import httpx

from games import hearth
from protocols.sc.blokus import state_key
from server.games.blokus.record import rebuild
from tests.server.api.conftest import AUTH, BOTS, REPO, Running, running, wait_settled
from tests.server.net.test_kettle_mid_turn_choice import kit_game

__all__ = ["running"]

BLOKUS = "swc_2027_blokus"


async def _events(http: httpx.AsyncClient, match_id: str) -> list[dict[str, Any]]:
    got = await http.get(f"/api/matches/{match_id}/events", params={"limit": 10_000},
                         headers=AUTH)
    assert got.status_code == 200, got.text
    return [json.loads(line) for line in got.text.splitlines()]


async def _register(http: httpx.AsyncClient, name: str, game: str, script: str,
                    moves: Path) -> None:
    response = await http.post("/api/bots", headers=AUTH, json={
        "name": name, "game": game, "command": [sys.executable, str(BOTS / script)],
        "workdir": str(REPO), "env": {"GAUNTLET_REPLAY_MOVES": str(moves)}})
    assert response.status_code == 201, response.text


async def _play(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    created = await http.post("/api/matches", headers=AUTH, json=body)
    assert created.status_code == 201, created.text
    return await wait_settled(http, created.json()["id"])


def _blokus_states(events: list[dict[str, Any]]) -> list[Any]:
    """Each stored state of a Blokus match, rebuilt from its records."""
    states, state = [], None
    for e in events:
        if "blokus" in e["payload"]:
            state = rebuild(state, e["payload"]["blokus"])
            states.append(state)
    return states


def _result(match: dict[str, Any]) -> tuple[Any, ...]:
    r = match["result"]
    return r["winner"], r["reason"], r["scores"]


async def _blokus_original(running: Running, tmp_path: Path) -> tuple[dict[str, Any],
                                                                      list[dict[str, Any]]]:
    """A finished greedy-vs-random match, and the replay bots' file of its moves."""
    original = await _play(running.http, {"game": BLOKUS, "seed": 3, "seats": [
        {"bot": "greedy"}, {"bot": "random"}]})
    events = await _events(running.http, original["id"])
    moves, before = {}, None
    for state in _blokus_states(events):
        if before is not None and state is not before:
            record = next(e["payload"]["blokus"] for e in events
                          if e["payload"].get("blokus", {}).get("turn") == state.turn)
            moves[str(before.turn)] = record["move"]
        before = state
    path = tmp_path / "blokus-moves.json"
    path.write_text(json.dumps(moves))
    await _register(running.http, "replay-a", BLOKUS, "replay_blokus_bot.py", path)
    await _register(running.http, "replay-b", BLOKUS, "replay_blokus_bot.py", path)
    return original, events


async def test_a_blokus_match_from_turn_n_ends_as_the_original(running: Running,
                                                                tmp_path: Path) -> None:
    original, events = await _blokus_original(running, tmp_path)
    turn = 11
    again = await _play(running.http, {"game": "blokus", "seats": [
        {"bot": "replay-a"}, {"bot": "replay-b"}], "from": {"match": original["id"],
                                                            "turn": turn}})
    assert again["options"]["from"] == {"match": original["id"], "turn": turn, "rng": "same"}
    assert _result(again) == _result(original)
    stored = await _events(running.http, again["id"])
    assert state_key(_blokus_states(stored)[-1]) == state_key(_blokus_states(events)[-1])
    # Its log starts at the position: the state before decision `turn` of the original.
    decision = [e["seq"] for e in events if e["kind"] == "decision"][turn]
    position = [e for e in events if e["seq"] < decision and "blokus" in e["payload"]][-1]
    first = next(e["payload"]["blokus"] for e in stored if "blokus" in e["payload"])
    assert first["turn"] == position["payload"]["blokus"]["turn"] and first["moves"]
    replay = await running.http.get(f"/api/matches/{again['id']}/replay", headers=AUTH)
    assert replay.status_code == 200 and f'turn="{first["turn"]}"' in replay.text
    # The seats swapped: seat 0 of the request plays the position's seat 1.
    swapped = await _play(running.http, {"game": BLOKUS, "seats": [
        {"bot": "replay-a"}, {"bot": "replay-b"}], "from": {"match": original["id"],
                                                            "turn": turn, "swap": True}})
    assert [s["name"] for s in swapped["seats"]] == ["replay-b", "replay-a"]
    assert _result(swapped) == _result(original)


async def test_a_blokus_match_from_an_official_replay_file(running: Running,
                                                           tmp_path: Path) -> None:
    original, events = await _blokus_original(running, tmp_path)
    got = await running.http.get(f"/api/matches/{original['id']}/replay", headers=AUTH)
    assert got.status_code == 200, got.text
    for source in ({"replay": got.text},
                   {"replay_gzip": base64.b64encode(gzip.compress(got.content)).decode()}):
        again = await _play(running.http, {"game": BLOKUS, "seats": [
            {"bot": "replay-a"}, {"bot": "replay-b"}], "from": {**source, "turn": 30}})
        assert _result(again) == _result(original)
        stored = await _events(running.http, again["id"])
        first = _blokus_states(stored)[0]
        # As the official --loadGameFile --turn: the first memento with turn >= 30.
        assert first.turn == min(s.turn for s in _blokus_states(events) if s.turn >= 30)
        assert state_key(_blokus_states(stored)[-1]) == state_key(_blokus_states(events)[-1])


def _action(move: list[Any]) -> hearth.Action:
    kind, entity, target, position, cards = move
    return hearth.Action(hearth.Kind(kind), entity, target, position, tuple(cards))


def _answers(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["payload"]["answer"] | {"seq": e["seq"]} for e in events
            if e["kind"] == "state" and "answer" in e["payload"]]


def _replayed(seed: int, answers: list[dict[str, Any]]) -> hearth.State:
    game = hearth.new_game(seed=seed, decks=hearth.DEFAULT_DECKS)
    for answer in answers:
        game.apply(_action(answer["move"]), player=answer["seat"] + 1)
    return game


async def _hearth_again(running: Running, tmp_path: Path, original: dict[str, Any],
                        turn: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                        list[dict[str, Any]], dict[str, Any]]:
    """A Hearth match from turn `turn` of `original`, finished, its two seats bots that
    play the original's answers after the position: the original's events, its answers
    before and after the position, and the new match."""
    events = await _events(running.http, original["id"])
    answers = _answers(events)
    decision = [e["seq"] for e in events if e["kind"] == "decision"][turn]
    before = [a for a in answers if a["seq"] < decision]
    after = [a for a in answers if a["seq"] > decision]
    path = tmp_path / "hearth-answers.json"
    path.write_text(json.dumps(after))
    await _register(running.http, "replay-hearth", "hearth", "replay_hearth_bot.py", path)
    again = await _play(running.http, {"game": "hearth", "seats": [
        {"bot": "replay-hearth"}, {"bot": "replay-hearth"}],
        "from": {"match": original["id"], "turn": turn}})
    return events, before, after, again


async def test_a_hearth_match_from_turn_n_ends_as_the_original(running: Running,
                                                                tmp_path: Path) -> None:
    original = await _play(running.http, {"game": "hearth", "seed": 21, "seats": [
        {"bot": "hearth-greedy"}, {"bot": "hearth-random"}]})
    turn = 9
    events, before, after, again = await _hearth_again(running, tmp_path, original, turn)
    assert again["seed"] == 21 and again["options"]["from"]["rng"] == "same"
    assert _result(again) == _result(original)
    stored = await _events(running.http, again["id"])
    replayed = _answers(stored)
    assert [a["move"] for a in replayed] == [a["move"] for a in after]
    final = _replayed(21, before + replayed)
    assert final.is_over and final.hash() == _replayed(21, before + after).hash()
    # Its first news is the whole history up to the position, as the original told it.
    decision = [e["seq"] for e in events if e["kind"] == "decision"][turn]
    told = [entry for e in events if e["kind"] == "state" and e["seq"] < decision
            for entry in e["payload"]["public"]]
    first = next(e for e in stored if e["kind"] == "state")
    assert first["payload"]["public"] == told

    # Fresh randomness: the same position, its random stream reseeded (and stored).
    fresh = await _play(running.http, {"game": "hearth", "seed": 77, "seats": [
        {"bot": "hearth-random"}, {"bot": "hearth-random"}],
        "from": {"match": original["id"], "turn": turn, "rng": "fresh"}})
    assert fresh["seed"] == 77 and fresh["options"]["from"]["seed"] == 77
    assert fresh["result"] is not None
    refused = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seed": 77, "seats": [{"bot": "hearth-random"}] * 2,
        "from": {"match": original["id"], "turn": turn}})
    assert refused.status_code == 422 and refused.json()["detail"].startswith("seed:")


async def _total(http: httpx.AsyncClient) -> int:
    listed = await http.get("/api/matches", headers=AUTH)
    total: int = listed.json()["total"]
    return total


async def test_bad_positions_are_a_422_naming_the_field(running: Running) -> None:
    http = running.http
    hearth_match = await _play(http, {"game": "hearth", "seed": 5, "seats": [
        {"bot": "hearth-random"}, {"bot": "hearth-random"}]})
    decisions = sum(e["kind"] == "decision" for e in await _events(http, hearth_match["id"]))
    count = await _total(http)
    seats = [{"bot": "random"}, {"bot": "random"}]
    cases = [
        ({"match": "no-such-match", "turn": 0}, "from.match", BLOKUS, seats),
        ({"match": hearth_match["id"], "turn": 0}, "from.match", BLOKUS, seats),
        ({"match": hearth_match["id"], "turn": decisions}, "from.turn", "hearth",
         [{"bot": "hearth-random"}, {"bot": "hearth-random"}]),
        ({"replay": "<protocol><room roomId='x'><data class='result'/></room></protocol>",
          "turn": 0}, "from.replay", BLOKUS, seats),
        ({"replay": "this is no replay", "turn": 0}, "from.replay", BLOKUS, seats),
        ({"replay_gzip": base64.b64encode(b"\x1f\x8bnot gzip").decode(), "turn": 0},
         "from.replay", BLOKUS, seats),
    ]
    for origin, field, game, chosen in cases:
        response = await http.post("/api/matches", headers=AUTH, json={
            "game": game, "seats": chosen, "from": origin})
        assert response.status_code == 422, (origin, response.text)
        assert response.json()["detail"].startswith(field), (origin, response.text)
    assert await _total(http) == count  # nothing stored
    assert not running.server.lobby.rooms  # nothing started


async def test_a_hearth_match_two_clients_joined_with_their_decks_is_a_starting_point(
        running: Running, tmp_path: Path) -> None:
    """Two Kettle clients made the match themselves (`queue_player`, each with a deck of
    its own): its seed and decks are stored, so it starts a match from a position, and bots
    playing its answers again end it as it ended."""
    from bots.hearth import GreedyBot, RandomBot
    from games.hearth import decks

    hunter, priest = decks.named("hunter").pair(), decks.named("priest").pair()
    async with asyncio.timeout(120):
        await asyncio.gather(kit_game(running.tcp_port, GreedyBot(3), hunter),
                             kit_game(running.tcp_port, RandomBot(4), priest))
    [listed] = (await running.http.get("/api/matches", headers=AUTH)).json()["items"]
    original = await wait_settled(running.http, listed["id"])
    assert original["seed"] is not None
    assert original["options"]["decks"] == {
        "0": {"hero": hunter[0], "cards": list(hunter[1])},
        "1": {"hero": priest[0], "cards": list(priest[1])}}
    *_, after, again = await _hearth_again(running, tmp_path, original, 7)
    assert _result(again) == _result(original)
    replayed = _answers(await _events(running.http, again["id"]))
    assert [a["move"] for a in replayed] == [a["move"] for a in after]
