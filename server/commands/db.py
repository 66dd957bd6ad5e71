"""`gauntlet db upgrade`: bring the database to the newest schema (alembic upgrade head);
`gauntlet db prune`: what the retention drops, at once, then give the space back."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from server.commands.common import command_settings, env_help
from server.commands.root import app
from server.settings import DEFAULTS

# Read through command_settings, like every setting: the option only has to exist.
DatabaseUrl = Annotated[str, typer.Option(
    "--db", "--database-url", help=env_help("database_url", "Database URL (SQLAlchemy)."))]

db_app = typer.Typer(help="The match database.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command()
def upgrade(
    ctx: typer.Context,
    database_url: DatabaseUrl = DEFAULTS.database_url,
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


@db_app.command()
def prune(
    ctx: typer.Context,
    database_url: DatabaseUrl = DEFAULTS.database_url,
    older_than: Annotated[float | None, typer.Option(
        "--older-than", metavar="DAYS", min=0,
        help=env_help("event_retention_days", "Drop the events of matches that ended more "
                      "than DAYS days ago (results, seats and ratings stay; 0: keep them)."))]
    = None,
    unplayed_retention_minutes: Annotated[float, typer.Option(
        "--unplayed-minutes", metavar="MINUTES", min=0,
        help=env_help("unplayed_retention_minutes", "Delete the matches that ended without "
                      "a result and without a move more than MINUTES ago (0: keep them)."))]
    = DEFAULTS.unplayed_retention_minutes,
    data_dir: Annotated[Path, typer.Option(
        help=env_help("data_dir", "Data folder (the launched bots' output)."))]
    = DEFAULTS.data_dir,
    vacuum: Annotated[bool, typer.Option(
        "--vacuum/--no-vacuum", help="SQLite: VACUUM afterwards, giving the freed space back "
        "to the filesystem (needs about the database's size free while it runs).")] = True,
) -> None:
    """Apply the retention now: pack the ended matches' events that are still rows, drop
    the events of old matches and delete unplayed ones, then VACUUM (SQLite). Safe while a
    server runs on the database (the VACUUM then waits for it, or is refused)."""
    from server.matches import SEAT_LOGS
    from server.store import Store
    from server.store.engine import _sqlite_file
    from server.store.retention import Retention, forget_seat_logs, sweep

    settings = command_settings(ctx, older_than="event_retention_days")
    url = settings.database_url
    retention = Retention(settings.event_retention_days, settings.unplayed_retention_minutes)
    store = Store(url)
    try:
        store.upgrade()
        path = _sqlite_file(store.url)
        before = _size(path)
        done = sweep(store, retention, limit=None)
        forget_seat_logs(settings.data_dir / SEAT_LOGS, done.dropped + done.deleted)
        vacuumed = vacuum and store.vacuum()
        after = _size(path)
    except Exception as error:  # one line, not a traceback: a bad URL, a locked file
        typer.echo(f"error: cannot prune {url}: {error}", err=True)
        raise typer.Exit(1) from None
    finally:
        store.close()
    typer.echo(f"{done.packed} ended matches packed, events of {len(done.dropped)} matches "
               f"dropped, {len(done.deleted)} unplayed matches deleted")
    if before is not None and after is not None:
        typer.echo(f"{path}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB"
                   f"{' (vacuumed)' if vacuumed else ''}")


def _size(path: Path | None) -> int | None:
    """A SQLite database's bytes on disk, its WAL included (None: not a file)."""
    if path is None or not path.exists():
        return None
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
