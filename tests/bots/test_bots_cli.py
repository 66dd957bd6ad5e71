"""`gauntlet bot` and the kit's `run()`: the official client flags, short and long."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

import pytest
from bots_testkit import ROOT, WAIT, prepare, run_cli, running_server
from typer.testing import CliRunner

from bots.blokus.kit import _parser
from server.cli import app

STUDENT_BOT = textwrap.dedent("""
    from bots.blokus import Bot, run

    class MyBot(Bot):
        def move(self, state):
            return max(state.legal_moves(), key=lambda move: len(move.cells))

    if __name__ == "__main__":
        run(MyBot())
""")


async def test_short_and_long_flags_play_one_prepared_game(tmp_path: Path) -> None:
    """Team ONE: `gauntlet bot` with -h/-p/-r; team TWO: a student's script with the long
    forms the official TestClient passes to non-jar players."""
    script = tmp_path / "my_bot.py"
    script.write_text(STUDENT_BOT, encoding="utf-8")
    async with running_server(tmp_path) as server:
        port = str(server.tcp_port)
        prepared = await prepare(server.tcp_port, ("cli", "student"))
        one = asyncio.create_task(run_cli(
            "bot", "blokus-greedy", "-h", "127.0.0.1", "-p", port,
            "-r", prepared.reservations[0], "--seed", "5"))
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(script), "--reservation", prepared.reservations[1],
            "--host", "127.0.0.1", "--port", port, cwd=ROOT,
            env={"PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        async with asyncio.timeout(WAIT * 2):
            _, student_err = await process.communicate()
            code, _, err = await one
    assert code == 0, err
    assert process.returncode == 0, student_err.decode()
    assert "greedy:" in err and "(we are ONE)" in err
    assert "MyBot:" in student_err.decode() and "(we are TWO)" in student_err.decode()


def test_kit_parser_reads_the_official_flags() -> None:
    short = _parser(None).parse_args(["-h", "10.0.0.2", "-p", "13051", "-r", "abc"])
    long = _parser(None).parse_args(["--reservation", "abc", "--host", "10.0.0.2",
                                     "--port", "13051"])
    for args in (short, long):
        assert (args.host, args.port, args.reservation) == ("10.0.0.2", 13051, "abc")
    default = _parser(None).parse_args([])
    assert (default.host, default.port, default.reservation) == ("127.0.0.1", 13050, None)


@pytest.mark.parametrize("argv", [["-p", "port"], ["--bogus"], ["-p"]])
def test_kit_parser_rejects_nonsense(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        _parser(None).parse_args(argv)
    assert info.value.code == 2


def test_kit_help_is_long_form_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        _parser("my_bot.py").parse_args(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "-h HOST, --host HOST" in text and "-r RESERVATION" in text


@pytest.mark.parametrize(("args", "message"), [
    (["bot", "random"], "blokus-"),
    (["bot", "blokus-nonsense"], "unknown bot"),
    (["bot", "blokus-random", "-p", "0"], "--port"),
    (["bot", "blokus-random", "-p", "http"], "--port"),
    (["bot", "blokus-no_such_module:Bot"], "cannot import"),
])
def test_bot_command_rejects_bad_arguments(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_bot_command_help_shows_official_flags() -> None:
    result = CliRunner().invoke(app, ["bot", "--help"])
    assert result.exit_code == 0
    for flag in ("--host", "-h", "--port", "-p", "--reservation", "-r"):
        assert flag in result.output
