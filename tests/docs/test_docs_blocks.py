"""Every fenced code block of README.md and docs/*.md is run or checked, by its info string.

- ```python: run as a script in a subprocess (a fresh temporary folder, the repository on
  PYTHONPATH, a timeout). A block that plays over TCP (it calls a kit's `run(...)` under
  `__main__`, or names port 13050) gets a real server on a free port instead: 13050 in the
  text becomes that port, `-p PORT` is passed on its command line, and a bundled random
  bot of the same game joins as its opponent; both must exit 0.
  ```python norun: a module that cannot run on its own (a card module of
  games/hearth/cards, whose cards are declared already): compiled only.
- ```sh / ```bash / ```console: each `gauntlet ...` line is parsed by the real command
  line (subcommand, options and their types, required arguments) without running it;
  `[...]` marks optional parts and ALL_CAPS words are placeholders. Other lines (`make`,
  `curl`, `python my_bot.py`, shell variables) are not run: they need a long-lived server
  on the default ports, which the suite must not occupy.
  ```sh session (the `gauntlet match` session of docs/server.md) runs for real against a
  server on free ports: `gauntlet serve` is that server, `--api` points at it, the match
  id and reservation codes of the text are replaced by the real ones, `&` lines run in
  the background, and each `gauntlet match` command waits until the match is where the
  text has it (both bots seated before a step, ended before the replay).
- ```text, ```json, ```toml, ```xml: output and protocol examples, skipped on purpose.
- A block without an info string fails: say what it is.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from server.cli import app
from tests.bots.server_thread import TOKEN, Served, ServerThread
from tests.docs.blocks import ROOT, Block, all_blocks

SHELL = {"sh", "bash", "shell", "console"}
EXAMPLES = {"text", "json", "toml", "xml"}
GAUNTLET = str(Path(sys.executable).with_name("gauntlet"))
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_:]*$")
TIMEOUT = 240

BLOCKS = all_blocks()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    thread = ServerThread(tmp_path_factory.mktemp("docs-server"), soft_timeout=30.0,
                          hard_timeout=60.0)
    try:
        yield thread.start()
    finally:
        thread.close()


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _needs_server(text: str) -> bool:
    return ("run(" in text and "__main__" in text) or "13050" in text


def _opponent(text: str) -> str:
    return "hearth-random" if ("bots.hearth" in text or "kettle:" in text) else "blokus-random"


def _run_python(block: Block, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    script = tmp_path / "block.py"
    if not _needs_server(block.text):
        script.write_text(block.text, encoding="utf-8")
        result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_env(),
                                capture_output=True, text=True, timeout=TIMEOUT)
        assert result.returncode == 0, f"{block.id}:\n{result.stderr}"
        return
    served: Served = request.getfixturevalue("served")
    port = str(served.tcp_port)
    script.write_text(block.text.replace("13050", port), encoding="utf-8")
    player = subprocess.Popen([sys.executable, str(script), "-p", port], cwd=tmp_path,
                              env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    opponent = subprocess.Popen([GAUNTLET, "bot", _opponent(block.text), "-p", port],
                                cwd=tmp_path, env=_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    try:
        _, player_err = player.communicate(timeout=TIMEOUT)
        _, opponent_err = opponent.communicate(timeout=TIMEOUT)
    finally:
        for process in (player, opponent):
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert player.returncode == 0, f"{block.id}:\n{player_err}"
    assert opponent.returncode == 0, f"{block.id} (its opponent):\n{opponent_err}"


def gauntlet_lines(text: str) -> list[list[str]]:
    """The argument lists of the `gauntlet ...` lines of a shell block."""
    found = []
    for line in text.replace("\\\n", " ").splitlines():
        if not line.strip().startswith("gauntlet "):
            continue
        words = shlex.split(line, comments=True)
        while words and words[-1] == "&":
            words.pop()
        if not words or words[0] != "gauntlet":
            continue
        args = []
        for word in words[1:]:
            word = word.strip("[]")
            if word:
                args.append("1" if PLACEHOLDER.match(word) else word)
        found.append(args)
    return found


def parse(args: list[str]) -> None:
    """Parse a command line the way `gauntlet` would, without running the command."""
    command = get_command(app)
    ctx = command.make_context("gauntlet", list(args))
    while hasattr(command, "resolve_command"):
        rest = [*ctx._protected_args, *ctx.args]
        assert rest, f"gauntlet {' '.join(args)}: no subcommand"
        name, sub, rest = command.resolve_command(ctx, rest)
        assert name is not None and sub is not None
        ctx = sub.make_context(name, rest, parent=ctx)
        command = sub


def _wait_status(api: str, match_id: str, wanted: set[str]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while httpx.get(f"{api}/api/matches/{match_id}", timeout=30).json()["status"] not in wanted:
        assert time.monotonic() < deadline, f"match {match_id} never got {wanted}"
        time.sleep(0.2)


def _run_session(block: Block, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Run a `gauntlet` session block against the docs' server (see the module text)."""
    served: Served = request.getfixturevalue("served")
    monkeypatch: pytest.MonkeyPatch = request.getfixturevalue("monkeypatch")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    env = {"GAUNTLET_ADMIN_TOKEN": TOKEN, "COLUMNS": "100"}
    match_id = ""
    codes: list[str] = []
    bots: list[subprocess.Popen[str]] = []
    try:
        for raw in block.text.splitlines():
            words = shlex.split(raw, comments=True)
            background = bool(words) and words[-1] == "&"
            args = [w for w in words if w != "&"][1:]
            if not words or words[0] != "gauntlet" or args[0] == "serve":
                continue
            if args[0] == "bot":
                args[args.index("-p") + 1] = str(served.tcp_port)
                args[args.index("-r") + 1] = codes.pop(0)
                assert background, raw
                bots.append(subprocess.Popen([GAUNTLET, *args], env=_env(), text=True,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE))
                continue
            assert args[0] == "match", raw
            if args[1] == "create":
                result = runner.invoke(app, [*args, "--api", served.api, "--json"], env=env)
                assert result.exit_code == 0, result.output
                created = json.loads(result.stdout)
                match_id = created["id"]
                codes = [seat["reservation"] for seat in created["seats"] if seat["reservation"]]
                continue
            if len(args) > 2 and not args[2].startswith("-"):
                args[2] = match_id[:8]  # the text's id prefix -> the real one's
                _wait_status(served.api, match_id,
                             {"finished", "cancelled", "aborted"} if args[1] == "replay"
                             else {"running", "paused", "finished"})
            result = runner.invoke(app, [*args, "--api", served.api], env=env)
            assert result.exit_code == 0, f"{raw}\n{result.output}"
        for bot in bots:
            _, err = bot.communicate(timeout=TIMEOUT)
            assert bot.returncode == 0, err
        assert match_id and len(bots) == 2
        replays = list(tmp_path.glob("*.xml"))
        assert replays and all("<protocol>" in p.read_text(encoding="utf-8") for p in replays)
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.communicate()


