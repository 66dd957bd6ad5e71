"""POST /api/matches with a deck per Hearth seat (issue #27): a deck code, a class deck's
name or {hero, cards}; a deck the game does not take is a 422 naming the card and the
rule. A real server, its HTTP app over a socket."""

from __future__ import annotations

from games.hearth import DEFAULT_DECKS, decks
from tests.server.api.conftest import AUTH, Running, wait_status

MAGE, WARRIOR = DEFAULT_DECKS


async def test_each_seat_plays_the_deck_it_names(running: Running) -> None:
    client = running.http
    code = decks.Deck.from_ids(*WARRIOR).code
    created = await client.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seats": [
            {"name": "a", "deck": code},
            {"name": "b", "deck": {"hero": MAGE[0], "cards": list(MAGE[1])}}]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    game = running.server.lobby.rooms[match_id].game
    assert game.decks == (decks.Deck.from_code(code).pair(), MAGE)  # type: ignore[attr-defined]
    await client.post(f"/api/matches/{match_id}/cancel", headers=AUTH)
    await wait_status(client, match_id, {"cancelled", "aborted"})


async def test_bots_play_a_match_with_decks(running: Running) -> None:
    client = running.http
    created = await client.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seed": 4, "seats": [
            {"bot": "hearth-greedy", "deck": "\n".join([WARRIOR[0], *WARRIOR[1]])},
            {"bot": "hearth-random", "deck": decks.Deck.from_ids(*WARRIOR).code}]})
    assert created.status_code == 201, created.text
    done = await wait_status(client, created.json()["id"], {"finished", "aborted"}, 120)
    assert done["status"] == "finished", done


async def test_a_bad_deck_is_a_422_naming_the_card_and_the_rule(running: Running) -> None:
    client = running.http

    async def refused(deck: object, seat: int = 1, game: str = "hearth") -> str:
        seats: list[dict[str, object]] = [{"name": "a"}, {"name": "b"}]
        seats[seat]["deck"] = deck
        answer = await client.post("/api/matches", headers=AUTH,
                                   json={"game": game, "seats": seats})
        assert answer.status_code == 422, answer.text
        detail: str = answer.json()["detail"]
        return detail

    two_ragnaros = {"hero": MAGE[0], "cards": ["EX1_298", "EX1_298", *MAGE[1][2:]]}
    assert await refused(two_ragnaros) == (
        "seats[1].deck: EX1_298 (Ragnaros the Firelord): 2 copies; a deck holds at most 1 "
        "copy of a legendary")
    axe = {"hero": MAGE[0], "cards": [*MAGE[1][:-1], "CS2_106"]}
    assert await refused(axe, seat=0) == (
        "seats[0].deck: CS2_106 (Fiery War Axe) is a Warrior card; a Mage deck holds Mage "
        "and neutral cards")
    assert (await refused("wizard")).startswith("seats[1].deck: no class deck 'wizard'")
    assert "does not read" in await refused("AAEC!!")
    assert (await refused("mage", game="blokus")) == "seats[1].deck: swc_2027_blokus takes no decks"
    # The body's shape is pydantic's 422 (a list of errors), as for any other field.
    shaped = await client.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seats": [{"name": "a", "deck": {"hero": "HERO_08"}}, {"name": "b"}]})
    assert shaped.status_code == 422
