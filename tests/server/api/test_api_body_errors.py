"""A body that is not what the API wants is answered in words a person understands (issue
#30): bad JSON with its line and column, a body without its Content-Type, an array."""

from __future__ import annotations

import pytest

from tests.server.api.conftest import AUTH, Running, running

__all__ = ["running"]


@pytest.mark.parametrize(("content", "headers", "detail"), [
    (b'{"game": "blokus",\n "seats": [}', {"Content-Type": "application/json"},
     "body: the body is not valid JSON: Expecting value at line 2, column 12"),
    (b'{"game": "blokus", "seats": [{"name": "a"}, {"name": "b"}]}', {},
     "body: send the body as JSON with Content-Type: application/json (it came without one)"),
    (b'{"game": "blokus", "seats": [{"name": "a"}, {"name": "b"}]}',
     {"Content-Type": "text/plain"},
     "body: send the body as JSON with Content-Type: application/json (it came as "
     "'text/plain')"),
    (b"[1, 2]", {"Content-Type": "application/json"},
     "body: the body must be a JSON object ({...})"),
    (b"", {"Content-Type": "application/json"}, "body: the body is empty: send a JSON object"),
])
async def test_a_bad_body_is_named_in_words(running: Running, content: bytes,
                                             headers: dict[str, str], detail: str) -> None:
    answer = await running.http.post("/api/matches", content=content,
                                     headers={**AUTH, **headers})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == detail


async def test_a_field_error_still_names_its_field(running: Running) -> None:
    answer = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "blokus", "seats": [{"name": "a", "bot": "b"}, {"name": "c"}]})
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("body.seats.0: give exactly one of")
