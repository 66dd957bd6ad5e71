"""`Store`: every query the server and the API need, as plain synchronous calls.

These calls block (they are database round trips), so per DESIGN rule 3 nothing on the event
loop calls them directly: the API calls them from plain `def` handlers (FastAPI runs those in
its threadpool), and the rooms go through `StoreWriter`, which runs them on its own thread.

Each call is one short transaction on its own session and hands back detached rows
(`expire_on_commit=False`), so a row can travel to another thread or into a response
without touching the database again. Inside `group()` (the writer thread's group commit)
each call is a savepoint of the group's one transaction instead: a failing call undoes its
own writes only, and the whole group costs one commit.

What the writer thread runs for every match goes through the SQL fast path
(`server.store.fastpath`: the driver's own SQL on the DBAPI cursor); this module says what
is written and read, in SQLAlchemy's terms, and builds no SQL text itself. The exceptions
(`server.store.errors`) and the plain values (`server.store.records`) live apart so the
fast path needs nothing of this module; they are re-exported here.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, NoReturn

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from server.store.engine import (
    BUSY_TIMEOUT_MS,
    DEFAULT_URL,
    is_memory,
    is_sqlite,
    make_engine,
    writing,
)
from server.store.errors import Conflict, NotFound, StoreError, TransactionLost
from server.store.fastpath import driver, insert_events, savepoint_sql
from server.store.models import (
    OPEN_STATUSES,
    Bot,
    FailureCategory,
    Match,
    MatchEvent,
    MatchLog,
    MatchStatus,
    Outcome,
    Result,
    Seat,
    SeatMove,
    StoreProbe,
    UTCDateTime,
    new_match_id,
    utcnow,
)
from server.store.packing import pack, unpack
from server.store.records import (
    JSONText as JSONText,  # re-exported: `server.store` and older callers import it from here
)
from server.store.records import NewEvent, NewSeat, Page, Pruned, SeatOutcome, encode_json

log = logging.getLogger(__name__)

MAX_PAGE = 500
"""The most rows one list call returns, whatever the caller asks for."""

PROBE_BYTES = 1 << 20
"""What the health probe writes (`Store.probe`): about what a Hearth match's event rows
take while it is played (they are packed to a few dozen KB once it ends)."""

STATE_KIND = "state"
"""The kind of a match's state events: the opening state, then one per move."""


_UNSET: Any = object()

_MATCH: sa.Table = Match.__table__  # type: ignore[attr-defined]
_SEAT: sa.Table = Seat.__table__  # type: ignore[attr-defined]
_INSERT_MATCH = sa.insert(_MATCH)
_INSERT_SEAT = sa.insert(_SEAT)
_INSERT_RESULT = sa.insert(Result.__table__)  # type: ignore[attr-defined]
# The per-match writes, built once (the writer thread runs them for every match): an
# equality per open status rather than an IN list, which SQLAlchemy expands per call.
_OPEN = sa.or_(*(_MATCH.c.status == status for status in OPEN_STATUSES))
_GUARDED = sa.update(_MATCH).where(_MATCH.c.id == sa.bindparam("b_id"), _OPEN)
_NOW = sa.bindparam("b_now", type_=UTCDateTime)
_SET_STATUS: dict[MatchStatus | None, Any] = {
    MatchStatus.RUNNING: _GUARDED.values(status=sa.bindparam("b_status"),
                                         started=sa.func.coalesce(_MATCH.c.started, _NOW)),
    # A match created paused starts (its game begins, paused) before anyone resumes it.
    MatchStatus.PAUSED: _GUARDED.values(status=sa.bindparam("b_status"),
                                        started=sa.func.coalesce(_MATCH.c.started, _NOW)),
    MatchStatus.ABORTED: _GUARDED.values(status=sa.bindparam("b_status"), finished=_NOW),
    MatchStatus.CANCELLED: _GUARDED.values(status=sa.bindparam("b_status"), finished=_NOW),
    None: _GUARDED.values(status=sa.bindparam("b_status")),
}
_FINISH = _GUARDED.values(status=MatchStatus.FINISHED.value, finished=_NOW,
                          started=sa.func.coalesce(_MATCH.c.started, _NOW))
_STATUS_OF = sa.select(_MATCH.c.status).where(_MATCH.c.id == sa.bindparam("b_id"))
_SEAT_OUTCOME = (sa.update(_SEAT)
                 .where(_SEAT.c.match_id == sa.bindparam("b_id"),
                        _SEAT.c.index == sa.bindparam("b_index"))
                 .values(outcome=sa.bindparam("b_outcome"), failure=sa.bindparam("b_failure"),
                         detail=sa.bindparam("b_detail"),
                         score_parts=sa.bindparam("b_parts", type_=sa.JSON)))
