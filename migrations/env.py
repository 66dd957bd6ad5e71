"""Alembic environment: the store's own metadata, the URL (or connection) from the caller.

Called two ways: by `server.store.migrate` (which passes a URL or an open connection in
`config.attributes` and keeps the application's logging as it is), and by the alembic CLI
(`alembic -c migrations/alembic.ini ...`, URL from `GAUNTLET_DATABASE_URL` or the default).

SQLite specifics, each for a reason:
- `render_as_batch`: SQLite cannot ALTER most things; batch mode copies the table instead.
- foreign keys are switched off around the run: a batch copy drops and renames the old
  table, and with enforcement on that DROP would cascade into the child tables (every event
  of every match gone). `PRAGMA foreign_key_check` runs before the commit instead, so a
  migration that breaks a reference rolls back.
- `transactional_ddl`: our engines emit BEGIN themselves, so SQLite's DDL is transactional
  and a failed upgrade leaves the previous schema, never half of the new one.
"""

from __future__ import annotations

import logging.config
import os
from typing import Any, Literal

import sqlalchemy as sa
from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy.engine import Connection

from server.store.engine import DEFAULT_URL, make_engine
from server.store.models import UTCDateTime, metadata

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str | sa.URL:
    url: str | sa.URL | None = config.attributes.get("url")
    return url or os.environ.get("GAUNTLET_DATABASE_URL") or DEFAULT_URL


def _render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Spell the store's column types as plain SQLAlchemy types in generated migrations.

    A migration must not import application code that may change later; `UTCDateTime`
    only adds Python-side conversion on top of `DateTime(timezone=True)`.
    """
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(**kwargs: Any) -> None:
    context.configure(
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
        **kwargs,
    )


def run_migrations_offline() -> None:
    """`--sql` mode: print the DDL instead of running it."""
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    driver: Any = connection.connection.driver_connection
    if sqlite:
        if connection.in_transaction():
            raise RuntimeError("migrations need a SQLite connection outside a transaction "
                               "(PRAGMA foreign_keys cannot change inside one)")
        driver.execute("PRAGMA foreign_keys=OFF")
    try:
        _configure(connection=connection, transactional_ddl=True if sqlite else None)
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"migration broke foreign keys: {broken[:10]}")
    finally:
        if sqlite:
            driver.execute("PRAGMA foreign_keys=ON")


def run_migrations_online() -> None:
    connection: Connection | None = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
