"""The store's SQL fast path: Core statements compiled once per dialect and run as the
driver's own SQL on the DBAPI cursor, the event rows inserted many to a statement, and the
DBAPI's own savepoints.

The writer thread records every match through here (its creation, status changes, result
and every batch of its events): through SQLAlchemy's statement execution each statement
cost about 85 µs of Python more, and `exec_driver_sql` still spent about as much around
each statement as SQLite spent running it (docs/benchmarks.md, "Store"). It is apart from
the query API (`server.store.store`) because it is a different kind of code: SQL text,
parameter order and driver conversions, where the query API says what to store in
SQLAlchemy's terms. It imports nothing of the query API, so it can be read, measured
(`bench/store.py`) and changed on its own; `tests/server/store/test_store_layout.py` holds both
to that.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect

from server.store.errors import StoreError
from server.store.models import MatchEvent
from server.store.records import JSONText, NewEvent

INSERT_EVENT = sa.insert(MatchEvent.__table__)  # type: ignore[attr-defined]

EVENT_COLUMNS = ("match_id", "seq", "time", "kind", "payload")
"""The order `insert_events` builds an event row's values in."""

ROWS_PER_INSERT = 100
"""Rows per multi-row INSERT: up to 9 parameters each (a seat) stays under SQLite's oldest
limit of 999."""


@functools.lru_cache(maxsize=2 * ROWS_PER_INSERT)
def multi_row(sql: str, rows: int) -> str:
    """The one-row ``INSERT ... VALUES (?, ...)`` `sql` made to insert `rows` rows.

    >>> multi_row("INSERT INTO t (a, b) VALUES (?, ?)", 3)
    'INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?)'
    """
    head, values = sql.rsplit(" VALUES ", 1)
    return f"{head} VALUES {', '.join([values] * rows)}"


@functools.cache
def event_insert(dialect: Dialect) -> tuple[str, tuple[int, ...] | None,
                                             Callable[[Any], Any], Callable[[Any], Any]]:
    """`INSERT_EVENT` in `dialect`'s own SQL (`driver`); the order of `EVENT_COLUMNS`
    its positional parameters take (None: named); the time's and the payload's
    conversions, the ones their column types make (JSON text, the time as the dialect
    stores it; a `JSONText` payload goes into SQLite as it is)."""
    insert = driver(INSERT_EVENT, dialect)
    to_json = insert.convert.get("payload", same)
    # SQLite's JSON column is text; another database's driver gets the value.
    text_as_is = dialect.name == "sqlite"

    def payload(value: Any) -> Any:
        if type(value) is JSONText:
            return value if text_as_is else to_json(json.loads(value))
        return to_json(value)

    order = None
    if insert.positional:
        if sorted(insert.names) != sorted(EVENT_COLUMNS):
            raise StoreError(f"unexpected event insert parameters {insert.names}")
        order = tuple(EVENT_COLUMNS.index(name) for name in insert.names)
    return insert.sql, order, insert.convert.get("time", same), payload


def same(value: Any) -> Any:
    return value


def insert_events(connection: Connection, events: Sequence[NewEvent]) -> None:
    """`events` inserted inside the transaction `connection` has begun (`Store.append_events`).

    The driver's own SQL, the values converted by the columns' own types: through
    SQLAlchemy's statement execution a row cost about three times what SQLite spends on
    it (this runs for every batch the writer thread commits).
    """
    sql, order, to_time, to_json = event_insert(connection.dialect)
    rows: list[Any] = []
    when, stamp = None, None
    for e in events:
        if e.time is not when:  # a batch's events share their time
            when, stamp = e.time, to_time(e.time)
        rows.append((e.match_id, e.seq, stamp, e.kind, to_json(e.payload)))
    if order is None:  # named parameters (PostgreSQL)
        insert_rows(connection, sql, [dict(zip(EVENT_COLUMNS, values, strict=True))
                                      for values in rows], False)
        return
    if order != tuple(range(len(EVENT_COLUMNS))):
        rows = [tuple(values[i] for i in order) for values in rows]
    insert_rows(connection, sql, rows, True)


