"""`gauntlet play`: a series over TCP whose summary adds up, with seats swapped."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from bots_testkit import PASSWORD, WAIT
from typer.testing import CliRunner

from server.cli import app
from server.config import ServerConfig
from server.runtime import GauntletServer
from server.series import GameRecord, bot_seed, summarise


def check_document(document: dict, games: int, labels: list[str]) -> None:
    """Everything a summary claims, recomputed from the per-game records."""
    records = document["games"]
    assert len(records) == games and [r["index"] for r in records] == list(range(games))
    for record in records:
        assert record["error"] is None
        assert sorted(record["seats"]) == sorted(labels)
        # Even games: A is team ONE; odd games: B is.
        assert record["seats"][0] == labels[record["index"] % 2]
    summary = {s["label"]: s for s in document["summary"]}
    assert list(summary) == labels
    for label in labels:
        s = summary[label]
        assert s["games"] == games
        assert s["wins"] + s["draws"] + s["losses"] == games
        assert s["as_team_one"] == ((games + 1) // 2 if label == labels[0] else games // 2)
        assert s["wins"] == sum(1 for r in records if r["winner"] == label)
        assert s["draws"] == sum(1 for r in records if r["winner"] is None)
        points = [r["points"][r["seats"].index(label)] for r in records]
        assert s["mean_points"] == pytest.approx(sum(points) / games, abs=1e-3)
        assert s["timeouts"] == sum(1 for r in records if r["violator"] == label
                                    and r["cause"] in ("SOFT_TIMEOUT", "HARD_TIMEOUT"))
    a, b = (summary[label] for label in labels)
    assert a["wins"] == b["losses"] and a["losses"] == b["wins"] and a["draws"] == b["draws"]


def test_play_random_against_greedy(tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", "random", "greedy", "--games", "4", "--concurrency", "2",
        "--seed", "7", "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    check_document(document, 4, ["random", "greedy"])
    assert document["server"].startswith("in-process")
    table = result.stdout
    assert "4 games" in table and "random" in table and "greedy" in table
    greedy = next(s for s in document["summary"] if s["label"] == "greedy")
    row = next(line for line in table.splitlines() if "greedy" in line)
    assert f"{greedy['mean_points']:.1f}" in row


@pytest.fixture
def external_server(tmp_path: Path) -> Iterator[int]:
    """A server running in its own thread and event loop, as `gauntlet serve` would."""
    started = threading.Event()
    stop: list[asyncio.Event] = []
    port: list[int] = []

    async def serve() -> None:
        config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=tmp_path)
        async with GauntletServer(config) as server:
            stop.append(asyncio.Event())
            port.append(server.tcp_port)
            started.set()
            await stop[0].wait()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(WAIT)
    try:
        yield port[0]
    finally:
        loop.call_soon_threadsafe(stop[0].set)
        thread.join(WAIT)
        loop.close()


def test_play_uses_a_running_server(external_server: int, tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    (tmp_path / "admin-password").write_text(PASSWORD + "\n")
    result = CliRunner().invoke(app, [
        "play", "blokus", "random", "random", "-n", "2", "--port", str(external_server),
        "--data-dir", str(tmp_path), "--json", str(out), "--seed", "1"])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    assert document["server"] == f"127.0.0.1:{external_server}"
    check_document(document, 2, ["random (A)", "random (B)"])


def test_play_with_a_wrong_admin_password(external_server: int) -> None:
    result = CliRunner().invoke(app, [
        "play", "blokus", "random", "greedy", "-n", "1", "--port", str(external_server),
        "--admin-password", "wrong"])
    assert result.exit_code == 1
    assert "error: the server refused the admin password" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess", "random", "greedy"], "unknown game"),
    (["play", "blokus", "random", "nobody"], "unknown bot"),
    (["play", "blokus", "random", "greedy", "--games", "0"], "--games"),
    (["play", "blokus", "random", "greedy", "--concurrency", "0"], "--concurrency"),
])
def test_play_rejects_bad_arguments(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_summary_counts_errors_and_violations_apart() -> None:
    labels = ("a", "b")
    records = [
        GameRecord(0, ("a", "b"), winner="a", points=(100, 90)),
        GameRecord(1, ("b", "a"), winner="a", points=(0, 80), regular=False,
                   cause="SOFT_TIMEOUT", violator="b"),
        GameRecord(2, ("a", "b"), winner="b", points=(0, 70), regular=False,
                   cause="RULE_VIOLATION", violator="a"),
        GameRecord(3, ("b", "a"), error="a: cannot connect"),
    ]
    a, b = summarise(records, labels)
    assert (a.games, a.wins, a.draws, a.losses, a.errors) == (4, 2, 0, 1, 1)
    assert (b.games, b.wins, b.losses, b.timeouts, b.violations) == (4, 1, 2, 1, 0)
    assert (a.timeouts, a.violations) == (0, 1)
    assert a.mean_points == pytest.approx((100 + 80 + 0) / 3)
    assert (a.as_team_one, b.as_team_one) == (2, 2)


def test_bot_seeds_depend_on_game_and_side_only() -> None:
    assert bot_seed(None, 3, 0) is None
    assert bot_seed(5, 3, 0) == bot_seed(5, 3, 0)
    seeds = {bot_seed(5, game, side) for game in range(50) for side in (0, 1)}
    assert len(seeds) == 100


def test_a_crashing_bot_loses_by_leaving_and_the_series_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "crashing.py"
    path.write_text(
        "from bots.blokus import Bot\n"
        "class Crash(Bot):\n"
        "    def move(self, state):\n"
        "        raise RuntimeError('bug in my bot')\n"
        "class NeedsArgs(Bot):\n"
        "    def __init__(self, depth):\n"
        "        self.depth = depth\n", encoding="utf-8")
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", f"{path}:Crash", "random", "-n", "2", "-c", "2", "--json", str(out),
        "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    crash, rand = document["summary"]
    assert (crash["losses"], crash["violations"], crash["timeouts"]) == (2, 2, 0)
    assert rand["wins"] == 2
    assert all(r["cause"] == "LEFT" and r["violator"] == crash["label"]
               for r in document["games"])
    assert all("RuntimeError: bug in my bot" in r["failures"][crash["label"]]
               for r in document["games"])
    assert "stopped early in 2 game(s)" in result.output

    result = CliRunner().invoke(app, ["play", "blokus", f"{path}:NeedsArgs", "random", "-n", "1",
                                      "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "error: cannot create bot" in result.output and "Traceback" not in result.output


SLOW_BOT = '''
import time

from bots.blokus import RandomBot


class Slow(RandomBot):
    """Thinks 1.2 s on each of its first two moves, as a searching bot would."""

    moves = 0

    def move(self, state):
        self.moves += 1
        if self.moves <= 2:
            time.sleep(1.2)
        return super().move(state)
'''


def test_a_thinking_bot_costs_no_one_else_their_clock(tmp_path: Path) -> None:
    """Four games at once, each with a bot that thinks 1.2 s: were moves computed on the
    event loop, the bots would wait for each other's thinking and overrun the 2 s clock."""
    (tmp_path / "slow.py").write_text(SLOW_BOT)
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", f"{tmp_path / 'slow.py'}:Slow", "greedy", "--games", "4",
        "--concurrency", "4", "--seed", "3", "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    assert [r["cause"] for r in document["games"]
            if r["cause"] in ("SOFT_TIMEOUT", "HARD_TIMEOUT")] == []
    assert all(s["timeouts"] == 0 for s in document["summary"])


@pytest.mark.parametrize(("bots", "expected"), [
    (("random", "greedy"), 4),
    (("SLOW", "greedy"), 1),
])
def test_concurrency_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              bots: tuple[str, str], expected: int) -> None:
    """Own bots play one game at a time unless told otherwise: they may search, and
    concurrent searches in one process share its cores while their clocks run."""
    import server.series as match

    (tmp_path / "slow.py").write_text(SLOW_BOT)
    seen: list[int] = []
    real = match.run_series

    async def spy(*args: object, concurrency: int = 1, **kwargs: object) -> object:
        seen.append(concurrency)
        return await real(*args, concurrency=concurrency, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(match, "run_series", spy)
    specs = [f"{tmp_path / 'slow.py'}:Slow" if b == "SLOW" else b for b in bots]
    result = CliRunner().invoke(app, ["play", "blokus", *specs, "--games", "1",
                                      "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert seen == [expected]
