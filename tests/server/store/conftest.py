"""Store tests run on a SQLite file and on a throwaway PostgreSQL server (`db_url`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.store import Store, migrate
from tests.pg import pg_url, postgres  # noqa: F401  (fixtures)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file in tmp_path, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db' / 'gauntlet.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A migrated store on `db_url`."""
    migrate.upgrade(db_url)
    opened = Store(db_url)
    try:
        yield opened
    finally:
        opened.close()
