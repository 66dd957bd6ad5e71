"""A registered bot's default deck (issue #27): `POST /api/bots` takes a `deck`, checked as
a seat's; a seat that names no deck plays its bot's, a seat's own deck wins, and the ladder
(whose seats name bots only) plays them too. A real server, its HTTP app over a socket."""

from __future__ import annotations

from typing import Any

from games.hearth import DEFAULT_DECKS, decks
from server.matches import MatchService, SeatRequest
from tests.server.api.conftest import AUTH, Running, wait_status

MAGE, WARRIOR = DEFAULT_DECKS


async def _register(running: Running, name: str, deck: object) -> Any:
    listed = (await running.http.get("/api/bots", headers=AUTH)).json()
    greedy = next(b for b in listed if b["name"] == "hearth-greedy")
    return await running.http.post("/api/bots", headers=AUTH, json={
        "name": name, "game": "hearth", "command": greedy["command"], "deck": deck})


async def test_a_seat_without_a_deck_plays_its_bots_deck(running: Running) -> None:
    made = await _register(running, "greedy-warrior", "warrior")
    assert made.status_code == 201, made.text
    assert made.json()["deck"] == "warrior"
    listed = (await running.http.get("/api/bots")).json()  # no token: the deck is public
    assert next(b for b in listed if b["name"] == "greedy-warrior")["deck"] == "warrior"
    warrior = decks.named("warrior").pair()
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seed": 3, "seats": [{"bot": "greedy-warrior"},
                                               {"bot": "greedy-warrior", "deck": "mage"}]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    game = running.server.lobby.rooms[match_id].game
    assert game.decks == (warrior, decks.named("mage").pair())  # type: ignore[attr-defined]
    done = await wait_status(running.http, match_id, {"finished", "aborted"}, 120)
    assert done["status"] == "finished", done


async def test_the_ladders_matches_play_the_bots_decks(running: Running) -> None:
    """The ladder creates its matches as `create_match` with bot seats only."""
    code = decks.Deck.from_ids(*WARRIOR).code
    assert (await _register(running, "coded", code)).status_code == 201
    service: MatchService = running.server.matches
    room, _seats = await service.create_match(
        "hearth", [SeatRequest(bot="hearth-random"), SeatRequest(bot="coded")], seed=5)
    default = room.game.decks[0]  # type: ignore[attr-defined]
    assert room.game.decks == (default, decks.Deck.from_code(code).pair())  # type: ignore[attr-defined]
    done = await wait_status(running.http, room.id, {"finished", "aborted"}, 120)
    assert done["status"] == "finished", done


async def test_a_bad_default_deck_is_refused_at_registration(running: Running) -> None:
    two_ragnaros = {"hero": MAGE[0], "cards": ["EX1_298", "EX1_298", *MAGE[1][2:]]}
    refused = await _register(running, "bad", two_ragnaros)
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"] == (
        "deck: EX1_298 (Ragnaros the Firelord): 2 copies; a deck holds at most 1 copy of a "
        "legendary")
    assert (await _register(running, "bad", "wizard")).json()["detail"].startswith(
        "deck: no class deck 'wizard'")
    blokus = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "bad", "game": "blokus", "command": ["true"], "deck": "mage"})
    assert blokus.status_code == 422
    assert blokus.json()["detail"] == "deck: swc_2027_blokus takes no decks"
    assert all(b["name"] != "bad" for b in (await running.http.get("/api/bots")).json())
