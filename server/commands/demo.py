"""`gauntlet demo` (what `make run` starts): the server, a live match, then your bots.

It starts the match server, plays the terminal demo of the Software-Challenge protocol's
game (`GamePlugin.demo`; Blokus: the bundled `greedy` and `random` over TCP, the board
drawn as an admin observer's mementos arrive, then the official result) and then keeps
serving so that you can connect your own bot (`--once` stops after the demo match).
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from server.commands.common import command_settings, env_help, run_server, stop_event
from server.commands.root import app
from server.config import ServerConfig
from server.ladder import LadderOptions
from server.settings import DEFAULTS

DEMO_LADDER_INTERVAL = 3.0
# The demo ladder's pace: a Blokus match takes about 20 s, a Hearth one about as long, so
# that one opened in the viewer is still being played (issue #30).
DEMO_MOVE_TIME = 0.2
"""Seconds between two of the demo ladder's games at least, so that a night of `make run`
stays under 1 GB: at most 14,400 games in 12 hours, 31 KB each on average with the bots'
output, 45 KB with the largest matches measured: 0.44 GB, at worst 0.64 GB
(docs/benchmarks.md, "Stored bytes per match"; unpaced, the ladder played two games a
second on 2 cores)."""



async def start_ladder(server: object, console: Console) -> None:
    """Run the ladder for every game with two registered bots (the bundled ones)."""
    from server.runtime import GauntletServer

    assert isinstance(server, GauntletServer)
    ladder = server.ladder
    if ladder is None:
        return
    started = []
    for game in ladder.ladder_games():
        if len(await asyncio.to_thread(ladder.store.list_bots, game=game)) >= 2:
            await ladder.set_running(game, True)
            started.append(game)
    if started:
        console.print(f"The ladder plays {', '.join(started)} ({ladder.concurrency} matches "
                      f"at a time): standings at [bold]http://127.0.0.1:{server.http_port}"
                      f"/api/ladder/{started[0]}[/], or `gauntlet ladder status`.")


def _demo_game(games: Any) -> Any:
    """The game whose demo is shown: the Software-Challenge protocol's own game when it has
    one (what official clients play), else the first that has one."""
    with_demo = [p for p in games if p.demo is not None]
    if not with_demo:
        raise RuntimeError("no installed game has a terminal demo (GamePlugin.demo)")
    default = games.default_for("sc")
    return next((p for p in with_demo if p.game_id == default), with_demo[0])


async def _demo(config: ServerConfig, seed: int, once: bool, animate: bool,
                ladder: LadderOptions | None = None) -> None:
    from server.runtime import GauntletServer
    from server.store import Store

    console = Console()
    # Paced and drawn on a terminal; a demo that keeps serving is watched in the browser
    # too, so it is paced whatever stdout is (an IDE's run button, `make run > log`: rich
    # then prints the board once, at the end).
    animate = animate and (console.is_terminal or not once)
    stop = stop_event()
    # A demo that keeps serving is the real server: matches stored, API and viewer up. A
    # single demo match (`--once`) stays in memory and needs no HTTP port.
    store = None if once else Store(config.db_url or DEFAULTS.database_url)
    try:
        async with GauntletServer(config, store=store, ladder=ladder) as server:
            demo_game = _demo_game(server.games)
            game = server.games.short_name(demo_game.game_id)
            kit = demo_game.kit() if demo_game.kit is not None else None
            prefix = kit.prefix if kit is not None else ""
            bot_names = [f"{prefix}{name}" for name in demo_game.demo.bots]
            port = server.tcp_port
            console.print(
                f"Gauntlet is serving the Software-Challenge protocol on 127.0.0.1:{port}.")
            if not once:
                console.print(f"Watch the matches at [bold]http://127.0.0.1:{server.http_port}/[/]"
                              " (HTTP API under /api, its docs at /docs).")
            console.print(f"{demo_game.demo.intro}\n")
            password = server.config.resolve_admin_password()
            reason = await demo_game.demo.play(port, password, seed, console, animate)
            if reason:
                console.print(reason)
            if once:
                return
            if ladder is not None:
                await start_ladder(server, console)
            console.print(
                f"\nThe server keeps running. Connect your bot, e.g.\n"
                f"  gauntlet bot {bot_names[0]} -h 127.0.0.1 -p {port}   "
                f"(twice, or with your own)\n"
                f"  gauntlet play {game} {' '.join(demo_game.demo.bots)} --games 20 "
                f"--port {port}\n"
                f"Ctrl-C stops it."
            )
            await stop.wait()
    finally:
        if store is not None:
            store.close()


# The demo's own clients connect to the loopback address, so that is where it listens.
DEMO_HOST = "127.0.0.1"


@app.command()
def demo(
    ctx: typer.Context,
    tcp_port: Annotated[int, typer.Option(
        "--port", "-p", "--tcp-port",
        help=env_help("tcp_port", "TCP port for bots (0 = any free)."))]
    = DEFAULTS.tcp_port,
    http_port: Annotated[int, typer.Option(
        "--http-port", help=env_help("http_port", "HTTP API and viewer port (0 = any free)."))]
    = DEFAULTS.http_port,
    seed: Annotated[int, typer.Option(help="Seed of the start piece and of the bots.")] = 1,
    once: Annotated[bool, typer.Option("--once", help="Stop after the demo match.")] = False,
    animate: Annotated[bool, typer.Option(help="Redraw the board after every move.")] = True,
    ladder: Annotated[bool, typer.Option(
        "--ladder/--no-ladder",
        help="After the demo match, run the ladder over the registered bots of every game "
             "(not with --once).")] = True,
    data_dir: Annotated[Path, typer.Option(
        help=env_help("data_dir", "Data folder (the admin password)."))] = DEFAULTS.data_dir,
) -> None:
    """Start the server, play a live demo match over TCP, then keep serving your bots."""
    settings = command_settings(ctx)
    # The demo's admin connections need the password: the usual one (environment or stored
    # secret) when the server is for real, a throwaway one for a single demo match.
    overrides: dict[str, object] = {"host": DEMO_HOST, "seed": seed}
    if once:
        overrides["admin_password"] = secrets.token_urlsafe(18)
    else:
        overrides["http_port"] = settings.http_port
    config = ServerConfig.from_settings(settings, **overrides)
    options = (None if once or not ladder
               else LadderOptions(concurrency=settings.ladder_concurrency,
                                  min_interval=DEMO_LADDER_INTERVAL,
                                  min_move_time=settings.ladder_min_move_time
                                  if settings.ladder_min_move_time is not None
                                  else DEMO_MOVE_TIME))
    ports = {config.tcp_port: "--port"}
    if not once and config.http_port is not None:
        ports[config.http_port] = "--http-port"
    run_server(_demo(config, seed, once, animate, options), DEMO_HOST, ports)
