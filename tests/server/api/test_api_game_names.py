"""One set of game names everywhere (issue #30): every `game` field, filter and path takes
a game's id or its alias, as the command line does; an unknown one is refused with the
accepted names, never answered with an empty list."""

from __future__ import annotations

import pytest

from tests.server.ladder.conftest import AUTH, BLOKUS, Running, running

__all__ = ["running"]


async def test_the_alias_names_the_game_in_bodies_filters_and_paths(running: Running) -> None:
    http = running.http
    games = {g["id"]: g for g in (await http.get("/api/games")).json()}
    assert games[BLOKUS]["aliases"] == ["blokus"]
    by_alias = (await http.get("/api/bots?game=blokus")).json()
    assert {b["name"] for b in by_alias} == {"greedy", "random"}
    assert by_alias == (await http.get(f"/api/bots?game={BLOKUS}")).json()
    created = await http.post("/api/matches", headers=AUTH, json={
        "game": "blokus", "seats": [{"name": "a"}, {"name": "b"}]})
    assert created.status_code == 201, created.text
    assert created.json()["game"] == BLOKUS
    listed = (await http.get("/api/matches?game=blokus")).json()
    assert [m["id"] for m in listed["items"]] == [created.json()["id"]]
    bot = await http.post("/api/bots", headers=AUTH, json={
        "name": "mine", "game": "blokus", "command": ["true"]})
    assert bot.status_code == 201 and bot.json()["game"] == BLOKUS
    ladder = await http.get("/api/ladder/blokus")
    assert ladder.status_code == 200 and ladder.json()["game"] == BLOKUS
    assert (await http.get("/api/tests?game=blokus")).json()["total"] == 0


@pytest.mark.parametrize("path", ["/api/matches?game=chess", "/api/bots?game=chess",
                                  "/api/tests?game=chess"])
async def test_an_unknown_game_filter_is_a_422_naming_the_known_ones(
        running: Running, path: str) -> None:
    answer = await running.http.get(path)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == \
        "game: unknown game 'chess'; known: hearth, swc_2027_blokus (blokus)"


async def test_an_unknown_game_in_a_body_names_the_known_ones(running: Running) -> None:
    answer = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "x", "game": "chess", "command": ["true"]})
    assert answer.status_code == 422
    assert "swc_2027_blokus (blokus)" in answer.json()["detail"]
    match = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "chess", "seats": [{"name": "a"}, {"name": "b"}]})
    assert match.status_code == 404 and "known: hearth, swc_2027_blokus (blokus)" in \
        match.json()["detail"]
