"""Run the store's alembic migrations from code (`gauntlet db upgrade`, tests, first start).

The migrations live in the top-level `migrations/` folder (DESIGN.md's layout), found from
this file's location rather than from the working directory, so the server can upgrade its
database wherever it was started from. Application logging is left alone: alembic's ini
file configures logging only when the alembic CLI runs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

from server.store.engine import DEFAULT_URL, make_engine

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
"""The alembic script directory (with `alembic.ini`, `env.py` and `versions/`)."""


def _escape(value: str) -> str:
    """Config values pass through configparser interpolation: a literal % must be %%."""
    return value.replace("%", "%%")


def alembic_config(*, url: str | sa.URL | None = None, connection: Connection | None = None,
                   extra_versions: Sequence[str | Path] = ()) -> Config:
    """An alembic `Config` for the store; `extra_versions` adds revision folders (tests)."""
    ini = MIGRATIONS_DIR / "alembic.ini"
    if not ini.exists():
        raise FileNotFoundError(
            f"the store's migrations are not at {MIGRATIONS_DIR}: gauntlet must run from its "
            "source tree (pip install -e .), which holds the top-level migrations/ folder")
    cfg = Config(str(ini))
    cfg.attributes["configure_logging"] = False
    if url is not None:
        cfg.attributes["url"] = url
    if connection is not None:
        cfg.attributes["connection"] = connection
    if extra_versions:
        folders = [MIGRATIONS_DIR / "versions", *map(Path, extra_versions)]
        cfg.set_main_option("version_locations",
                            _escape(os.pathsep.join(str(f) for f in folders)))
    return cfg


@contextmanager
def _connection(target: str | sa.URL | Engine) -> Iterator[Connection]:
    """A fresh connection to `target` (our engine setup applies to URLs too)."""
    engine = target if isinstance(target, Engine) else make_engine(target)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        if engine is not target:
            engine.dispose()


def upgrade(target: str | sa.URL | Engine = DEFAULT_URL, revision: str = "head", *,
            extra_versions: Sequence[str | Path] = ()) -> None:
    """`alembic upgrade <revision>` on a URL or an engine; creates a new SQLite file."""
    with _connection(target) as connection:
        command.upgrade(alembic_config(connection=connection, extra_versions=extra_versions),
                        revision)


def downgrade(target: str | sa.URL | Engine, revision: str) -> None:
    """`alembic downgrade <revision>` (tests and emergencies)."""
    with _connection(target) as connection:
        command.downgrade(alembic_config(connection=connection), revision)


def current_revision(target: str | sa.URL | Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with _connection(target) as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    """The newest revision the code knows."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
