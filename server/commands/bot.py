"""`gauntlet bot blokus-random -h HOST -p PORT [-r CODE]`: run a bundled bot for one game.

A name is a game's kit prefix and a bot of that kit (`GamePlugin.kit`): `blokus-random`,
`blokus-greedy`, `blokus-<module:Class | file.py:Class>`; `hearth-random`, `hearth-greedy`
(bundled names keep their prefix) or `hearth-<module:Class | file.py:Class>` play Hearth
over Kettle instead, whose reservation is `GAME_ID:PASSWORD` (room id, code).
`gauntlet bot blokus --policy module:function` plays a trained policy
(`policy(observation, action_mask) -> action`, `bots.policy`).

The flags are the official clients' (`-h/--host`, `-p/--port`, `-r/--reservation`), so a
bundled bot can be started wherever the official TestClient or a ladder starts a player.
Without `-r` the code comes from `GAUNTLET_RESERVATION`: a server that launches the bot
puts it there, never on the command line (which every local user can read).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from bots import RESERVATION_ENV
from server.commands.common import command_settings, env_help
from server.commands.root import app
from server.commands.seating import bad_bot
from server.settings import DEFAULTS


def _kits() -> tuple[Any, ...]:
    """The installed games' bot kits (`server.games.registry.BotKit`)."""
    from server.games.registry import GameRegistry

    found = []
    for plugin in GameRegistry.from_entry_points():
        kit = plugin.kit() if plugin.kit is not None else None
        if kit is not None:
            found.append(kit)
    return tuple(found)


@app.command(name="bot")
def bot_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(
        metavar="NAME",
        help="blokus-random, blokus-greedy, blokus-<package.module:Class | file.py:Class>, "
        "hearth-random, hearth-greedy or hearth-<package.module:Class | file.py:Class> "
        "(another game's kit prefix likewise).")],
    host: Annotated[str, typer.Option(
        "--host", "-h", help=env_help("host", "Server address."))] = DEFAULTS.host,
    port: Annotated[int, typer.Option(
        "--port", "-p", min=1, max=65535, help=env_help("tcp_port", "Server port."))]
    = DEFAULTS.tcp_port,
    reservation: Annotated[str | None, typer.Option(
        "--reservation", "-r", envvar=RESERVATION_ENV, show_envvar=True,
        help="Reservation code of a prepared game (Hearth: GAME_ID:PASSWORD); a server "
        "that launches the bot sets the variable.")] = None,
    room: Annotated[str | None, typer.Option(help="Join this room id instead.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the bot's choices.")] = None,
    idle_timeout: Annotated[float | None, typer.Option(
        min=0.1, help="Give up when the server is silent this many seconds.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log every message.")]
    = False,
    policy: Annotated[str | None, typer.Option(
        metavar="MODULE:FUNCTION",
        help="Play policy(observation, action_mask) -> action, as the learning "
        "environments call it (package.module:function or file.py:function); NAME is then "
        "the game: blokus or hearth.")] = None,
) -> None:
    """Connect a bot to a server and play one game.

    Exits 0 once the game has a result, 1 when it could not be played.
    """
    kits = _kits()
    if policy is not None:
        # `gauntlet bot blokus --policy m:f` is `gauntlet bot blokus-m:f`: the kits take a
        # function wherever they take a Bot class.
        game = name.removesuffix("-")
        kit = next((k for k in kits if k.prefix == f"{game}-"), None)
        if kit is None:
            games = ", ".join(k.prefix.removesuffix("-") for k in kits)
            raise typer.BadParameter(f"with --policy, NAME is the game: {games}",
                                     param_hint="NAME")
        name = f"{kit.prefix}{policy}"
    kit = next((k for k in kits if name.startswith(k.prefix)), None)
    if kit is None:
        examples = ", ".join(f"{k.prefix}{k.names[0].removeprefix(k.prefix)}" for k in kits
                             if k.names)
        prefixes = " or ".join(repr(k.prefix) for k in kits)
        raise typer.BadParameter(f"bot names start with {prefixes} (e.g. {examples})",
                                 param_hint="NAME")
    spec = name if name in kit.names else name[len(kit.prefix):]
    try:
        bot = kit.load(spec)(seed)
        if reservation is not None and kit.check_reservation is not None:
            kit.check_reservation(reservation)
    except (ValueError, ImportError) as error:
        bad_bot(error)
    settings = command_settings(ctx, port="tcp_port")
    code = kit.run(bot, host=settings.host, port=settings.tcp_port, reservation=reservation,
                   room_id=room, idle_timeout=idle_timeout, verbose=verbose)
    raise typer.Exit(code)
