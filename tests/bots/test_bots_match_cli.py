"""`gauntlet match ...` against a real server (TCP + HTTP on port 0) in a background thread."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from server.cli import app
from tests.bots.server_thread import TOKEN, Served, served_server

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    yield from served_server(tmp_path)


def gauntlet(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"GAUNTLET_ADMIN_TOKEN": TOKEN,
                                                      "COLUMNS": "200", **(env or {})})
    return result.exit_code, result.stdout, result.stderr


def wait_status(api: str, match_id: str, statuses: set[str], timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = httpx.get(f"{api}/api/matches/{match_id}", timeout=10).json()
        if body["status"] in statuses:
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.1)


def start_bot(port: int, reservation: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("gauntlet")), "bot", "blokus-greedy", "-p", str(port),
         "-r", reservation],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_session_create_step_resume_replay(served: Served, tmp_path: Path) -> None:
    code, out, err = gauntlet("match", "create", "blokus", "alice", "bob", "--paused",
                              "--seed", "3", "--api", served.api, "--json")
    assert code == 0, err
    created = json.loads(out)
    match_id = created["id"]
    codes = [seat["reservation"] for seat in created["seats"]]
    assert all(codes) and created["status"] == "waiting"

    code, _, err = gauntlet("match", "replay", match_id, "--api", served.api)
    assert code == 1 and err == (f"error: match {match_id} is waiting: its replay exists "
                                 f"once it has ended\n")

    bots = [start_bot(served.tcp_port, c) for c in codes]
    try:
        body = wait_status(served.api, match_id, {"paused", "running"})
        # The match is paused: nothing moves until a step.
        code, out, err = gauntlet("match", "step", match_id[:8], "--api", served.api)
        assert code == 0, err
        assert "one move requested" in out
        code, out, err = gauntlet("match", "show", match_id, "--api", served.api)
        assert code == 0, err
        assert match_id in out and "alice" in out and "bob" in out
        code, out, err = gauntlet("match", "resume", match_id, "--api", served.api)
        assert code == 0, err
        body = wait_status(served.api, match_id, {"finished"})
        for bot in bots:
            assert bot.wait(60) == 0, bot.stderr.read() if bot.stderr else ""
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
            bot.communicate()
    assert body["result"] is not None

    code, out, err = gauntlet("match", "show", match_id, "--api", served.api)
    assert code == 0, err
    assert "Result:" in out and "finished" in out

    target = tmp_path / "replay.xml"
    code, out, err = gauntlet("match", "replay", match_id, "-o", str(target),
                              "--api", served.api)
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<protocol>") and "result" in text

    code, out, err = gauntlet("match", "list", "--api", served.api, "--json")
    assert code == 0, err
    assert match_id in [m["id"] for m in json.loads(out)["items"]]
    code, out, err = gauntlet("match", "list", "--api", served.api, "--status", "finished")
    assert code == 0, err
    assert match_id in out


def test_create_prints_reservations_and_bot_lines(served: Served) -> None:
    code, out, err = gauntlet("match", "create", "blokus", "mine", "bot:random",
                              "--api", served.api)
    assert code == 0, err
    assert "reservation" in out
    assert f"gauntlet bot blokus-greedy -h 127.0.0.1 -p {served.tcp_port} -r " in out
    match_id = out.split()[1]
    code, out, err = gauntlet("match", "cancel", match_id, "--api", served.api)
    assert code == 0, err
    assert wait_status(served.api, match_id, {"cancelled", "aborted", "finished"})


@pytest.mark.parametrize(("game", "opponent"), [("blokus", "bot:random"),
                                              ("hearth", "bot:hearth-random")])
def test_the_printed_bot_line_takes_the_seat(served: Served, game: str, opponent: str) -> None:
    """The `gauntlet bot ...` line `match create` prints works as printed, for each game."""
    code, out, err = gauntlet("match", "create", game, "mine", opponent, "--api", served.api)
    assert code == 0, err
    match_id = out.split()[1]
    line = next(text.strip() for text in out.splitlines()
                if text.strip().startswith("gauntlet bot "))
    argv = shlex.split(line)
    argv[0] = str(Path(sys.executable).with_name("gauntlet"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    bot = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert bot.returncode == 0, bot.stderr
    body = wait_status(served.api, match_id, {"finished", "cancelled", "aborted"})
    assert body["status"] == "finished"
    mine = next(seat for seat in body["seats"] if seat["name"] == "mine")
    assert mine["failure"] is None, body


def test_token_from_data_dir(served: Served, tmp_path: Path) -> None:
    (served.data_dir).mkdir(parents=True, exist_ok=True)
    (served.data_dir / "admin-token").write_text(TOKEN + "\n", encoding="utf-8")
    code, _, err = gauntlet("match", "create", "blokus", "a", "b", "--api", served.api,
                            "--data-dir", str(served.data_dir), "--json",
                            env={"GAUNTLET_ADMIN_TOKEN": ""})
    assert code == 0, err


@pytest.mark.parametrize(("args", "needle"), [
    (["create", "blokus", "a", "b"], "refused the admin token"),
    (["show", "0000"], "no match whose id starts with '0000'"),
    (["step", "00000000-0000-0000-0000-000000000000"], "no match"),
    (["create", "chess", "a", "b"], "chess"),
    (["create", "blokus", "a", "b", "--soft-timeout", "5", "--hard-timeout", "1"],
     "soft timeout"),
])
def test_errors_are_one_line(served: Served, args: list[str], needle: str) -> None:
    env = {"GAUNTLET_ADMIN_TOKEN": "wrong"} if "refused" in needle else None
    code, out, err = gauntlet("match", *args, "--api", served.api, env=env)
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert "Traceback" not in err + out


def test_no_server_and_not_gauntlet(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err = gauntlet("match", "list", "--api", f"http://127.0.0.1:{port}")
    assert code == 1 and err.startswith("error: no Gauntlet API at") and err.count("\n") == 1
    code, _, err = gauntlet("match", "list", "--api", "ftp://x")
    assert code == 2 and err.startswith("error: --api ftp://x")


def test_no_token_anywhere(served: Served, tmp_path: Path) -> None:
    code, _, err = gauntlet("match", "step", "abc", "--api", served.api,
                            "--data-dir", str(tmp_path / "nowhere"),
                            env={"GAUNTLET_ADMIN_TOKEN": ""})
    assert code == 1 and err.startswith("error: no match whose id starts with 'abc'")
    code, _, err = gauntlet("match", "create", "blokus", "a", "b", "--api", served.api,
                            "--data-dir", str(tmp_path / "nowhere"),
                            env={"GAUNTLET_ADMIN_TOKEN": ""})
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("error: no admin token: set GAUNTLET_ADMIN_TOKEN or point --data-dir")
