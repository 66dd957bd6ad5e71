"""How the commands that play series (`gauntlet play`, `gauntlet sprt`) read their bots and
their game, and how Ctrl-C stops them.

A game is an installed game's id or alias; a bot spec is a command line (`cmd:` prefix or
any whitespace), a name or `module:Class`/`file.py:Class` of the game's bot kit, or one of
its bundled bots (`GamePlugin.kit`, `GamePlugin.bundled`). A bad argument ends the command
with one `error:` line and exit code 2.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

COMMAND_PREFIX = "cmd:"
INTERRUPTED = 130  # the shell's code for a program ended by SIGINT


def usage_error(message: str) -> NoReturn:
    """A bad argument: one `error:` line and exit code 2 (click's usage-error code)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def bad_bot(error: Exception) -> NoReturn:
    """A bot that cannot be loaded: its own traceback (a syntax error in the user's file),
    then one `error:` line; exit code 2."""
    user_traceback = getattr(error, "user_traceback", None)
    if isinstance(user_traceback, str) and user_traceback.strip():
        typer.echo(user_traceback.rstrip("\n"), err=True)
    usage_error(str(error))


def plugin_named(game: str) -> Any:
    """The installed game called `game` (its id or an alias); a usage error if none is."""
    from server.games.registry import GameRegistry

    games = GameRegistry.from_entry_points()
    found = games.resolve(game)
    if found not in games:
        known = ", ".join(sorted(games.short_name(g) for g in games.ids()))
        usage_error(f"unknown game {game!r}; known: {known}")
    return games.get(found)


def kit_of(plugin: Any) -> Any:
    return plugin.kit() if plugin.kit is not None else None


def bundled_names(plugin: Any) -> set[str]:
    """The names of the bots that come with the game: its kit's and its bundled ones."""
    kit = kit_of(plugin)
    return {*(kit.names if kit is not None else ()), *(b.name for b in plugin.bundled())}


def seat_of(plugin: Any, spec: str) -> Any:
    """How a bot is run: a `SeatCommand` or an `InProcessSeat`; bad specs end the command
    with one line.

    A spec with the `cmd:` prefix or any whitespace is a command line (split as a shell
    would, never run by one); a name of the game's bot kit (`GamePlugin.kit`), or a
    `module:Class`/`file.py:Class`, names a kit bot, which is loaded here once (so that a
    broken bot file fails now, with its own traceback) and then run per game as `python -m
    <kit> SPEC --seed N`; any other name is one of the game's bundled bots (in this process
    when it has no command line).
    """
    from server.series import InProcessSeat, SeatCommand

    kit = kit_of(plugin)
    protocol = kit.protocol if kit is not None else next(iter(sorted(plugin.protocols)), None)
    game = plugin.game_id
    if spec.startswith(COMMAND_PREFIX) or any(c.isspace() for c in spec):
        if protocol is None:
            usage_error(f"{spec!r}: {plugin.name} speaks no wire protocol, so no program "
                         f"can play it; its bots: {', '.join(sorted(bundled_names(plugin)))}")
        command = spec.removeprefix(COMMAND_PREFIX)
        try:
            argv = shlex.split(command)
        except ValueError as error:
            usage_error(f"{spec!r}: {error}")
        if not argv:
            usage_error(f"{spec!r}: an empty command line")
        program = argv[0]
        found = (Path(program).is_file() if os.sep in program else shutil.which(program))
        if not found:
            where = "" if os.sep in program else " on PATH"
            usage_error(f"{spec!r}: no program {program!r}{where}")
        # The user's own programs on the user's own machine: the whole environment but
        # our settings (GAUNTLET_ADMIN_PASSWORD is not a bot's business).
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
        return SeatCommand(tuple(argv), cwd=Path.cwd(), env=env, protocol=protocol, game=game)
    bundled = {b.name: b for b in plugin.bundled()}
    if spec in bundled and (kit is None or spec not in kit.names):
        bot = bundled[spec]
        if bot.play is not None:
            return InProcessSeat(bot.play)
        return SeatCommand(bot.argv, protocol=protocol or "sc", game=game)
    if kit is None:
        usage_error(f"unknown bot {spec!r} for {plugin.name}: use one of "
                     f"{', '.join(sorted(bundled))} or a command line (\"cmd:...\")"
                     if protocol is not None else
                     f"unknown bot {spec!r} for {plugin.name}: use one of "
                     f"{', '.join(sorted(bundled))}")
    try:
        factory = kit.load(spec)
    except (ValueError, ImportError) as error:
        bad_bot(error)
    try:
        factory(None)
    except Exception as error:
        typer.echo(f"error: cannot create bot {spec}: {type(error).__name__}: {error}",
                   err=True)
        raise typer.Exit(1) from None
    where, sep, name = spec.rpartition(":")
    if sep and where.endswith(".py"):
        spec = f"{Path(where).resolve()}:{name}"  # the child may not share our idea of "."
    return SeatCommand.python_module(kit.module, spec, protocol=kit.protocol, game=game)


def labels_of(bot_a: str, bot_b: str) -> tuple[str, str]:
    """Row names; the same bot on both sides becomes `random (A)` and `random (B)`."""
    if bot_a == bot_b:
        return f"{bot_a} (A)", f"{bot_b} (B)"
    return bot_a, bot_b


def interrupts(stop: asyncio.Event) -> None:
    """Ctrl-C (or SIGTERM) once sets `stop`; a second Ctrl-C kills the bots and exits."""
    from server.launcher import live_processes

    loop = asyncio.get_running_loop()
    err = Console(stderr=True)

    def first_or_second() -> None:
        if stop.is_set():
            for process in live_processes():
                process.kill()
            err.print("interrupted twice: exiting now")
            os._exit(INTERRUPTED)
        stop.set()
        err.print("interrupted: no new games; ending the running ones "
                  "(Ctrl-C again to quit at once)")

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, first_or_second)
