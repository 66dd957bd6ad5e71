"""`gauntlet worker`: a Celery worker that plays `play_match` jobs, one match at a time."""

from __future__ import annotations

import logging
import os
import socket
from typing import Annotated

import typer

from server.commands.common import command_settings, env_help
from server.commands.root import app
from server.settings import DEFAULTS


@app.command()
def worker(
    ctx: typer.Context,
    broker_url: Annotated[str | None, typer.Option(
        "--broker", "--broker-url",
        help=env_help("broker_url", "Celery broker (redis://host:6379/0)."))] = None,
    redis_url: Annotated[str | None, typer.Option(
        "--redis", "--redis-url",
        help=env_help("redis_url", "Redis for the spectators' pub/sub (unset: the broker)."))]
    = None,
    database_url: Annotated[str, typer.Option(
        "--db", "--database-url", help=env_help(
            "database_url", "The shared store (postgresql+psycopg://...)."))]
    = DEFAULTS.database_url,
    visibility_timeout: Annotated[int, typer.Option(
        help=env_help("visibility_timeout",
                      "Seconds before an unacknowledged job goes to another worker; "
                      "longer than the longest match."))] = DEFAULTS.visibility_timeout,
    data_dir: Annotated[str, typer.Option(
        help=env_help("data_dir", "Data folder (the bots' seat logs)."))]
    = str(DEFAULTS.data_dir),
    log_level: Annotated[str, typer.Option(
        help=env_help("log_level", "Logging level."))] = DEFAULTS.log_level,
    name: Annotated[str | None, typer.Option(
        help="The worker's node name (default gauntlet-<pid>@<host>).")] = None,
) -> None:
    """Play matches from the broker's queue until Ctrl-C (docs/scale.md).

    Each job is one stored match between registered bots: the worker hosts its room on an
    ephemeral loopback port, launches both bots here, writes events and the result to the
    shared store and publishes the frames on Redis. One match at a time; start more
    workers for more matches (`docker compose --profile cluster up --scale worker=4`).
    """
    settings = command_settings(ctx)
    if not settings.broker_url:
        typer.echo("error: no broker: set GAUNTLET_BROKER_URL or --broker", err=True)
        raise typer.Exit(2)
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from server.worker.celery_app import create_app
    from server.worker.channels import QUEUE

    celery = create_app(settings)
    node = name or f"gauntlet-{os.getpid()}@{socket.gethostname()}"
    celery.worker_main([
        "worker", "--concurrency", "1", "--prefetch-multiplier", "1", "--queues", QUEUE,
        "--hostname", node, "--loglevel", settings.log_level,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ])