@dataclass(frozen=True)
class Driver:
    """A Core statement compiled once for a dialect, run as the driver's own SQL on the
    DBAPI cursor (`execute`).

    The writer thread runs these for every match (its creation, status changes and
    result) and every batch of events; through SQLAlchemy's statement execution each
    statement cost about 85 µs of Python more than through `exec_driver_sql`, which in
    turn spent about as much around each statement as SQLite spent running it
    (docs/benchmarks.md, "Store").
    The values are converted by the binds' own types (e.g. psycopg's own JSON type), as
    SQLAlchemy would.
    """

    sql: str
    names: tuple[str, ...]  # the parameters in the order the SQL takes them
    positional: bool  # else named: a dict of `names`
    fixed: dict[str, Any]  # values the statement holds itself (status = 'finished', ...)
    convert: dict[str, Callable[[Any], Any]]

    def params(self, values: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        given = self.fixed | values
        for name, convert in self.convert.items():
            given[name] = convert(given[name])
        if self.positional:
            return tuple(map(given.__getitem__, self.names))
        return {name: given[name] for name in self.names}

    def run(self, connection: Connection, values: dict[str, Any]) -> int:
        """Run it for one row of values; the number of rows it changed."""
        return execute(connection, self.sql, self.params(values))

    def run_many(self, connection: Connection, rows: Sequence[dict[str, Any]]) -> None:
        """An INSERT for several rows (`insert_rows`)."""
        insert_rows(connection, self.sql, [self.params(row) for row in rows],
                    self.positional)


def insert_rows(connection: Connection, sql: str, rows: Sequence[Any],
                positional: bool) -> None:
    """The one-row INSERT `sql` for each of `rows` (their parameters).

    Positional (SQLite): many rows per statement. The driver's executemany lets go of the
    GIL around every row, and each time the event loop's thread holds it the writer waits
    and pays for the switch: 150 µs of CPU a row under load against 10 for a multi-row
    statement (docs/benchmarks.md, "The writer and the GIL"). Named (PostgreSQL): the
    driver's executemany.
    """
    if not positional:
        execute(connection, sql, rows, many=True)
        return
    for start in range(0, len(rows), ROWS_PER_INSERT):
        chunk = rows[start:start + ROWS_PER_INSERT]
        execute(connection, multi_row(sql, len(chunk)),
                tuple(itertools.chain.from_iterable(chunk)))


def execute(connection: Connection, sql: str, params: Any, *, many: bool = False) -> int:
    """`sql` (the driver's own) run on the DBAPI cursor of `connection`, inside the
    transaction it has begun; returns the cursor's rowcount.

    The writer thread runs every statement this way: `exec_driver_sql` spent about as much
    Python around each statement as SQLite spent running it (docs/benchmarks.md, "Store").
    The dialect's `do_execute` runs it, as under `exec_driver_sql` (SQLAlchemy's
    `before_cursor_execute` events do not see it), and the driver's errors come out as
    SQLAlchemy's.
    """
    dialect = connection.dialect
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        if many:
            dialect.do_executemany(cursor, sql, params)
        else:
            dialect.do_execute(cursor, sql, params)
        return int(cursor.rowcount)
    except dialect.loaded_dbapi.Error as exc:
        raise sa.exc.DBAPIError.instance(sql, params, exc, dialect.loaded_dbapi.Error,
                                         dialect=dialect) from exc
    finally:
        cursor.close()


@functools.cache
def driver(statement: Any, dialect: Dialect) -> Driver:
    """`statement` compiled for `dialect` once (the cache holds it for the process: the
    statements are module constants of the query API)."""
    compiled = statement.compile(dialect=dialect)
    fixed: dict[str, Any] = {}
    convert: dict[str, Callable[[Any], Any]] = {}
    for bind, name in compiled.bind_names.items():
        if not bind.required:
            fixed[name] = bind.value
        processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if processor is not None:
            convert[name] = processor
    if compiled.positional:
        names = tuple(compiled.positiontup or ())
    else:
        names = tuple(dict.fromkeys(compiled.bind_names.values()))
    return Driver(compiled.string, names, compiled.positional, fixed, convert)


@functools.cache
def savepoint_sql(depth: int) -> tuple[str, str, str]:
    """The SAVEPOINT, ROLLBACK TO and RELEASE statements of a group's savepoint `depth`
    deep (`Store._core`), run on the DBAPI cursor: SQLAlchemy's nested transaction costs
    about a hundred times as much, and these wrap every write of the writer thread.

    >>> savepoint_sql(1)
    ('SAVEPOINT gauntlet_1', 'ROLLBACK TO SAVEPOINT gauntlet_1', 'RELEASE SAVEPOINT gauntlet_1')
    """
    name = f"gauntlet_{depth}"
    return f"SAVEPOINT {name}", f"ROLLBACK TO SAVEPOINT {name}", f"RELEASE SAVEPOINT {name}"
