"""`gauntlet serve`: the match server for bots speaking the Software-Challenge protocol."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
from pathlib import Path
from typing import Annotated

import typer

from server.cli import app
from server.config import PASSWORD_ENV, ServerConfig

# Why a listen fails at start-up: the port is taken (another `make run`?), the address is
# not this machine's, or a privileged port. Said in one line, not a traceback.
_LISTEN_ERRORS = (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")]
    = "127.0.0.1",
    tcp_port: Annotated[int, typer.Option("--tcp-port", help="TCP port for bots (0 = any free).")]
    = 13050,
    no_timeout: Annotated[bool, typer.Option(
        "--no-timeout", help="Disable the soft (2 s) and hard (10 s) move clocks.")] = False,
    soft_timeout: Annotated[float, typer.Option(help="Soft move clock in seconds.")] = 2.0,
    hard_timeout: Annotated[float, typer.Option(help="Hard move clock in seconds.")] = 10.0,
    save_replays: Annotated[bool, typer.Option("--save-replays",
                                               help="Write an official-format replay per match.")]
    = False,
    replay_dir: Annotated[Path, typer.Option(help="Where replays go.")] = Path("replays"),
    gzip_replays: Annotated[bool, typer.Option("--gzip-replays", help="Gzip the replays.")]
    = False,
    paused: Annotated[bool, typer.Option("--paused",
                                         help="Start matches paused (admins step them).")]
    = False,
    data_dir: Annotated[Path, typer.Option(help="Data folder (the generated admin password).")]
    = Path("data"),
    db: Annotated[str | None, typer.Option("--db", help="Database URL, stored for later "
                                           "features; no database is used yet.")] = None,
    log_level: Annotated[str, typer.Option(help="Logging level.")] = "INFO",
    seed: Annotated[int | None, typer.Option(
        help="Seed the rooms' start pieces (in room-creation order) for reproducible series.")]
    = None,
) -> None:
    """Run the match server until Ctrl-C.

    The admin password comes from GAUNTLET_ADMIN_PASSWORD when set; otherwise a secret is
    generated on the first start and stored in <data-dir>/admin-password (mode 0600).
    """
    logging.basicConfig(level=log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = ServerConfig(
        host=host, tcp_port=tcp_port, soft_timeout=soft_timeout, hard_timeout=hard_timeout,
        no_timeout=no_timeout, paused=paused, data_dir=data_dir, save_replays=save_replays,
        replay_dir=replay_dir, gzip_replays=gzip_replays, db_url=db, seed=seed,
    )
    try:
        asyncio.run(_serve(config))
    except OSError as error:
        if error.errno not in _LISTEN_ERRORS:
            raise
        typer.echo(f"error: cannot listen on {config.host}:{config.tcp_port}: "
                   f"{error.strerror or error}", err=True)
        raise typer.Exit(1) from None


async def _serve(config: ServerConfig) -> None:
    from server.runtime import GauntletServer

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    async with GauntletServer(config) as server:
        source = PASSWORD_ENV if config.admin_password and _from_env() else config.password_file
        typer.echo(f"Gauntlet listening on {config.host}:{server.tcp_port} "
                   f"(admin password: {source})")
        await stop.wait()
        typer.echo("Shutting down...")


def _from_env() -> bool:
    import os

    return bool(os.environ.get(PASSWORD_ENV))
