"""The `gauntlet` command line as a whole: help, version, and one-line errors."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from server.cli import app, version

GAUNTLET = str(Path(sys.executable).with_name("gauntlet"))


def _commands() -> list[list[str]]:
    """Every command path: [], ["serve"], ["match", "create"], ..."""
    paths: list[list[str]] = [[]]
    root = get_command(app)
    todo = [([], root)]
    while todo:
        path, command = todo.pop()
        for name, sub in getattr(command, "commands", {}).items():
            paths.append([*path, name])
            todo.append(([*path, name], sub))
    return paths


def test_help_lists_commands() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in ("demo", "serve", "bot", "play", "match", "db"):
        assert name in result.output


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"gauntlet {version()}"


@pytest.mark.parametrize("path", _commands(), ids=lambda p: " ".join(p) or "gauntlet")
def test_help_fits_80_columns(path: list[str]) -> None:
    """Nothing cut off (no ellipsis), flags shown as flags, no line beyond 80 columns."""
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"},
                                terminal_width=80)
    assert result.exit_code == 0, result.output
    text = result.output
    # click cuts a command's summary with "word..." at the end of its line.
    cut = [line for line in text.splitlines() if re.search(r"[A-Za-z,]\.\.\.$", line)]
    assert "…" not in text and not cut, text
    assert "<bool>" not in text
    assert max(len(line) for line in text.splitlines()) <= 80, text


def test_bool_flags_are_flags() -> None:
    text = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "80"}).output
    assert "--paused / --no-paused" in text and "--save-replays / --no-save-replays" in text


def _one_line_error(args: list[str], needle: str, code: int = 2,
                    env: dict[str, str] | None = None) -> None:
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == code, result.output
    err = result.stderr
    assert err.startswith("error: ") and needle in err, err
    assert err.count("\n") == 1, err
    assert "Traceback" not in result.output and "╭" not in err


@pytest.mark.parametrize(("args", "needle"), [
    (["bot", "blokus-random", "-p", "70000"], "65535"),
    (["serve", "--port", "70000"], "65535"),
    (["serve", "--tcp-port", "-1"], "greater than or equal to 0"),
    (["serve", "--log-level", "LOUD"], "--log-level LOUD: should be one of DEBUG"),
    (["serve", "--soft-timeout", "20"], "the soft timeout (--soft-timeout 20 s) is above"),
    (["serve", "--soft-timeout", "-1"], "--soft-timeout -1.0: Input should be greater than 0"),
    (["serve", "--no-such-option"], "No such option"),
    (["play", "chess", "random", "greedy"], "unknown game 'chess'"),
    (["nonsense"], "No such command"),
])
def test_bad_input_is_one_line(args: list[str], needle: str) -> None:
    _one_line_error(args, needle)


@pytest.mark.parametrize(("args", "needle", "code"), [
    (["--db", "nonsense://x"], "--db nonsense://x: Can't load plugin", 2),
    (["--data-dir", "/proc/no/such"], "cannot create the data folder /proc/no/such", 1),
    (["--db", "sqlite:////proc/no/such/x.db"], "cannot start: /proc/no", 1),
])
def test_serve_bad_places_are_one_line(args: list[str], needle: str, code: int,
                                       tmp_path: Path) -> None:
    base = ["serve", "--port", "0", "--http-port", "0", "--data-dir", str(tmp_path)]
    _one_line_error([*base, *args], needle, code)


def test_soft_above_hard_from_the_environment() -> None:
    _one_line_error(["serve"], "(GAUNTLET_HARD_TIMEOUT 1 s)",
                    env={"GAUNTLET_HARD_TIMEOUT": "1"})


def test_port_alias_tcp_port() -> None:
    text = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "80"}).output
    assert "--port, --tcp-port" in text or "-p, --port, --tcp-port" in text


def test_syntax_error_in_the_bot_file_shows_the_users_traceback(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("from bots.blokus import Bot\nclass Broken(Bot:\n    pass\n")
    result = CliRunner().invoke(app, ["bot", f"blokus-{path}:Broken"])
    assert result.exit_code == 2
    assert str(path) in result.stderr and "SyntaxError" in result.stderr
    assert "importlib" not in result.stderr and "server/commands" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("error: cannot load")


@pytest.fixture
def not_sc_server() -> Iterator[int]:
    """A TCP server that answers like something else (an SSH banner) and hangs up."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
                with contextlib.suppress(OSError):
                    conn.recv(4096)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def test_a_server_that_does_not_speak_the_protocol(not_sc_server: int) -> None:
    result = subprocess.run([GAUNTLET, "bot", "blokus-random", "-p", str(not_sc_server)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "error: the server does not speak the Software-Challenge protocol: "
        "text outside of a message"], result.stderr


def test_a_server_that_does_not_speak_kettle(not_sc_server: int) -> None:
    result = subprocess.run([GAUNTLET, "bot", "hearth-random", "-p", str(not_sc_server)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the server does not speak Kettle: ")
