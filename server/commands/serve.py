"""`gauntlet serve`: the match server for bots speaking the Software-Challenge protocol."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer

from server.commands.common import command_settings, env_help, run_server, stop_event
from server.commands.root import app
from server.config import PASSWORD_ENV, ServerConfig
from server.ladder import LadderOptions
from server.settings import DEFAULTS, load_settings


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(
        help=env_help("host", "Address to listen on (loopback by default)."))] = DEFAULTS.host,
    tcp_port: Annotated[int, typer.Option(
        "--port", "-p", "--tcp-port",
        help=env_help("tcp_port", "TCP port for bots (0 = any free)."))]
    = DEFAULTS.tcp_port,
    no_timeout: Annotated[bool, typer.Option(
        "--no-timeout/--timeout",
        help=env_help("no_timeout", "Disable the soft and hard move clocks."))]
    = DEFAULTS.no_timeout,
    soft_timeout: Annotated[float, typer.Option(
        help=env_help("soft_timeout", "Soft move clock in seconds."))] = DEFAULTS.soft_timeout,
    hard_timeout: Annotated[float, typer.Option(
        help=env_help("hard_timeout", "Hard move clock in seconds."))] = DEFAULTS.hard_timeout,
    decision_timeout: Annotated[float, typer.Option(
        help=env_help("decision_timeout", "Hearth: seconds for each decision."))]
    = DEFAULTS.decision_timeout,
    turn_timeout: Annotated[float, typer.Option(
        help=env_help("turn_timeout", "Hearth: seconds for all decisions of one turn."))]
    = DEFAULTS.turn_timeout,
    save_replays: Annotated[bool, typer.Option(
        "--save-replays/--no-save-replays",
        help=env_help("save_replays", "Write an official-format replay per match."))]
    = DEFAULTS.save_replays,
    replay_dir: Annotated[Path, typer.Option(
        help=env_help("replay_dir", "Where replays go."))] = DEFAULTS.replay_dir,
    gzip_replays: Annotated[bool, typer.Option(
        "--gzip-replays/--no-gzip-replays", help=env_help("gzip_replays", "Gzip the replays."))]
    = DEFAULTS.gzip_replays,
    paused: Annotated[bool, typer.Option(
        "--paused/--no-paused",
        help=env_help("paused", "Start matches paused (admins step them)."))] = DEFAULTS.paused,
    data_dir: Annotated[Path, typer.Option(
        help=env_help("data_dir", "Data folder (the generated admin password)."))]
    = DEFAULTS.data_dir,
    http_port: Annotated[int, typer.Option(
        "--http-port", help=env_help("http_port", "HTTP API port (0 = any free)."))]
    = DEFAULTS.http_port,
    database_url: Annotated[str, typer.Option(
        "--db", "--database-url", help=env_help(
            "database_url", "Database URL (SQLAlchemy); upgraded on start."))]
    = DEFAULTS.database_url,
    log_level: Annotated[str, typer.Option(
        help=env_help("log_level", "Logging level."))] = DEFAULTS.log_level,
    seed: Annotated[int | None, typer.Option(
        help="Seed the rooms' start pieces (in room-creation order) for reproducible series.")]
    = None,
) -> None:
    """Run the match server until Ctrl-C.

    The admin password comes from GAUNTLET_ADMIN_PASSWORD when set; otherwise a secret is
    generated on the first start and stored in <data-dir>/admin-password (mode 0600).
    The HTTP API's token likewise: GAUNTLET_ADMIN_TOKEN, else <data-dir>/admin-token.
    Every match is stored in the database (schema upgraded on start); matches a killed
    server left open are marked aborted.
    """
    settings = command_settings(ctx)
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if logging.getLogger().level > logging.DEBUG:
        # Alembic narrates every plugin and migration at INFO: only with --log-level DEBUG.
        logging.getLogger("alembic").setLevel(logging.WARNING)
    token = settings.admin_token.get_secret_value() if settings.admin_token else None
    config = ServerConfig.from_settings(settings, seed=seed, http_port=settings.http_port,
                                        admin_token=token)
    source = PASSWORD_ENV if config.admin_password else str(config.password_file)
    _check_database(config.db_url or DEFAULTS.database_url)
    try:
        config.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        typer.echo(f"error: cannot create the data folder {config.data_dir}: "
                   f"{error.strerror or error} (--data-dir, GAUNTLET_DATA_DIR)", err=True)
        raise typer.Exit(1) from None
    from sqlalchemy.exc import OperationalError

    try:
        run_server(_serve(config, source), config.host,
                   {config.tcp_port: "--port", config.http_port or -1: "--http-port"})
    except OperationalError as error:
        typer.echo(f"error: cannot open the database {_safe_url(config.db_url)}: "
                   f"{' '.join(str(error.orig).split())}", err=True)
        raise typer.Exit(1) from None
    except OSError as error:  # a folder for the database, replays, ... that cannot be made
        where = f" {error.filename}" if error.filename else ""
        typer.echo(f"error: cannot start:{where}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None


def _safe_url(url: str | None) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url or DEFAULTS.database_url).render_as_string(hide_password=True)


def _check_database(url: str) -> None:
    """A URL SQLAlchemy cannot use (unknown dialect, driver not installed): one line."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        make_url(url).get_dialect()
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        shown = url if isinstance(error, ArgumentError) else _safe_url(url)
        typer.echo(f"error: invalid settings: --db {shown}: {error}", err=True)
        raise typer.Exit(2) from None


def ladder_options() -> LadderOptions:
    """The ladder's settings (environment only: GAUNTLET_LADDER_*)."""
    settings = load_settings()
    return LadderOptions(concurrency=settings.ladder_concurrency,
                         autostart=settings.ladder_autostart,
                         min_move_time=settings.ladder_min_move_time or 0.0)


async def _serve(config: ServerConfig, password_source: str) -> None:
    from server.runtime import GauntletServer, tune_gc
    from server.store import Store

    stop = stop_event()
    store = Store(config.db_url or DEFAULTS.database_url)
    ladder = ladder_options()
    try:
        async with GauntletServer(config, store=store, ladder=ladder) as server:
            typer.echo(f"Gauntlet listening on {config.host}:{server.tcp_port} "
                       f"(admin password: {password_source}); "
                       f"HTTP API on http://{config.host}:{server.http_port}/api "
                       f"(docs at /docs); database {store.url.render_as_string()}")
            if server.admin_token_generated:
                typer.echo(f"Admin token (shown once, stored in "
                           f"{config.data_dir / 'admin-token'}): {server.admin_token}")
            if server.ladder is not None:
                running = await asyncio.to_thread(server.ladder.ladder.running_games)
                typer.echo(f"Ladder: {', '.join(running) or 'stopped'} "
                           f"({server.ladder.concurrency} matches at a time; "
                           "gauntlet ladder status)")
            tune_gc()  # started: what is alive now lives as long as the server
            await stop.wait()
            typer.echo("Shutting down...")
    finally:
        store.close()
