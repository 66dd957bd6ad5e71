"""`gauntlet ask` (issue #29): a stored match read through the API, a bot asked again here
as a fresh process: a registered bot or a kit bot with the original seat's seed gives the
stored answer; `--bisect` finds the first decision at which a changed bot differs; bad
requests are one `error:` line, nothing started."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from server.cli import app
from tests.bots.server_thread import TOKEN, Served, served_server

REPO = Path(__file__).resolve().parents[2]
BOTS = REPO / "tests" / "server" / "api" / "bots"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SEED = 7  # the greedy bots' own seed (--seed), the original seat's and the asked one's
CHANGED_AT = 3  # the changed bots' own decision that differs (tests/server/api/bots)
GAMES = {"blokus": ("swc_2027_blokus", "bots.blokus", "ask_blokus.py", "random"),
         "hearth": ("hearth", "bots.hearth", "ask_hearth.py", "hearth-random")}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    yield from served_server(tmp_path)


def gauntlet(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"GAUNTLET_ADMIN_TOKEN": TOKEN,
                                                      "COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def _kit_bot(game: str, name: str) -> str:
    return f"{BOTS / GAMES[game][2]}:{name}"


def _events(api: str, match_id: str) -> list[dict[str, Any]]:
    got = httpx.get(f"{api}/api/matches/{match_id}/events", params={"limit": 10_000},
                    headers=AUTH, timeout=30)
    assert got.status_code == 200, got.text
    return [json.loads(line) for line in got.text.splitlines()]


def _played(served: Served, game: str, seed: int) -> str:
    """A finished match, seat 0 the registered greedy bot `ask-greedy` (its --seed SEED)."""
    game_id, module, _file, opponent = GAMES[game]
    registered = httpx.post(f"{served.api}/api/bots", headers=AUTH, timeout=30, json={
        "name": "ask-greedy", "game": game_id, "workdir": str(REPO), "command": [
            sys.executable, "-m", module, _kit_bot(game, "RecordingGreedy"),
            "--seed", str(SEED)]})
    assert registered.status_code == 201, registered.text
    created = httpx.post(f"{served.api}/api/matches", headers=AUTH, timeout=30, json={
        "game": game_id, "seed": seed, "seats": [{"bot": "ask-greedy"}, {"bot": opponent}]})
    assert created.status_code == 201, created.text
    match_id: str = created.json()["id"]
    deadline = time.monotonic() + 120
    while not any(e["kind"] == "closed" for e in _events(served.api, match_id)):
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.1)
    return match_id


def _mine(api: str, match_id: str, seat: int = 0) -> list[int]:
    decisions = [e["payload"]["seat"] for e in _events(api, match_id) if e["kind"] == "decision"]
    return [n for n, s in enumerate(decisions) if s == seat]


def test_a_registered_bot_and_a_kit_bot_asked_again_give_the_stored_answer(
        served: Served) -> None:
    match_id = _played(served, "blokus", 31)
    turn = _mine(served.api, match_id)[2]
    code, out, err = gauntlet("ask", match_id, "--seat", "0", "--turn", str(turn),
                              "--bot", "ask-greedy", "--api", served.api, "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["same"] is True and body["turn"] == turn and body["failure"] is None
    assert body["answer"] == body["stored"] and body["think_ms"] >= 0
    # A kit bot, given the original seat's seed; the text form prints both answers.
    code, out, err = gauntlet("ask", match_id[:8], "--seat", "0", "--turn", str(turn),
                              "--bot", _kit_bot("blokus", "RecordingGreedy"),
                              "--bot-seed", str(SEED), "--api", served.api)
    assert code == 0, err
    assert f"decision {turn}" in out and out.rstrip().endswith("same"), out
    assert json.dumps(body["answer"]) in out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bisect_finds_the_decision_where_the_bot_changed(served: Served, game: str) -> None:
    match_id = _played(served, game, 32)
    mine = _mine(served.api, match_id)
    code, out, err = gauntlet("ask", match_id, "--seat", "0", "--bisect",
                              "--bot", "ask-greedy", "--bot", _kit_bot(game, "ChangedGreedy"),
                              "--bot-seed", str(SEED), "--api", served.api, "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["turn"] == mine[CHANGED_AT], body
    assert body["answers"][0] == body["stored"] != body["answers"][1]
    assert body["compared"] == len(mine) and body["failures"] == [None, None]


def test_what_cannot_be_asked_is_one_error_line(served: Served) -> None:
    match_id = _played(served, "blokus", 33)
    decisions = len(_events_of_kind(served.api, match_id, "decision"))
    theirs = _mine(served.api, match_id, seat=1)[0]
    cases = [
        (["--turn", str(decisions), "--bot", "ask-greedy"], "error: turn:", 1),
        (["--turn", str(theirs), "--bot", "ask-greedy"], "error: turn:", 1),
        (["--turn", "0", "--bot", "no-such-bot"], "error: unknown bot", 2),
        (["--bisect", "--bot", "ask-greedy"], "error: --bisect takes two bots", 2),
    ]
    for extra, start, exit_code in cases:
        code, _out, err = gauntlet("ask", match_id, "--seat", "0", *extra, "--api",
                                   served.api)
        assert code == exit_code, (extra, err)
        assert err.startswith(start) and len(err.strip().splitlines()) == 1, (extra, err)
    listed = httpx.get(f"{served.api}/api/matches", timeout=30).json()["items"]
    assert [m["id"] for m in listed] == [match_id]  # nothing was stored


def _events_of_kind(api: str, match_id: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in _events(api, match_id) if e["kind"] == kind]


def test_a_hearth_match_from_a_position_is_asked_again_from_the_terminal(
        served: Served) -> None:
    """The match it came from is read over the API too: the position is rebuilt from it."""
    first = _played(served, "hearth", 34)
    created = httpx.post(f"{served.api}/api/matches", headers=AUTH, timeout=30, json={
        "game": "hearth", "seats": [{"bot": "ask-greedy"}, {"bot": "hearth-random"}],
        "from": {"match": first, "turn": 6}})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    deadline = time.monotonic() + 120
    while not any(e["kind"] == "closed" for e in _events(served.api, match_id)):
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.1)
    turn = _mine(served.api, match_id)[-1]
    code, out, err = gauntlet("ask", match_id, "--seat", "0", "--turn", str(turn),
                              "--bot", "ask-greedy", "--api", served.api, "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["same"] is True and body["failure"] is None, body
