"""`gauntlet db upgrade`: bring the database to the newest schema (alembic upgrade head)."""

from __future__ import annotations

from typing import Annotated

import typer

from server.cli import app
from server.commands.common import command_settings, env_help
from server.settings import DEFAULTS

db_app = typer.Typer(help="The match database.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command()
def upgrade(
    ctx: typer.Context,
    database_url: Annotated[str, typer.Option(
        "--db", "--database-url", help=env_help("database_url", "Database URL (SQLAlchemy)."))]
    = DEFAULTS.database_url,
    revision: Annotated[str, typer.Option(help="Target revision.")] = "head",
) -> None:
    """Create or migrate the database's tables (`gauntlet serve` does this on start too)."""
    from server.store.migrate import current_revision
    from server.store.migrate import upgrade as run_upgrade

    settings = command_settings(ctx)
    url = settings.database_url
    try:
        run_upgrade(url, revision)
        now = current_revision(url)
    except Exception as error:  # one line, not a traceback: a bad URL, a locked file
        typer.echo(f"error: cannot upgrade {url}: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"database {url} is at revision {now}")
