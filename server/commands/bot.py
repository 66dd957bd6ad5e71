"""`gauntlet bot blokus-random -h HOST -p PORT [-r CODE]`: run a bundled bot for one game.

The flags are the official clients' (`-h/--host`, `-p/--port`, `-r/--reservation`), so a
bundled bot can be started wherever the official TestClient or a ladder starts a player.
"""

from __future__ import annotations

from typing import Annotated

import typer

from server.cli import app
from server.commands.common import command_settings, env_help
from server.settings import DEFAULTS

PREFIX = "blokus-"


@app.command(name="bot")
def bot_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(
        help="blokus-random, blokus-greedy, or blokus-<package.module:Class | file.py:Class>.")],
    host: Annotated[str, typer.Option(
        "--host", "-h", help=env_help("host", "Server address."))] = DEFAULTS.host,
    port: Annotated[int, typer.Option(
        "--port", "-p", min=1, max=65535, help=env_help("tcp_port", "Server port."))]
    = DEFAULTS.tcp_port,
    reservation: Annotated[str | None, typer.Option(
        "--reservation", "-r", help="Reservation code of a prepared game.")] = None,
    room: Annotated[str | None, typer.Option(help="Join this room id instead.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the bot's choices.")] = None,
    idle_timeout: Annotated[float | None, typer.Option(
        min=0.1, help="Give up when the server is silent this many seconds.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log every message.")]
    = False,
) -> None:
    """Connect a bundled bot to a server and play one game (exit 0 once it has a result)."""
    from bots.blokus import load_bot
    from bots.blokus.kit import run_with

    if not name.startswith(PREFIX):
        raise typer.BadParameter(f"bot names start with {PREFIX!r} (e.g. blokus-random)",
                                 param_hint="NAME")
    try:
        bot = load_bot(name[len(PREFIX):], seed)
    except (ValueError, ImportError) as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    settings = command_settings(ctx, port="tcp_port")
    code = run_with(bot, host=settings.host, port=settings.tcp_port, reservation=reservation,
                    room_id=room, idle_timeout=idle_timeout, verbose=verbose)
    raise typer.Exit(code)
