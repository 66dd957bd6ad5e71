"""`gauntlet play` survives its bots: hangs, crashes, other programs, Ctrl-C (issue #11)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from bots_testkit import GAUNTLET, ROOT, WAIT, run_cli
from typer.testing import CliRunner

from server.cli import app

BAD_BOTS = '''
import time

from bots.blokus import Bot, RandomBot


class Sleeper(Bot):
    """Never answers: sleeps an hour in its first move."""

    def move(self, state):
        time.sleep(3600)


class Crasher(RandomBot):
    def move(self, state):
        raise RuntimeError("bug in my bot")


class Illegal(RandomBot):
    """Skips on its first move, which the rules forbid."""

    def move(self, state):
        from games.blokus import SkipMove

        return SkipMove(state.current_color)
'''


@pytest.fixture
def bad_bots(tmp_path: Path) -> Path:
    path = tmp_path / "bad_bots.py"
    path.write_text(BAD_BOTS, encoding="utf-8")
    return path


async def test_a_sleeping_bot_loses_by_timeout_and_the_series_ends(
        bad_bots: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAUNTLET_SOFT_TIMEOUT", "0.5")
    monkeypatch.setenv("GAUNTLET_HARD_TIMEOUT", "1")
    out = tmp_path / "series.json"
    code, stdout, stderr = await run_cli(
        "play", "blokus", f"{bad_bots}:Sleeper", "greedy", "--games", "2", "-c", "2",
        "--json", str(out), "--data-dir", str(tmp_path))
    assert code == 0, stderr
    document = json.loads(out.read_text())
    sleeper, greedy = document["summary"]
    assert (sleeper["losses"], sleeper["causes"]) == (2, {"timeout": 2})
    assert greedy["wins"] == 2
    assert "lost by timeout" in stdout and "2 timeout" in stdout


def test_a_crashing_bot_loses_by_crash_with_its_traceback(bad_bots: Path,
                                                            tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", f"{bad_bots}:Crasher", "random", "-n", "2", "-c", "2",
        "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    crasher = document["summary"][0]
    assert crasher["causes"] == {"crash": 2}
    record = document["games"][0]
    assert record["category"] == "crash" and "RuntimeError: bug in my bot" in record["detail"]
    assert "lost by crash" in result.stdout
    assert 'raise RuntimeError("bug in my bot")' in result.stdout


def test_an_illegal_move_is_explained_in_english_and_german(bad_bots: Path,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", f"{bad_bots}:Illegal", "random", "-n", "1",
        "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())["games"][0]
    assert record["category"] == "illegal_move"
    assert "the first move must place a piece" in record["detail"]
    assert "Der erste Zug muss einen Stein setzen" in record["detail"]
    assert "lost by illegal move" in result.stdout


@pytest.mark.parametrize("form", ["space", "cmd"])
def test_a_command_line_is_a_bot(tmp_path: Path, form: str) -> None:
    command = f"{sys.executable} -m bots.blokus greedy"
    spec = command if form == "space" else f"cmd:{command}"
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", spec, "random", "-n", "2", "-c", "2", "--seed", "1",
        "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    program, _ = document["summary"]
    assert program["label"] == spec and program["wins"] + program["draws"] == 2
    assert all(r["error"] is None and r["category"] is None for r in document["games"])


def test_a_command_line_that_cannot_play_costs_only_its_games(tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", f"{sys.executable} -c 'import sys; sys.exit(3)'", "random", "-n", "2",
        "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    failing, rand = json.loads(out.read_text())["summary"]
    assert failing["causes"] == {"failed_to_start": 2} and rand["wins"] == 2


def test_a_bot_that_cannot_start_loses_every_game_and_is_the_one_named(tmp_path: Path) -> None:
    """Issue #24, point 2: every second game (the failing bot started first, dead before
    the other started) waited the 60 s idle timeout and then blamed the healthy bot."""
    failing = "/bin/sh -c 'exit 7'"
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "blokus", "random", failing, "-n", "4", "--json", str(out),
        "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    rand, broken = document["summary"]
    assert (broken["losses"], broken["draws"], broken["causes"]) == (4, 0, {"failed_to_start": 4})
    assert (rand["wins"], rand["causes"]) == (4, {})
    for record in document["games"]:
        # Each game ended on the failing bot's exit, not on the idle timeout (`error`).
        assert record["error"] is None and record["winner"] == "random", record
        assert (record["violator"], record["category"]) == (failing, "failed_to_start"), record
        assert list(record["failures"]) == [failing], record
        assert "exited with code 7 before connecting" in record["detail"], record
    assert f"note: {failing} stopped early in 4 game(s)" in result.output
    assert "note: random stopped early" not in result.output


@pytest.mark.parametrize(("spec", "message"), [
    ("cmd:", "empty command line"),
    ("no-such-program --flag", "no program 'no-such-program' on PATH"),
    ("cmd:'unclosed", "closing quotation"),
])
def test_bad_command_lines_are_one_line(spec: str, message: str) -> None:
    result = CliRunner().invoke(app, ["play", "blokus", spec, "random", "-n", "1"])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_a_syntax_error_shows_the_users_traceback(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("from bots.blokus import Bot\nclass Broken(Bot:\n    pass\n")
    result = CliRunner().invoke(app, ["play", "blokus", f"{path}:Broken", "random", "-n", "1"])
    assert result.exit_code == 2
    assert "SyntaxError" in result.output and str(path) in result.output
    assert "importlib" not in result.output and "bundled.py" not in result.output


async def _interrupt(args: list[str], signals: int, after: float
                     ) -> tuple[int, str, str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = await asyncio.create_subprocess_exec(
        *GAUNTLET, *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    await asyncio.sleep(after)
    loop = asyncio.get_running_loop()
    sent = loop.time()
    for _ in range(signals):
        process.send_signal(signal.SIGINT)
        await asyncio.sleep(0.3)
    try:
        async with asyncio.timeout(WAIT):
            out, err = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
    return process.returncode or 0, out.decode(), err.decode(), loop.time() - sent


async def test_ctrl_c_prints_the_finished_games_and_writes_the_json(tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    code, stdout, stderr, _ = await _interrupt(
        ["play", "blokus", "random", "greedy", "--games", "500", "-c", "2",
         "--json", str(out), "--data-dir", str(tmp_path)], signals=1, after=15.0)
    assert code == 130, stderr
    document = json.loads(out.read_text())
    assert document["interrupted"] is True
    finished = [r for r in document["games"] if not r["aborted"]]
    assert finished and len(document["games"]) < 500
    assert all(s["games"] == len(finished) for s in document["summary"])
    assert f"{len(finished)} game" in stdout and "greedy" in stdout
    assert "interrupted" in stderr


async def test_a_second_ctrl_c_exits_at_once(bad_bots: Path, tmp_path: Path) -> None:
    code, _, stderr, elapsed = await _interrupt(
        ["play", "blokus", f"{bad_bots}:Sleeper", "greedy", "--games", "3", "--no-timeout",
         "--data-dir", str(tmp_path)], signals=2, after=10.0)
    assert code == 130 and "exiting now" in stderr
    assert elapsed < 5.0


def test_a_hearth_series_over_kettle(tmp_path: Path) -> None:
    """Issue #8: Hearth seats reserved through the admin `prepare`, bots join over Kettle."""
    out = tmp_path / "series.json"
    result = CliRunner().invoke(app, [
        "play", "hearth", "hearth-random", "hearth-greedy", "--games", "6", "-c", "3",
        "--seed", "1", "--json", str(out), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    rand, greedy = document["summary"]
    assert greedy["wins"] >= 5 and rand["wins"] + rand["draws"] <= 1
    assert all(r["error"] is None for r in document["games"])
    assert [r["seats"][0] for r in document["games"]] == ["hearth-random", "hearth-greedy"] * 3


async def test_gauntlet_bot_hearth_joins_a_running_server(tmp_path: Path) -> None:
    from bots_testkit import PASSWORD, running_server

    from server.series import AdminClient

    async with running_server(tmp_path) as server:
        admin = await AdminClient.connect("127.0.0.1", server.tcp_port, PASSWORD)
        try:
            prepared = await admin.prepare(("greedy", "random"), game_type="hearth")
        finally:
            await admin.close()
        room = server.rooms[prepared.room_id]
        runs = [run_cli("bot", name, "-p", str(server.tcp_port), "--seed", "1",
                        "-r", f"{prepared.room_id}:{code}", "--idle-timeout", "30")
                for name, code in zip(("hearth-greedy", "hearth-random"),
                                      prepared.reservations, strict=True)]
        results = await asyncio.gather(*runs)
    assert [code for code, _, _ in results] == [0, 0], results
    assert room.result is not None and room.result.regular


def test_a_soft_timeout_above_the_hard_one_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAUNTLET_SOFT_TIMEOUT", "20")
    result = CliRunner().invoke(app, ["play", "blokus", "random", "greedy", "-n", "1"])
    assert result.exit_code == 2
    assert "error: the soft timeout (20 s) is above the hard timeout" in result.output


async def test_a_server_that_does_not_speak_the_protocol(tmp_path: Path) -> None:
    async def http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        writer.write(b"<!DOCTYPE html><html>not here</html>")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(http, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        code, _, stderr = await run_cli("play", "blokus", "random", "greedy", "-n", "1",
                                        "--port", str(port), "--admin-password", "x")
    finally:
        server.close()
    assert code == 1
    assert "error: the server does not speak the Software-Challenge protocol" in stderr
    assert "Traceback" not in stderr
