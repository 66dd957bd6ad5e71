"""Engines from a URL, with SQLite set up the way a match server needs it.

SQLite is the default store, and its defaults suit neither concurrent readers nor durable
results, so every new SQLite connection is configured by a `connect` listener (a pool may
open connections at any time, so a one-off PRAGMA would not do):

- `journal_mode=WAL`: the API's readers never block the writer thread, nor it them.
- `synchronous=FULL`: a commit survives a power cut, not only a process crash; rule 5 says a
  finished match is never lost, and batching keeps the number of fsyncs small.
- `foreign_keys=ON`: SQLite ignores foreign keys unless told per connection.
- `busy_timeout`: wait for a lock instead of failing at once.

The sqlite3 module's own transaction handling is switched off and SQLAlchemy emits BEGIN
itself (the recipe in SQLAlchemy's SQLite notes): sqlite3 would otherwise not begin a
transaction for SELECTs or DDL. Write sessions begin IMMEDIATE (they take the write lock up
front, waiting for it under the busy timeout); with a deferred BEGIN a transaction that
read first could fail at its first write with SQLITE_BUSY, which no timeout retries.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

DEFAULT_URL = "sqlite:///./data/gauntlet.db"
"""Where the store lives unless `GAUNTLET_DATABASE_URL` (or the caller) says otherwise."""

BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite connection waits for a lock before it reports "database is locked"."""

WRITE_OPTION = "gauntlet_write"
"""Execution option marking a connection that will write (SQLite: BEGIN IMMEDIATE)."""


def is_sqlite(engine: Engine) -> bool:
    """True for any SQLite driver (pysqlite, pysqlcipher, ...)."""
    return engine.dialect.name == "sqlite"


def is_memory(engine: Engine) -> bool:
    """True for an in-memory SQLite database (its one connection is the database)."""
    return is_sqlite(engine) and _sqlite_file(engine.url) is None


def _sqlite_file(url: sa.URL) -> Path | None:
    """The database file a SQLite URL names, or None for an in-memory database."""
    database = url.database
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        # A URI filename (`?uri=true`; the URL's query holds the URI's parameters).
        path = database[len("file:"):].split("?", 1)[0]
        if not path or path == ":memory:" or url.query.get("mode") == "memory":
            return None
        return Path(path)
    return Path(database)


def make_engine(url: str | sa.URL = DEFAULT_URL, **kwargs: Any) -> Engine:
    """An engine for `url`; SQLite gets its folder created and the pragmas above.

    Extra keyword arguments go to `sqlalchemy.create_engine` (echo, pool sizes, ...).
    An in-memory SQLite database lives in one connection, so its pool holds that one
    connection (`QueuePool` of size 1, never more): a thread checks it out for one
    transaction at a time and the others wait their turn. (A `StaticPool` would hand the
    same connection to every thread at once, and two threads' transactions on it collide:
    "cannot start a transaction within a transaction".) Fine for tests, not for serving.
    """
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        kwargs.setdefault("pool_pre_ping", True)
        return sa.create_engine(parsed, **kwargs)
    path = _sqlite_file(parsed)
    connect_args: dict[str, Any] = dict(kwargs.pop("connect_args", {}))
    # The writer thread and the API's threadpool share the pool; each connection is still
    # used by one thread at a time, which is what sqlite3's same-thread check is about.
    connect_args.setdefault("check_same_thread", False)
    connect_args.setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
    if path is None:
        kwargs.setdefault("poolclass", QueuePool)
        kwargs.setdefault("pool_size", 1)
        kwargs.setdefault("max_overflow", 0)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(parsed, connect_args=connect_args, **kwargs)
    event.listen(engine, "connect", _configure_sqlite_connection)
    event.listen(engine, "begin", _begin_sqlite_transaction)
    return engine


def _configure_sqlite_connection(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    """Runs once per new DBAPI connection: the pragmas the module docstring explains."""
    assert isinstance(dbapi_connection, sqlite3.Connection)
    # SQLAlchemy emits BEGIN (see `_begin_sqlite_transaction`), not the sqlite3 module.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")
        mode = cursor.execute("PRAGMA journal_mode").fetchone()
        if mode is not None and str(mode[0]).lower() not in ("wal", "memory"):
            # Switching needs a write; a read-only file keeps its mode (and reports that
            # on the first write instead of here, where nobody could tell why).
            with contextlib.suppress(sqlite3.OperationalError):
                cursor.execute("PRAGMA journal_mode=WAL")
    finally:
        cursor.close()


def _begin_sqlite_transaction(connection: Connection) -> None:
    """BEGIN IMMEDIATE for write sessions, a plain deferred BEGIN for readers."""
    if connection.get_execution_options().get(WRITE_OPTION):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")


def writing(engine: Engine) -> Engine:
    """The same engine (same pool) with connections marked for writing."""
    return engine.execution_options(**{WRITE_OPTION: True})