# Output and protocol examples are not run; every other block is a test.
RUN = [b for b in BLOCKS if b.info not in EXAMPLES]


def test_examples_are_marked_as_such() -> None:
    assert all(b.info in EXAMPLES for b in BLOCKS if b not in RUN)


@pytest.mark.parametrize("block", RUN, ids=[b.id for b in RUN])
def test_block(block: Block, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    kind = block.info
    if kind == "python" and "norun" in block.flags:
        compile(block.text, block.id, "exec")
    elif kind == "python":
        _run_python(block, tmp_path, request)
    elif kind in SHELL and "session" in block.flags:
        _run_session(block, tmp_path, request)
    elif kind in SHELL:
        for args in gauntlet_lines(block.text):
            parse(args)
    else:
        pytest.fail(f"{block.id}: mark the block (```python, ```sh, ```text, ...); "
                    f"got {block.info!r}")


def test_every_document_has_blocks_found() -> None:
    assert any(b.path.name == "README.md" for b in BLOCKS)
    assert sum(b.info == "python" for b in BLOCKS) >= 10


def test_gauntlet_lines() -> None:
    text = "gauntlet bot blokus-random -p 13050 [-r CODE] &   # note\nmake run\n"
    assert gauntlet_lines(text) == [["bot", "blokus-random", "-p", "13050", "-r", "1"]]
    with pytest.raises(Exception, match="65535"):
        parse(["bot", "blokus-random", "-p", "70000"])


@pytest.mark.parametrize("path", [p for p in {b.path for b in BLOCKS}
                                  if p.name != "benchmarks.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_quoted_figures_live_in_benchmarks(path: Path) -> None:
    """The official client's move-list time and the greedy bot's score: docs/benchmarks.md."""
    text = " ".join(path.read_text(encoding="utf-8").split())
    assert not re.search(r"official client'?s?[^.]{0,60}?\d+(\.\d+)? ?ms", text), path
    assert not re.search(r"\d+\.\d mean points against", text), path
