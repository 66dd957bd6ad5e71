"""HTTP API garbage against a real server (`http_port=0`): no 500, no hang.

What the API does *not* limit is recorded in docs/reliability.md (request body size: a
10 MB body is read whole before it is refused).
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from server.config import ServerConfig
from server.runtime import GauntletServer

TOKEN = "t0ken-for-tests"
MB = 1 << 20
GAME = "swc_2027_blokus"


def cases() -> dict[str, tuple[str, str, dict[str, str], bytes | None]]:
    json_type = {"content-type": "application/json"}
    return {
        "oversized_match_body": ("POST", "/api/matches", json_type,
                                 b'{"game": "' + b"A" * (10 * MB) + b'", "seats": []}'),
        "oversized_bot_body": ("POST", "/api/bots", json_type, b"[" + b"1," * (5 * MB) + b"1]"),
        "wrong_content_type": ("POST", "/api/matches", {"content-type": "text/plain"},
                               b'{"game": "' + GAME.encode() + b'", "seats": []}'),
        "form_content_type": ("POST", "/api/matches",
                              {"content-type": "application/x-www-form-urlencoded"}, b"game=x"),
        "not_json": ("POST", "/api/matches", json_type, b"{not json"),
        "deep_json": ("POST", "/api/matches", json_type, b"[" * 100_000 + b"]" * 100_000),
        "deep_json_object": ("POST", "/api/bots", json_type, b'{"a":' * 50_000 + b"1"
                             + b"}" * 50_000),
        "unknown_fields": ("POST", "/api/matches", json_type,
                           b'{"game": "' + GAME.encode() + b'", "seats": [{"name": "a"},'
                           b' {"name": "b"}], "evil": 1, "__proto__": {}}'),
        "huge_integer_seed": ("POST", "/api/matches", json_type,
                              b'{"game": "' + GAME.encode() + b'", "seats": [{"name": "a"},'
                              b' {"name": "b"}], "seed": 1' + b"0" * 5000 + b"}"),
        "huge_integer_seed_4000": ("POST", "/api/matches", json_type,
                                   b'{"game": "' + GAME.encode() + b'", "seats": [{"name": "a"},'
                                   b' {"name": "b"}], "seed": 1' + b"0" * 4000 + b"}"),
        "nan_seed": ("POST", "/api/matches", json_type,
                     b'{"game": "' + GAME.encode() + b'", "seats": [], "seed": NaN}'),
        "negative_limit": ("GET", "/api/matches?limit=-1", {}, None),
        "negative_offset": ("GET", "/api/matches?offset=-5", {}, None),
        "huge_offset": ("GET", "/api/matches?offset=" + "9" * 5000, {}, None),
        "huge_events_limit": ("GET", "/api/matches/x/events?limit=" + "9" * 100, {}, None),
        "lone_surrogate_path": ("GET", "/api/matches/%ED%A0%80", {}, None),
    }


@pytest.fixture
async def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path)
    async with GauntletServer(config, http_port=0, admin_token=TOKEN) as srv:
        yield srv


async def test_http_garbage_never_gets_a_500(server: GauntletServer) -> None:
    statuses: dict[str, int] = {}
    base = f"http://127.0.0.1:{server.http_port}"
    auth = {"authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=base, timeout=30.0) as client:
        for name, (method, path, headers, body) in cases().items():
            response = await client.request(method, path, headers={**auth, **headers},
                                            content=body)
            statuses[name] = response.status_code
        health = await client.get("/api/health")
    print("HTTP statuses:", statuses)
    assert health.status_code == 200
    errors = {name: status for name, status in statuses.items() if status >= 500}
    assert errors == {}
