"""A seat's `bot` is a name when it is a JSON string and an id when it is a JSON integer, so a
bot named "1" can be addressed (issue #24, point 14b)."""

from __future__ import annotations

from typing import Any

from tests.server.api.conftest import AUTH, Running, register, wait_status

BLOKUS = "swc_2027_blokus"


async def create(running: Running, bot: Any) -> Any:
    return await running.http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seats": [{"bot": bot}, {"bot": "random"}]})


async def test_a_bot_named_like_a_number_is_found_by_its_name(running: Running) -> None:
    bots = {b["name"]: b["id"] for b in (await running.http.get("/api/bots")).json()}
    numbered = await register(running.http, "1", ["/bin/sh", "-c", "exit 7"])
    assert numbered != 1 and 1 in bots.values()  # id 1 is another bot (a bundled one)
    by_name = await create(running, "1")
    assert by_name.status_code == 201, by_name.text
    assert [s["bot"] for s in by_name.json()["seats"]] == ["1", "random"]
    by_id = await create(running, bots["greedy"])
    assert by_id.status_code == 201, by_id.text
    assert [s["bot"] for s in by_id.json()["seats"]] == ["greedy", "random"]
    for match in (by_name, by_id):
        await wait_status(running.http, match.json()["id"], {"finished"})
    # A query is text: a name first, an id when no bot has that name.
    listed = (await running.http.get("/api/matches", params={"bot": "1"})).json()
    assert [m["id"] for m in listed["items"]] == [by_name.json()["id"]]
    greedy = (await running.http.get("/api/matches",
                                     params={"bot": str(bots["greedy"])})).json()
    assert [m["id"] for m in greedy["items"]] == [by_id.json()["id"]]


async def test_only_strings_and_integers_name_a_bot(running: Running) -> None:
    for bot in (True, 1.0, -1, 2**63, [1], {"id": 1}):
        refused = await create(running, bot)
        assert refused.status_code == 422, (bot, refused.text)
    missing = await create(running, 10**6)
    assert missing.status_code == 404 and "1000000" in missing.json()["detail"]


async def test_an_unknown_bot_filter_is_an_error_naming_the_known_ones(running: Running) -> None:
    refused = await running.http.get("/api/matches", params={"bot": "gredy"})
    assert refused.status_code == 422, refused.text
    detail = refused.json()["detail"]
    assert "bot: no registered bot 'gredy'" in detail and "greedy" in detail