_EVENTS: sa.Table = MatchEvent.__table__  # type: ignore[attr-defined]
_LOGS: sa.Table = MatchLog.__table__  # type: ignore[attr-defined]
_RESULT: sa.Table = Result.__table__  # type: ignore[attr-defined]
_MOVES: sa.Table = SeatMove.__table__  # type: ignore[attr-defined]
_OPEN_VALUES = frozenset(status.value for status in OPEN_STATUSES)
_OVER_VALUES = [status.value for status in MatchStatus if status not in OPEN_STATUSES]
# A match's rows with their payloads as the JSON text they hold (packed as it is).
_PLAIN_ROWS = (sa.select(_EVENTS.c.seq, _EVENTS.c.time, _EVENTS.c.kind,
                         sa.cast(_EVENTS.c.payload, sa.Text))
               .where(_EVENTS.c.match_id == sa.bindparam("b_id")).order_by(_EVENTS.c.seq))


def _chunks(ids: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


_SEAT_ROW: dict[str, Any] = Seat(match_id="", index=0).model_dump()
"""A seat row's defaults (a `Seat` object costs the writer thread more than its insert)."""


class Store:
    """The database of one server: open it from a URL, query it from any thread."""

    def __init__(self, url: str | sa.URL = DEFAULT_URL, *, engine: Engine | None = None) -> None:
        self.engine: Engine = engine if engine is not None else make_engine(url)
        self._write_engine = writing(self.engine)
        self._group = threading.local()  # .connection: this thread's open group; .kept
        # Every thread's kept group connection (SQLite), for close().
        self._all_kept: set[Connection] = set()
        self._kept_lock = threading.Lock()

    @property
    def url(self) -> sa.URL:
        return self.engine.url

    def close(self) -> None:
        """Close the pooled connections (idempotent)."""
        with self._kept_lock:
            kept, self._all_kept = self._all_kept, set()
        for connection in kept:
            with contextlib.suppress(Exception):
                connection.close()
        self.engine.dispose()

    def upgrade(self) -> None:
        """Bring the schema to the newest migration (`alembic upgrade head`)."""
        from server.store.migrate import upgrade

        upgrade(self.engine)

    @contextmanager
    def group(self, *, savepoints: bool = True) -> Iterator[None]:
        """One transaction for every call this thread makes inside the block.

        Each call runs in a savepoint of it (its own writes undone if it raises, the
        others kept) and everything commits once, at the end: a commit is an fsync, and
        the writer thread would otherwise pay one per match created, status changed and
        result stored. A failed commit raises here; none of the group's writes are then
        stored. Reads inside the block see the group's uncommitted writes.

        `savepoints=False`: the Core writes (events, match rows, statuses, results) run
        without their savepoints, for a caller that gives up the whole group when any
        write raises (`StoreWriter` then runs it again with them). Each statement is a
        round trip through the driver, which lets go of the GIL and takes it back: without
        the savepoint pairs the writer thread spends about a third less.
        """
        if self._group_connection() is not None:
            raise StoreError("store groups do not nest")
        connection = self._kept()
        if connection is None:
            with (self._write_engine.connect() as connection, connection.begin(),
                  self._grouped(connection, savepoints)):
                yield
            return
        try:
            with connection.begin(), self._grouped(connection, savepoints):
                yield
        except BaseException:
            self._drop_kept(connection)  # whatever went wrong, the next group starts afresh
            raise

    @contextmanager
    def _grouped(self, connection: Connection, savepoints: bool) -> Iterator[None]:
        self._group.connection = connection
        self._group.savepoints = savepoints
        try:
            yield
        finally:
            self._group.connection = None

    def _kept(self) -> Connection | None:
        """SQLite: this thread's connection for its groups (the writer thread is the one
        that makes them), kept from one group to the next: checking one out of the pool and
        back in cost about 0.15 ms of CPU a group. (A database server may restart between
        groups; a pool checkout notices, a kept connection would not: those are not kept.)
        """
        if not is_sqlite(self.engine) or is_memory(self.engine):
            return None  # in memory: the one connection must go back to the pool each time
        connection: Connection | None = getattr(self._group, "kept", None)
        if connection is None or connection.closed:
            connection = self._write_engine.connect()
            self._group.kept = connection
            with self._kept_lock:
                self._all_kept.add(connection)
        return connection

    def _drop_kept(self, connection: Connection) -> None:
        self._group.kept = None
        with self._kept_lock:
            self._all_kept.discard(connection)
        with contextlib.suppress(Exception):
            connection.close()

    def group_open(self) -> bool:
        """Inside `group`: whether its transaction is still open in the database (SQLite
        drops it by itself after some errors: a full disk, an I/O error)."""
        connection = self._group_connection()
        if connection is None:
            return False
        dbapi = connection.connection.dbapi_connection
        return bool(getattr(dbapi, "in_transaction", True))

    def _group_connection(self) -> Connection | None:
        connection: Connection | None = getattr(self._group, "connection", None)
        return connection

    @contextmanager
    def _read(self) -> Iterator[Session]:
        connection = self._group_connection()
        if connection is not None:
            with self._in_group(connection) as session:
                yield session
            return
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        """A write transaction: commits on success, rolls back on any exception."""
        connection = self._group_connection()
        if connection is not None:
            with self._in_group(connection) as session:
                yield session
            return
        with Session(self._write_engine, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def _in_group(self, connection: Connection) -> Iterator[Session]:
        """A fresh session (and identity map) per call, as a savepoint of the group."""
        session = Session(bind=connection, expire_on_commit=False,
                          join_transaction_mode="create_savepoint")
        try:
            session.begin()
            yield session
            session.commit()
        except BaseException as exc:
            self._undo(connection, session.rollback, exc)
            raise
        finally:
            with contextlib.suppress(Exception):
                session.close()

    @contextmanager
    def _core(self) -> Iterator[Connection]:
        """A connection in a write transaction for Core statements (no ORM session: these
        run for every match the writer thread records); a savepoint inside a group."""
        group = self._group_connection()
        if group is None:
            with self._write_engine.begin() as connection:
                yield connection
            return
        if not self._group.savepoints:  # the caller gives up the whole group on an error
            yield group
            return
        # The DBAPI's own SAVEPOINT: SQLAlchemy's nested transaction costs about a hundred
        # times as much, and these wrap every write of the writer thread.
        self._group.depth = depth = getattr(self._group, "depth", 0) + 1
        begin, rollback, release = savepoint_sql(depth)
        cursor = group.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(begin)
            try:
                yield group
            except BaseException as exc:
                self._undo(group, lambda: cursor.execute(rollback), exc)
                cursor.execute(release)
                raise
            cursor.execute(release)
        finally:
            self._group.depth = depth - 1
            cursor.close()

    def _undo(self, connection: Connection, rollback: Callable[[], None],
              exc: BaseException) -> None:
        """Roll a savepoint back after `exc`; `TransactionLost` (from `exc`, the error that
        says why) when the database has dropped the whole transaction already."""
        try:
            rollback()
        except Exception:
            raise TransactionLost(f"transaction lost: {exc}") from exc
        if is_sqlite(self.engine):
            dbapi = connection.connection.dbapi_connection
            if dbapi is not None and not getattr(dbapi, "in_transaction", True):
                raise TransactionLost(f"transaction lost: {exc}") from exc

    # --- bots -------------------------------------------------------------------------

    def create_bot(self, name: str, game: str, command: Sequence[str], *,
                   workdir: str | None = None, env: dict[str, str] | None = None,
                   deck: Any = None) -> Bot:
        """Register a bot (`deck`: its default deck, as the game reads it); `Conflict` if
        the name is taken."""
        bot = Bot(name=name, game=game, command=list(command), workdir=workdir,
                  env=dict(env or {}), deck=deck)
        try:
            with self._write() as session:
                session.add(bot)
        except IntegrityError as exc:
            raise Conflict(f"a bot named {name!r} exists already") from exc
        return bot

    def get_bot(self, bot_id: int) -> Bot | None:
        with self._read() as session:
            return session.get(Bot, bot_id)

    def get_bot_by_name(self, name: str) -> Bot | None:
        with self._read() as session:
            return session.exec(select(Bot).where(Bot.name == name)).first()

    def list_bots(self, *, game: str | None = None) -> list[Bot]:
        """All bots (of one game), by name."""
        query = select(Bot).order_by(col(Bot.name))
        if game is not None:
            query = query.where(Bot.game == game)
        with self._read() as session:
            return list(session.exec(query).all())

    def update_bot(self, bot_id: int, *, name: str = _UNSET, game: str = _UNSET,
                   command: Sequence[str] = _UNSET, workdir: str | None = _UNSET,
                   env: dict[str, str] = _UNSET) -> Bot:
        """Change the given fields; `NotFound` or `Conflict` (a taken name)."""
        try:
            with self._write() as session:
                bot = session.get(Bot, bot_id)
                if bot is None:
                    raise NotFound(f"no bot {bot_id}")
                if name is not _UNSET:
                    bot.name = name
                if game is not _UNSET:
                    bot.game = game
                if command is not _UNSET:
                    bot.command = list(command)
                if workdir is not _UNSET:
                    bot.workdir = workdir
                if env is not _UNSET:
                    bot.env = dict(env)
                session.add(bot)
        except IntegrityError as exc:
            raise Conflict(f"a bot named {name!r} exists already") from exc
        return bot

    def delete_bot(self, bot_id: int) -> bool:
        """Forget a bot; its past seats keep their display names (bot_id becomes NULL)."""
        with self._write() as session:
            result = session.execute(sa.delete(Bot).where(col(Bot.id) == bot_id))
            return bool(getattr(result, "rowcount", 0))

    # --- matches ----------------------------------------------------------------------

    def create_match(self, game: str, seats: Sequence[NewSeat] = (), *, seed: int | None = None,
                     options: dict[str, Any] | None = None, match_id: str | None = None,
                     attempt: int = 1) -> Match:
        """A new `waiting` match with its seats, in one transaction."""
        # `model_construct`: a table model's constructor does not validate either (SQLModel),
        # and its per-field instrumentation cost the writer thread about a fifth of a match's
        # creation. Every field is given: pydantic inspects each default factory's signature
        # every time it calls one, and dumping the model again cost as much as its insert.
        row: dict[str, Any] = {"id": match_id or new_match_id(), "game": game,
                               "status": MatchStatus.WAITING.value, "seed": seed,
                               "options": dict(options or {}), "created": utcnow(),
                               "started": None, "finished": None, "attempt": attempt}
        match = Match.model_construct(**row)
        rows = [{**_SEAT_ROW, "match_id": match.id, "index": index,
                 "display_name": spec.display_name, "bot_id": spec.bot_id,
                 "reservation": spec.reservation}
                for index, spec in enumerate(seats)]
        try:
            with self._core() as connection:
                driver(_INSERT_MATCH, connection.dialect).run(connection, row)
                if rows:
                    driver(_INSERT_SEAT, connection.dialect).run_many(connection, rows)
        except IntegrityError as exc:
            raise Conflict(f"cannot create match {match.id}: {exc.orig}") from exc
        return match

    def get_match(self, match_id: str) -> Match | None:
        with self._read() as session:
            return session.get(Match, match_id)

    def list_matches(self, *, game: str | None = None, status: MatchStatus | str | None = None,
                     bot_id: int | None = None, player: str | None = None,
                     limit: int = 50, offset: int = 0) -> Page[Match]:
        """Matches newest first, filtered by game, status, a bot that sat in them and a
        seat's display name (`player`: the name the match list shows)."""
        limit = max(0, min(limit, MAX_PAGE))
        offset = max(0, offset)
        conditions: list[sa.ColumnElement[bool]] = []
        if game is not None:
            conditions.append(col(Match.game) == game)
        if status is not None:
            conditions.append(col(Match.status) == MatchStatus(status).value)
        if bot_id is not None:
            conditions.append(col(Match.id).in_(
                select(Seat.match_id).where(Seat.bot_id == bot_id)))
        if player is not None:
            conditions.append(col(Match.id).in_(
                select(Seat.match_id).where(Seat.display_name == player)))
        query = (select(Match).where(*conditions)
                 .order_by(col(Match.created).desc(), col(Match.id).desc())
                 .limit(limit).offset(offset))
        count = select(sa.func.count()).select_from(Match).where(*conditions)
        with self._read() as session:
            items = list(session.exec(query).all())
            total = session.exec(count).one()
        return Page(items, int(total), limit, offset)

    def seats(self, match_id: str) -> list[Seat]:
        """The seats of a match, by index."""
        query = select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.index))
        with self._read() as session:
            return list(session.exec(query).all())

    def set_status(self, match_id: str, status: MatchStatus | str, *,
                   at: datetime | None = None) -> None:
        """Move an open match to another status (not `finished`: that is `store_result`).

        `running` or `paused` stamps `started` the first time; `aborted` and `cancelled`
        stamp `finished`; `at` is when it happened (default: now). A match that is over
        stays over: `Conflict`. (Nothing is returned: the writer thread runs this for every
        match, and reading the row back as a `Match` cost it more than the update;
        `get_match` reads it.)
        """
        status = MatchStatus(status)
        if status is MatchStatus.FINISHED:
            raise StoreError("a match becomes finished only with its result (store_result)")
        now = at or utcnow()
        statement = _SET_STATUS.get(status, _SET_STATUS[None])
        with self._core() as connection:
            # Guarded: only an open match moves, so two writers cannot both end it.
            if not driver(statement, connection.dialect).run(
                    connection, {"b_id": match_id, "b_status": status.value, "b_now": now}):
                self._missing(connection, match_id)

    def add_options(self, match_id: str, extra: Mapping[str, Any]) -> None:
        """Add keys to a match's options (a key it has already keeps its value);
        `NotFound` for an unknown match."""
        with self._write() as session:
            match = session.get(Match, match_id)
            if match is None:
                raise NotFound(f"no match {match_id}")
            match.options = {**dict(extra), **(match.options or {})}
            session.add(match)

    @staticmethod
    def _missing(connection: Connection, match_id: str) -> NoReturn:
        """A guarded update matched nothing: `NotFound`, or `Conflict` for a match over."""
        found = connection.execute(_STATUS_OF, {"b_id": match_id}).first()
        if found is None:
            raise NotFound(f"no match {match_id}")
        raise Conflict(f"match {match_id} is {found.status} already")

    # --- events -----------------------------------------------------------------------

    def append_events(self, events: Sequence[NewEvent]) -> None:
        """Insert events in one transaction; a seq stored already fails the whole call."""
        if not events:
            return
        with self._core() as connection:
            insert_events(connection, events)  # the fast path: every batch the writer commits

    def probe(self, size: int = PROBE_BYTES) -> None:
        """Prove the database takes what a match writes: a scratch row of `size` random
        bytes (new pages) committed, on SQLite the WAL checkpointed into the database file
        and truncated, the row deleted again (committed). Raises what the database says.

        Rewriting a row with its own value proved nothing on a full disk (issue #24): in
        WAL mode a commit only appends to the WAL, whose file keeps the room of earlier
        transactions, and the database file grows only when a checkpoint copies new pages
        into it, which fails there silently. So the probe's pages must reach the database
        file: the checkpoint is the write that needs the disk. Random bytes: a compressing
        filesystem (or PostgreSQL's TOAST) would store zeros in nothing.
        """
        probe: sa.Table = StoreProbe.__table__  # type: ignore[attr-defined]
        with self._write_engine.begin() as connection:
            connection.execute(sa.insert(probe).values(data=os.urandom(max(1, size))))
        if is_sqlite(self.engine):
            raw = self.engine.raw_connection()
            try:  # outside any transaction: a checkpoint cannot run inside one
                busy, _log, _done = raw.cursor().execute(
                    "PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                raw.close()
            if busy:
                raise StoreError("the WAL could not be checkpointed (readers held it for "
                                 f"{BUSY_TIMEOUT_MS / 1000:.0f} s)")
        with self._write_engine.begin() as connection:
            connection.execute(sa.delete(probe))

    def events_since(self, match_id: str, since: int = 0, *, limit: int | None = None,
                     kind: str | None = None) -> list[MatchEvent]:
        """Events with `seq >= since` (of `kind` only, when given), in order: a spectator
        resumes from any number.

        An ended match's events are packed (`pack_match`); they read back exactly as their
        rows did. The rows are read before the packed log: a pack committed in between
        then shows the events twice (once each way, the same), never not at all, under
        any isolation level.
        """
        query = (select(MatchEvent)
                 .where(MatchEvent.match_id == match_id, col(MatchEvent.seq) >= since)
                 .order_by(col(MatchEvent.seq)))
        if kind is not None:
            query = query.where(MatchEvent.kind == kind)
        if limit is not None:
            query = query.limit(max(0, limit))
        with self._read() as session:
            rows = list(session.exec(query).all())
            data = session.exec(select(MatchLog.data)
                                .where(MatchLog.match_id == match_id)).first()
        if data is None:
            return rows
        found = {seq: MatchEvent.model_construct(match_id=match_id, seq=seq, time=when,
                                                 kind=found_kind, payload=payload)
                 for seq, when, found_kind, payload in unpack(data)
                 if seq >= since and kind in (None, found_kind)}
        found.update((row.seq, row) for row in rows)
        events = [found[seq] for seq in sorted(found)]
        return events if limit is None else events[:max(0, limit)]

    def last_seq(self, match_id: str) -> int | None:
        """The highest stored seq of a match (None: no events yet)."""
        rows = select(sa.func.max(MatchEvent.seq)).where(MatchEvent.match_id == match_id)
        packed = select(MatchLog.last_seq).where(MatchLog.match_id == match_id,
                                                 col(MatchLog.events) > 0)
        with self._read() as session:
            value = session.exec(rows).one()
            logged = session.exec(packed).first()
        found = [int(v) for v in (value, logged) if v is not None]
        return max(found) if found else None

    def events_dropped(self, match_id: str) -> datetime | None:
        """When the retention dropped the match's events (None: it did not)."""
        query = select(MatchLog.dropped).where(MatchLog.match_id == match_id)
        with self._read() as session:
            return session.exec(query).first()

    # --- packing and retention --------------------------------------------------------

    def pack_match(self, match_id: str) -> bool:
        """Pack an ended match's event rows into its `match_logs` row (`server.store.
        packing`) and delete them; False when there was nothing to pack (an open match is
        never packed: its events are still coming).

        Idempotent, and whatever order things happen in nothing is lost: rows that arrive
        after the pack are merged into it by the next one (readers merge both meanwhile),
        and rows of a match whose events the retention dropped are deleted.
        """
        with self._core() as connection:
            status = connection.execute(_STATUS_OF, {"b_id": match_id}).scalar()
            if status is None or status in _OPEN_VALUES:
                return False
            rows = connection.execute(_PLAIN_ROWS, {"b_id": match_id}).all()
            if not rows:
                return False
            existing = connection.execute(
                sa.select(_LOGS.c.data, _LOGS.c.dropped)
                .where(_LOGS.c.match_id == match_id)).first()
            connection.execute(sa.delete(_EVENTS).where(_EVENTS.c.match_id == match_id))
            if existing is not None and existing.data is None and existing.dropped:
                return True  # late rows of a match whose events were dropped
            events: dict[int, tuple[int, datetime, str, str]] = {}
            if existing is not None and existing.data is not None:
                for seq, when, kind, payload in unpack(existing.data):
                    events[seq] = (seq, when, kind, encode_json(payload))
            for seq, when, kind, text in rows:
                events[seq] = (seq, when, kind, text)
            ordered = [events[seq] for seq in sorted(events)]
            values = {"events": len(ordered), "last_seq": ordered[-1][0],
                      "states": sum(1 for e in ordered if e[2] == STATE_KIND),
                      "data": pack(ordered), "packed": utcnow(), "dropped": None}
            if existing is None:
                connection.execute(sa.insert(_LOGS).values(match_id=match_id, **values))
            else:
                connection.execute(sa.update(_LOGS).where(_LOGS.c.match_id == match_id)
                                   .values(**values))
        return True

    def unpack_match(self, match_id: str) -> int:
        """The inverse of `pack_match`: the match's packed events back as rows (as an
        older version stored them; for tools and tests that write those). The count."""
        grouped = self._group_connection() is not None
        with contextlib.nullcontext() if grouped else self.group():  # one transaction
            with self._core() as connection:
                data = connection.execute(sa.select(_LOGS.c.data)
                                          .where(_LOGS.c.match_id == match_id)).scalar()
                if data is None:
                    return 0
                rows = [NewEvent(match_id, seq, kind, payload, when)
                        for seq, when, kind, payload in unpack(data)]
                connection.execute(sa.delete(_LOGS).where(_LOGS.c.match_id == match_id))
            self.append_events(rows)
        return len(rows)

    def unpacked(self, limit: int = 100) -> list[str]:
        """Ended matches that still have event rows (left by a crash, a failed pack, or an
        older version): what `pack_match` is for."""
        query = (sa.select(_EVENTS.c.match_id).distinct()
                 .join(_MATCH, _MATCH.c.id == _EVENTS.c.match_id)
                 .where(_MATCH.c.status.in_(_OVER_VALUES)).limit(max(0, limit)))
        with self._read() as session:
            return [str(i) for i in session.execute(query).scalars().all()]

    def prune(self, *, events_before: datetime | None = None,
              unplayed_before: datetime | None = None, limit: int | None = None) -> Pruned:
        """Retention: drop the events of matches that ended before `events_before` (their
        match, seats, result and ratings stay, `match_logs` keeps the counts), and delete
        whole the matches that ended before `unplayed_before` without a result and with
        no move made (at most one `state` event: the opening state). At most `limit`
        matches of each kind (None: all); open matches are never touched.
        """
        pruned = Pruned()
        if unplayed_before is not None:
            pruned.deleted = self._unplayed(unplayed_before, limit)
            if pruned.deleted:
                with self._core() as connection:
                    for chunk in _chunks(pruned.deleted):
                        connection.execute(sa.delete(_MATCH).where(_MATCH.c.id.in_(chunk)))
        if events_before is not None:
            ended = sa.func.coalesce(_MATCH.c.finished, _MATCH.c.created)
            query = (sa.select(_MATCH.c.id)
                     .where(_MATCH.c.status.in_(_OVER_VALUES), ended < events_before,
                            sa.or_(sa.exists().where(_EVENTS.c.match_id == _MATCH.c.id),
                                   sa.exists().where(_LOGS.c.match_id == _MATCH.c.id,
                                                     _LOGS.c.data.is_not(None))))
                     .order_by(_MATCH.c.created))
            if limit is not None:
                query = query.limit(max(0, limit))
            with self._read() as session:
                ids = [str(i) for i in session.execute(query).scalars().all()]
            for match_id in ids:
                self.pack_match(match_id)  # the counts of rows not packed yet
                now = utcnow()
                with self._core() as connection:
                    connection.execute(sa.delete(_EVENTS).where(_EVENTS.c.match_id == match_id))
                    # What its bots printed goes with them (as their seat-logs files do).
                    connection.execute(sa.delete(_MOVES).where(_MOVES.c.match_id == match_id))
                    if not connection.execute(sa.update(_LOGS)
                                              .where(_LOGS.c.match_id == match_id)
                                              .values(data=None, dropped=now)).rowcount:
                        connection.execute(sa.insert(_LOGS).values(
                            match_id=match_id, events=0, last_seq=-1, states=0, data=None,
                            packed=now, dropped=now))
            pruned.dropped = ids
        return pruned

    def _unplayed(self, before: datetime, limit: int | None) -> list[str]:
        states = (sa.select(sa.func.count()).select_from(_EVENTS)
                  .where(_EVENTS.c.match_id == _MATCH.c.id, _EVENTS.c.kind == STATE_KIND)
                  .scalar_subquery())
        packed = (sa.select(_LOGS.c.states).where(_LOGS.c.match_id == _MATCH.c.id)
                  .scalar_subquery())
        ended = sa.func.coalesce(_MATCH.c.finished, _MATCH.c.created)
        query = (sa.select(_MATCH.c.id)
                 .where(_MATCH.c.status.in_([MatchStatus.ABORTED.value,
                                             MatchStatus.CANCELLED.value]),
                        ended < before,
                        ~sa.exists().where(_RESULT.c.match_id == _MATCH.c.id),
                        states + sa.func.coalesce(packed, 0) <= 1)
                 .order_by(_MATCH.c.created))
        if limit is not None:
            query = query.limit(max(0, limit))
        with self._read() as session:
            return [str(i) for i in session.execute(query).scalars().all()]

    def vacuum(self) -> bool:
        """SQLite: `VACUUM` (gives the pages freed by a prune back to the filesystem; it
        needs about the database's size free while it runs). False elsewhere: PostgreSQL's
        autovacuum reuses the space by itself."""
        if not is_sqlite(self.engine):
            return False
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("VACUUM")
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            raw.close()
        return True

    # --- what launched bots printed, per move ------------------------------------------

    def save_seat_moves(self, match_id: str, seat: int,
                        moves: Sequence[dict[str, Any]]) -> None:
        """Store a launched seat's moves (`server.launcher.moves.Move.as_json` dicts: turn,
        seq, think_ms, cpu_ms, peak_rss_kb, lines, dropped_lines, dropped_bytes), replacing
        any stored for that seat before. `NotFound` for an unknown match."""
        rows = [{"match_id": match_id, "seat": seat, "turn": int(m["turn"]),
                 "seq": m.get("seq"), "think_ms": m.get("think_ms"),
                 "cpu_ms": m.get("cpu_ms"), "peak_rss_kb": m.get("peak_rss_kb"),
                 "lines": list(m.get("lines", ())),
                 "dropped_lines": int(m.get("dropped_lines", 0)),
                 "dropped_bytes": int(m.get("dropped_bytes", 0))} for m in moves]
        with self._core() as connection:
            if connection.execute(_STATUS_OF, {"b_id": match_id}).first() is None:
                raise NotFound(f"no match {match_id}")
            connection.execute(sa.delete(_MOVES).where(_MOVES.c.match_id == match_id,
                                                       _MOVES.c.seat == seat))
            if rows:
                connection.execute(sa.insert(_MOVES), rows)

    def seat_moves(self, match_id: str, seat: int) -> list[SeatMove]:
        """A seat's stored moves, turn 0 first (empty: none stored)."""
        query = (select(SeatMove)
                 .where(col(SeatMove.match_id) == match_id, col(SeatMove.seat) == seat)
                 .order_by(col(SeatMove.turn)))
        with self._read() as session:
            return list(session.exec(query).all())

    # --- results ----------------------------------------------------------------------

    def store_result(self, match_id: str, *, winner: int | None, reason: str,
                     scores: Any = None, seats: Sequence[SeatOutcome] = (),
                     at: datetime | None = None) -> Result:
        """Finish an open match: result row, seat outcomes and status in one transaction.

        That single transaction is what makes "a result row exists iff the match is
        finished" hold after any crash. `NotFound` for an unknown match, `Conflict` for one
        that is over already (finished, aborted or cancelled).
        """
        now = at or utcnow()
        row: dict[str, Any] = {"match_id": match_id, "winner": winner, "reason": reason,
                               "scores": {} if scores is None else scores, "committed": now}
        result = Result.model_construct(**row)  # as `Match` in `create_match`
        outcomes = [(s, Outcome(s.outcome).value,
                     None if s.failure is None else FailureCategory(s.failure).value)
                    for s in seats]
        with self._core() as connection:
            dialect = connection.dialect
            # The guarded UPDATE first: it takes the row lock (PostgreSQL) and settles races
            # between two writers without reading first.
            if not driver(_FINISH, dialect).run(connection, {"b_id": match_id, "b_now": now}):
                self._missing(connection, match_id)
            seat_outcome = driver(_SEAT_OUTCOME, dialect)
            for spec, outcome, failure in outcomes:
                if not seat_outcome.run(connection, {
                        "b_id": match_id, "b_index": spec.index, "b_outcome": outcome,
                        "b_failure": failure, "b_detail": spec.detail,
                        "b_parts": spec.score_parts}):
                    raise NotFound(f"match {match_id} has no seat {spec.index}")
            driver(_INSERT_RESULT, dialect).run(connection, row)
        return result

    def get_result(self, match_id: str) -> Result | None:
        with self._read() as session:
            return session.get(Result, match_id)

    # --- recovery ---------------------------------------------------------------------

    def recover(self, *, at: datetime | None = None,
                keep_dispatched: bool = False) -> list[str]:
        """At start: abort every match a previous process left open; return their ids.

        With a broker (`keep_dispatched`: the caller's settings name one) the
        open matches dispatched to the workers (`dispatched(options)`) are left alone: a
        worker plays them or will (a dead worker's job comes back after the visibility
        timeout, docs/scale.md); only this node's own matches are aborted.

        Open means `running` or `paused`, or `waiting` with a start time (it had started and
        was waiting again). A `waiting` match that never started is a reservation nobody has
        used yet and stays. The events stored so far stay with the aborted match. A match
        marked finished without a result cannot come from this code (one transaction), but a
        hand-edited database could hold one: it is aborted as well, so that afterwards a
        result row exists iff the status is `finished`.
        """
        now = at or utcnow()
        stale = sa.or_(
            col(Match.status).in_([MatchStatus.RUNNING.value, MatchStatus.PAUSED.value]),
            sa.and_(col(Match.status) == MatchStatus.WAITING.value,
                    col(Match.started).is_not(None)),
            sa.and_(col(Match.status) == MatchStatus.FINISHED.value,
                    ~sa.exists().where(col(Result.match_id) == col(Match.id))),
        )
        with self._write() as session:
            rows = session.execute(sa.select(col(Match.id), col(Match.status),
                                             col(Match.options)).where(stale)).all()
            ids = [match_id for match_id, status, options in rows
                   if not (keep_dispatched and status != MatchStatus.FINISHED.value
                           and dispatched(options))]
            if ids:
                session.execute(
                    sa.update(Match).where(col(Match.id).in_(ids))
                    .values(status=MatchStatus.ABORTED.value,
                            finished=sa.func.coalesce(Match.finished, now)))
        for match_id in ids:
            log.warning("match %s was left open by a previous run: aborted", match_id)
        return ids


def dispatched(options: Any) -> bool:
    """Whether a match's options mark it as played by the workers (server.worker.dispatch;
    `cluster` is the mark of matches dispatched before `dispatch` existed)."""
    return isinstance(options, dict) and (options.get("dispatch") == "worker"
                                          or options.get("cluster") is True)
