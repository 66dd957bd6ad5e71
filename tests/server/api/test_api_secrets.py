"""What an unauthenticated caller may read: no seat log, no bot's command or environment
values, no live match's seed, nothing a match still to be played can be derived from
(issue 24, points 3 to 5)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx

from games import hearth
from server.games.hearth import HearthGame
from server.rooms import Room
from server.runtime import GauntletServer
from server.store.ladder import LadderStore
from tests.server.api.conftest import AUTH, Running, start, stop, wait_status
from tests.server.server_testkit import InProcessSeat
from tests.server.spectate.spectate_kit import finished, read

SEED = 4_242_424_242
HIDDEN = ("public", "spectateFull", "hsreplay")


async def test_seat_logs_and_bot_details_need_the_admin_token(running: Running) -> None:
    client = running.http
    workdir = running.server.config.data_dir / "home-me-bot"
    workdir.mkdir(parents=True, exist_ok=True)
    made = await client.post("/api/bots", headers=AUTH, json={
        "name": "keyed", "game": "swc_2027_blokus", "command": [sys.executable, "bot.py"],
        "workdir": str(workdir), "env": {"LLM_API_KEY": "sk-very-secret"}})
    assert made.status_code == 201, made.text
    bot_id = made.json()["id"]
    for path in ("/api/bots", f"/api/bots/{bot_id}"):
        anyone = await client.get(path)
        assert anyone.status_code == 200
        assert "sk-very-secret" not in anyone.text and str(workdir) not in anyone.text
        body = anyone.json()
        mine = next(b for b in body if b["id"] == bot_id) if isinstance(body, list) else body
        assert mine["env_names"] == ["LLM_API_KEY"]
        assert mine["env"] is None and mine["command"] is None and mine["workdir"] is None
        admin = (await client.get(path, headers=AUTH)).text
        assert "sk-very-secret" in admin and str(workdir) in admin

    created = await client.post("/api/matches", headers=AUTH, json={
        "game": "swc_2027_blokus", "seats": [{"bot": "random"}, {"bot": "random"}]})
    match_id = created.json()["id"]
    log = f"/api/matches/{match_id}/seats/0/log"
    assert (await client.get(log)).status_code == 401
    assert (await client.get(log, headers={"Authorization": "Bearer wrong"})).status_code == 401
    async with asyncio.timeout(60):
        while (await client.get(log, headers=AUTH)).status_code != 200:
            await asyncio.sleep(0.1)
    assert (await client.get(log)).status_code == 401
    await wait_status(client, match_id, {"finished"})


def _kettle_seats(server: GauntletServer, codes: list[str]) -> None:
    """Fill a Hearth match's reserved seats with in-process players (random moves)."""
    rng = random.Random(1)
    lobby = server.lobby
    for code in codes:
        seat = InProcessSeat(lambda d: rng.choice(d.payload.actions))
        lobby.seated(lobby.join_prepared(seat, code, protocol="kettle"))


async def _hearth_match(client: httpx.AsyncClient, seed: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "hearth", "seats": [{"name": "a"}, {"name": "b"}]}
    if seed is not None:
        body["seed"] = seed
    created = await client.post("/api/matches", headers=AUTH, json=body)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


async def _seeds(client: httpx.AsyncClient, match_id: str,
                 headers: dict[str, str] | None = None) -> tuple[Any, Any]:
    """The seed as the match list and the match's own page show it."""
    listed = (await client.get("/api/matches", params={"game": "hearth", "limit": 500},
                               headers=headers)).json()["items"]
    detail = (await client.get(f"/api/matches/{match_id}", headers=headers)).json()
    return next(m["seed"] for m in listed if m["id"] == match_id), detail["seed"]


def _payloads(ndjson: str) -> list[dict[str, Any]]:
    return [json.loads(line)["payload"] for line in ndjson.splitlines()]


async def _played(server: GauntletServer, client: httpx.AsyncClient,
                  match: dict[str, Any]) -> None:
    _kettle_seats(server, [s["reservation"] for s in match["seats"]])
    room = server.lobby.rooms.get(match["id"])
    if room is not None:
        await finished(room)
    await wait_status(client, match["id"], {"finished"})
    assert server.writer is not None
    await server.writer.flush()


