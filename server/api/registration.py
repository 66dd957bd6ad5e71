"""What a registered bot runs, checked when it is registered (`POST /api/bots`).

A bot is registered either as a command line (`command`, argv, run without a shell) or as
a bot of the game's Python kit (`bot`: a bundled name, `package.module:Class` or
`file.py:Class`, as `gauntlet play` takes them), which the server runs with its own
Python (`python -m <kit> SPEC`): the kit is installed there, whatever Python a user's
PATH finds. Either way the registration refuses what could never start: a program that is
not there, a working directory that does not exist, a kit bot that does not load (it is
loaded once, in a child process, with `--check`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from server.games.registry import GamePlugin
from server.matches import MatchError

__all__ = ["CHECK_TIMEOUT", "checked_command"]

CHECK_TIMEOUT = 30.0
"""Seconds a kit bot gets to load at registration."""


def _fail(message: str) -> MatchError:
    return MatchError(message, 422)


def checked_command(plugin: GamePlugin, command: list[str] | None, bot: str | None,
                    workdir: str | None) -> list[str]:
    """Blocking: the argv to store, or `MatchError` 422 naming the field and the problem."""
    where = Path(workdir) if workdir else None
    if where is not None and not where.is_dir():
        raise _fail(f"workdir: no folder {workdir!r} on the server")
    if bot is not None:
        return _kit_command(plugin, bot, where)
    assert command is not None  # the body has one of the two
    program = command[0]
    if os.sep in program:
        path = Path(program) if Path(program).is_absolute() or where is None \
            else where / program
        if not path.is_file():
            raise _fail(f"command[0]: no program {program!r} on the server")
        if not os.access(path, os.X_OK):
            raise _fail(f"command[0]: {program!r} is not executable")
    elif shutil.which(program) is None:
        raise _fail(f"command[0]: no program {program!r} on the server's PATH; for a bot "
                    f"of the Python kit give \"bot\": \"my_bot.py:MyBot\" instead")
    return command


def _kit_command(plugin: GamePlugin, spec: str, where: Path | None) -> list[str]:
    kit = plugin.kit() if plugin.kit is not None else None
    if kit is None:
        raise _fail(f"bot: {plugin.game_id} has no Python bot kit here; give `command`")
    module, sep, name = spec.rpartition(":")
    if sep and module.endswith(".py"):
        path = Path(module)
        if not path.is_absolute():
            if where is None:
                raise _fail(f"bot: {module!r} is relative: give an absolute path or a "
                            "workdir")
            path = where / path
        if not path.is_file():
            raise _fail(f"bot: no file {str(path)!r} on the server")
        spec = f"{path.resolve()}:{name}"
    argv = [sys.executable, "-m", kit.module, spec]
    try:
        done = subprocess.run([*argv, "--check"], cwd=where, capture_output=True, text=True,
                              timeout=CHECK_TIMEOUT, env=_kit_env())
    except subprocess.TimeoutExpired:
        raise _fail(f"bot: {spec!r} did not load within {CHECK_TIMEOUT:g} s") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        reason = lines[-1].removeprefix("error: ") if lines else f"exit code {done.returncode}"
        raise _fail(f"bot: {spec!r} does not load: {reason}")
    return argv


def _kit_env() -> dict[str, str]:
    """The child sees the server's import path (the kit), not the server's secrets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env
