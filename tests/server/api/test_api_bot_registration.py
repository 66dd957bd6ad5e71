"""Registering a bot (issue #30): a kit bot as `gauntlet play` takes it (`my_bot.py:MyBot`),
run with the server's own Python, and nothing registered that could never start."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.server.api.conftest import AUTH, Running, running, wait_status

__all__ = ["running"]

MY_BOT = '''from bots.blokus import Bot

class MyBot(Bot):
    def move(self, state):
        return max(state.legal_moves(), key=lambda move: len(move.cells))
'''


async def test_a_kit_bot_by_file_plays_with_the_servers_python(running: Running,
                                                                tmp_path: Path) -> None:
    (tmp_path / "my_bot.py").write_text(MY_BOT, encoding="utf-8")
    made = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "mine", "game": "blokus", "bot": "my_bot.py:MyBot",
        "workdir": str(tmp_path)})
    assert made.status_code == 201, made.text
    assert made.json()["command"] == [sys.executable, "-m", "bots.blokus",
                                      f"{(tmp_path / 'my_bot.py').resolve()}:MyBot"]
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "blokus", "seats": [{"bot": "mine"}, {"bot": "random"}], "seed": 2})
    assert created.status_code == 201, created.text
    done = await wait_status(running.http, created.json()["id"], {"finished"})
    mine = next(s for s in done["seats"] if s["name"] == "mine")
    assert mine["failure"] is None and mine["outcome"] in ("win", "draw", "loss"), done


@pytest.mark.parametrize(("body", "says"), [
    ({"bot": "/nowhere/my_bot.py:MyBot"}, "bot: no file '/nowhere/my_bot.py'"),
    ({"bot": "my_bot.py:MyBot"}, "relative: give an absolute path or a workdir"),
    ({"bot": "{dir}/my_bot.py:Missing"}, "does not load"),
    ({"bot": "no_such_module_here:Bot"}, "does not load"),
    ({"command": ["no-such-program-here"]}, "command[0]: no program 'no-such-program-here' "
                                            "on the server's PATH"),
    ({"command": ["/nowhere/bin/bot"]}, "command[0]: no program '/nowhere/bin/bot'"),
    ({"command": ["{dir}/my_bot.py"]}, "is not executable"),
    ({"command": ["true"], "workdir": "/nowhere/at/all"}, "workdir: no folder"),
    ({"command": ["true"], "bot": "greedy"}, "exactly one of `command`"),
    ({}, "exactly one of `command`"),
])
async def test_a_bot_that_could_never_start_is_refused(
        running: Running, tmp_path: Path, body: dict[str, object], says: str) -> None:
    (tmp_path / "my_bot.py").write_text(MY_BOT, encoding="utf-8")
    filled = {k: ([x.replace("{dir}", str(tmp_path)) for x in v] if isinstance(v, list)
                  else str(v).replace("{dir}", str(tmp_path))) for k, v in body.items()}
    made = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "mine", "game": "swc_2027_blokus", **filled})
    assert made.status_code == 422, made.text
    assert says in made.json()["detail"]
    names = [b["name"] for b in (await running.http.get("/api/bots")).json()]
    assert "mine" not in names


async def test_a_bundled_kit_name_and_a_hearth_kit_bot_register(running: Running) -> None:
    made = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "greedy-2", "game": "blokus", "bot": "greedy"})
    assert made.status_code == 201, made.text
    assert made.json()["command"][-2:] == ["bots.blokus", "greedy"]
    hearth = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "hg-2", "game": "hearth", "bot": "hearth-greedy"})
    assert hearth.status_code == 201, hearth.text
    assert hearth.json()["command"][-2:] == ["bots.hearth", "hearth-greedy"]