async def test_a_live_matchs_seed_is_the_admins_until_it_has_ended(tmp_path: Path) -> None:
    server, client, store, _ = await start(tmp_path)
    try:
        match = await _hearth_match(client, SEED)
        match_id = match["id"]
        assert await _seeds(client, match_id) == (None, None)
        assert await _seeds(client, match_id, AUTH) == (SEED, SEED)
        events = (await client.get(f"/api/matches/{match_id}/events")).text
        assert str(SEED) not in events

        await _played(server, client, match)
        assert await _seeds(client, match_id) == (SEED, SEED)
        after = _payloads((await client.get(f"/api/matches/{match_id}/events")).text)
        assert any("public" in p for p in after)
    finally:
        await stop(server, client, store)


async def test_a_finished_match_keeps_its_secrets_while_its_seed_is_in_play(
        tmp_path: Path) -> None:
    """A ladder round's second leg is the first one's deal with the seats swapped: the
    first leg's seed and history would give it away."""
    server, client, store, _ = await start(tmp_path)
    try:
        first = await _hearth_match(client, SEED)
        await _played(server, client, first)
        second = await _hearth_match(client, SEED)  # waits: nobody takes its seats
        url = f"http://127.0.0.1:{server.http_port}"
        ws = f"ws://127.0.0.1:{server.http_port}/ws/matches/{first['id']}?since=0"

        async def shown() -> tuple[Any, bool, int, bool]:
            seeds = await _seeds(client, first["id"])
            assert seeds[0] == seeds[1]
            events = _payloads((await client.get(f"/api/matches/{first['id']}/events")).text)
            hidden = any(key in p for p in events for key in HIDDEN)
            replay = (await client.get(f"{url}/api/matches/{first['id']}/replay")).status_code
            stream = await read(ws)
            return seeds[0], hidden, replay, stream.messages[0]["full"]

        assert await shown() == (None, False, 403, False)
        admin = (await client.get(f"/api/matches/{first['id']}/replay", headers=AUTH))
        assert admin.status_code == 200

        cancelled = await client.post(f"/api/matches/{second['id']}/cancel", headers=AUTH)
        assert cancelled.status_code == 202
        await wait_status(client, second["id"], {"cancelled"})
        assert await shown() == (SEED, True, 200, True)

        # A ladder leg still queued with that seed hides it again.
        bots = {b["name"]: b["id"] for b in (await client.get("/api/bots")).json()}
        ladder = LadderStore(store)
        await asyncio.to_thread(ladder.add_round, "hearth", bots["hearth-random"],
                                bots["hearth-greedy"], SEED)
        assert (await shown())[:3] == (None, False, 403)
    finally:
        await stop(server, client, store)


def _deal(state: Any) -> list[list[tuple[int, str]]]:
    """Both opening hands, entity ids and cards: what the shuffles decided."""
    return [[(c["entity"], c["card"]) for c in state.observation(q)["you"]["hand"]]
            for q in (1, 2)]


def test_a_match_without_a_seed_draws_one_no_search_finds() -> None:
    """32 bits are few enough to search offline from a player's own opening hand and its
    entity ids; 63 bits from `secrets` are not."""
    seeds = [HearthGame().seed for _ in range(16)]
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(s.bit_length() for s in seeds) > 48


async def test_nothing_a_spectator_sees_reproduces_the_deal(running: Running) -> None:
    """The seed is no function of the match id, the times, the entity ids or small ints."""
    client = running.http
    match = await _hearth_match(client, None)
    room: Room = running.server.lobby.rooms[match["id"]]
    game = room.game
    assert isinstance(game, HearthGame)
    actual = _deal(hearth.new_game(seed=game.seed, decks=game.decks))
    detail = (await client.get(f"/api/matches/{match['id']}")).json()
    assert detail["seed"] is None
    visible: set[int] = set(range(0, 4096))
    ident = uuid.UUID(match["id"]).int
    visible |= {ident, ident >> 64, ident & (2**64 - 1), ident & (2**63 - 1), ident >> 96,
                ident & (2**32 - 1), int(match["id"].split("-")[0], 16)}
    from datetime import datetime

    created = datetime.fromisoformat(detail["created"]).timestamp()
    visible |= {int(created) + d for d in range(-5, 6)}
    visible |= {int(created * 1000) + d for d in range(-2000, 2001)}
    for candidate in visible:
        assert _deal(hearth.new_game(seed=candidate, decks=game.decks)) != actual, candidate
    await client.post(f"/api/matches/{match['id']}/cancel", headers=AUTH)
