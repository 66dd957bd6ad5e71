"""The web viewer names no game: each game's package brings its viewer module and style
sheet, served under /games/<id>/, and /games.json says which games there are."""

from __future__ import annotations

from server.games.blokus import PLUGIN as BLOKUS
from tests.server.api.conftest import Running


async def test_games_json_lists_each_game_with_its_viewer(running: Running) -> None:
    client = running.http
    listed = (await client.get("/games.json")).json()
    by_id = {game["id"]: game for game in listed}
    assert by_id["swc_2027_blokus"] == {"id": "swc_2027_blokus", "name": "Blokus",
                                        "viewer": "/games/swc_2027_blokus/viewer.js",
                                        "style": "/games/swc_2027_blokus/viewer.css",
                                        "seats": 2, "positions": True, "freshRng": False}
    assert by_id["hearth"]["name"] == "Hearth"
    assert by_id["hearth"]["positions"] and by_id["hearth"]["freshRng"]  # its draws
    for game in by_id.values():
        module = await client.get(game["viewer"])
        assert module.status_code == 200
        assert module.headers["content-type"].startswith("text/javascript")
        assert "export function render(" in module.text
        style = await client.get(game["style"])
        assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert BLOKUS.viewer is not None
    served = await client.get("/games/swc_2027_blokus/viewer.js")
    assert served.text == BLOKUS.viewer.read_text(encoding="utf-8")


async def test_no_viewer_for_an_unknown_game_or_file(running: Running) -> None:
    client = running.http
    for path in ("/games/chess/viewer.js", "/games/hearth/viewer.py",
                 "/games/hearth/viewer.json", "/games/../viewer.js"):
        assert (await client.get(path)).status_code == 404, path
