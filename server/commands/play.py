"""`gauntlet play blokus A B`: a series of games between two bots over TCP, with a summary.

Starts a server in this process (or uses the one at --host/--port when something answers
there), prepares every game through the admin protocol with seats swapped every other
game, runs both bots as asyncio clients of the bot kit over real sockets, shows a
progress bar and prints wins/draws/losses, mean points and timeouts per bot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.cli import app
from server.commands.common import command_settings, env_help
from server.config import PASSWORD_ENV, PASSWORD_FILE, ServerConfig, find_admin_password
from server.settings import DEFAULTS, Settings

GAMES = ("blokus",)


@app.command()
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="The game: blokus.")],
    bot_a: Annotated[str, typer.Argument(
        help="First bot: random, greedy, package.module:Class or file.py:Class.")],
    bot_b: Annotated[str, typer.Argument(help="Second bot (same forms).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=100_000,
                                       help="Number of games.")] = 200,
    seed: Annotated[int | None, typer.Option(
        help="Seed for the bots and (in-process server) the start pieces.")] = None,
    concurrency: Annotated[int | None, typer.Option(
        "--concurrency", "-c", min=1, max=200,
        help="Games played at the same time (default: 4 for two bundled bots, else 1: bots "
        "that search share this process's cores, and their clocks run).")] = None,
    host: Annotated[str, typer.Option(
        "--host", "-h", help=env_help("host", "Server address."))] = DEFAULTS.host,
    port: Annotated[int | None, typer.Option(
        "--port", "-p", min=0, max=65535,
        help="Use the server on this port if one answers, else start one there.")] = None,
    admin_password: Annotated[str | None, typer.Option(
        "--admin-password", help=f"Admin password of a running server (default: "
        f"${PASSWORD_ENV}, else <data-dir>/{PASSWORD_FILE}).")] = None,
    data_dir: Annotated[Path, typer.Option(help=env_help(
        "data_dir", "Data folder of a running server (for its admin password)."))]
    = DEFAULTS.data_dir,
    no_timeout: Annotated[bool, typer.Option(
        "--no-timeout/--timeout",
        help=env_help("no_timeout", "In-process server: disable the move clocks."))]
    = DEFAULTS.no_timeout,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Also write every game and the summary to this JSON file.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log server events.")]
    = False,
) -> None:
    """Play a series of games between two bots and print who won."""
    from bots.blokus.bundled import bot_factory

    settings = command_settings(ctx)

    if game not in GAMES:
        raise typer.BadParameter(f"unknown game {game!r}; known: {', '.join(GAMES)}",
                                 param_hint="GAME")
    factories = []
    for spec in (bot_a, bot_b):
        try:
            factories.append(bot_factory(spec))
        except (ValueError, ImportError) as error:
            raise typer.BadParameter(str(error), param_hint="BOT") from None
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    labels = _labels(bot_a, bot_b)
    if concurrency is None:
        from bots.blokus.bundled import BUNDLED

        concurrency = 4 if {bot_a, bot_b} <= set(BUNDLED) else 1
    try:
        records, where = asyncio.run(_play(
            bots=((labels[0], factories[0]), (labels[1], factories[1])), games=games, seed=seed,
            concurrency=concurrency, port=port, settings=settings,
        ))
    except _PlayError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    from bots.blokus.match import summarise

    summaries = summarise(records, labels)
    console = Console()
    console.print(_table(summaries, len(records), where))
    for label in labels:
        failed_games = [r.failures[label] for r in records if label in r.failures]
        if failed_games:
            typer.echo(f"note: {label} stopped early in {len(failed_games)} game(s); first: "
                       f"{failed_games[0]}", err=True)
    failed = sum(1 for r in records if r.error is not None)
    if json_out is not None:
        document: dict[str, Any] = {
            "game": game, "bots": list(labels), "seed": seed, "server": where,
            "summary": [s.to_json() for s in summaries],
            "games": [r.to_json() for r in records],
        }
        json_out.write_text(json.dumps(document, indent=1), encoding="utf-8")
    if failed:
        typer.echo(f"error: {failed} game(s) ended without a result; first: "
                   f"{next(r.error for r in records if r.error)}", err=True)
        raise typer.Exit(1)


class _PlayError(Exception):
    pass


def _labels(bot_a: str, bot_b: str) -> tuple[str, str]:
    """Row names; the same bot on both sides becomes `random (A)` and `random (B)`."""
    if bot_a == bot_b:
        return f"{bot_a} (A)", f"{bot_b} (B)"
    return bot_a, bot_b


def _external_password(settings: Settings) -> str:
    """The admin password of a server already running: never a new one."""
    preset = settings.admin_password.get_secret_value() if settings.admin_password else None
    password = find_admin_password(preset, settings.data_dir, create=False)
    if password is None:
        raise _PlayError(f"a server runs there but its admin password is unknown: pass "
                         f"--admin-password, set {PASSWORD_ENV} or --data-dir "
                         f"(no {settings.data_dir / PASSWORD_FILE})")
    return password


async def _play(*, bots: tuple[tuple[str, Any], tuple[str, Any]], games: int,
                seed: int | None, concurrency: int, port: int | None, settings: Settings,
                ) -> tuple[list[Any], str]:
    from bots.blokus.match import SeriesError, reachable, run_series
    from server.runtime import GauntletServer

    host = settings.host

    async def series(server_port: int, password: str) -> list[Any]:
        with _progress(games) as (progress, task):
            return await run_series(
                bots, games, host=host, port=server_port, password=password,
                concurrency=concurrency, seed=seed,
                on_game=lambda _record: progress.advance(task),
            )

    try:
        if port is not None and await asyncio.to_thread(reachable, host, port):
            password = _external_password(settings)
            return await series(port, password), f"{host}:{port}"
        # Our own server: a fresh password, and a free port unless --port names one.
        config = ServerConfig.from_settings(settings, tcp_port=port or 0, seed=seed,
                                            admin_password=secrets.token_urlsafe(18))
        try:
            async with GauntletServer(config) as server:
                where = f"in-process {host}:{server.tcp_port}"
                return await series(server.tcp_port, config.resolve_admin_password()), where
        except OSError as error:
            raise _PlayError(f"cannot start a server on {host}:{port}: {error}") from None
    except SeriesError as error:
        raise _PlayError(str(error)) from None


class _progress:
    """A rich progress bar on stderr, so that stdout carries only the table."""

    def __init__(self, total: int) -> None:
        self.progress = Progress(
            TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=Console(stderr=True), transient=False,
        )
        self.total = total

    def __enter__(self) -> tuple[Progress, Any]:
        self.progress.start()
        return self.progress, self.progress.add_task("games", total=self.total)

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()


def _table(summaries: list[Any], games: int, where: str) -> Table:
    # A light box keeps all nine columns readable in 80 columns (pipes, CI logs).
    plural = "" if games == 1 else "s"
    table = Table(title=f"{games} game{plural} on {where}, seats swapped every other game",
                  box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True,
                  caption="points: mean team points per game (a violator scores 0); "
                  "timeouts: soft or hard, as the violator")
    for column in ("bot", "games", "wins", "draws", "losses", "points", "timeouts",
                   "violations", "as ONE"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in summaries:
        table.add_row(s.label, str(s.games), str(s.wins), str(s.draws), str(s.losses),
                      f"{s.mean_points:.1f}", str(s.timeouts), str(s.violations),
                      str(s.as_team_one))
    return table
