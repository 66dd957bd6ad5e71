"""The store as one attempt of one match sees it: every write checks that it is still current.

A match played on a worker may be played again: its worker was killed, the broker handed the
job to another worker after the visibility timeout. The new attempt starts with
`begin_attempt`, one transaction that raises `matches.attempt` and deletes the events the
failed attempt stored (a match's log is always one attempt's log, complete or growing; the
attempt number says which). Every later write of the attempt goes through `AttemptStore`,
whose write transactions first lock the match row and compare its attempt with their own:
a worker that was only cut off (a partition, not a death) and comes back late finds itself
superseded and writes nothing, neither events nor status nor result. And a result is only
ever written from an open status (`Store.store_result`), so a match is counted once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session, col

from server.store import Conflict, Match, MatchEvent, MatchStatus, NewSeat, Store
from server.store.models import OPEN_STATUSES


class Superseded(Conflict):
    """The match was restarted (or is over): this attempt may not write any more."""


def begin_attempt(store: Store, match_id: str) -> int | None:
    """Blocking: make the next attempt of an open match current; None if it is over.

    Raises the attempt and clears the previous attempt's events in one transaction (the
    row lock orders it against any write of the previous attempt still in flight).
    """
    with Session(store._write_engine) as session, session.begin():
        row = session.execute(
            sa.update(Match)
            .where(col(Match.id) == match_id, col(Match.status).in_(OPEN_STATUSES))
            .values(attempt=Match.attempt + 1, status=MatchStatus.WAITING.value,
                    started=None)
            .returning(col(Match.attempt))).first()
        if row is None:
            return None
        session.execute(sa.delete(MatchEvent).where(col(MatchEvent.match_id) == match_id))
        return int(row[0])


class AttemptStore(Store):
    """A `Store` whose writes belong to attempt `attempt` of match `match_id`.

    The worker's room is that match (the worker gives the room the match's id); its row
    and seats exist already, so `create_match` of that id only checks the attempt.
    """

    def __init__(self, url: str, match_id: str, attempt: int) -> None:
        super().__init__(url)
        self.match_id = match_id
        self.attempt = attempt

    @contextmanager
    def _write(self) -> Iterator[Session]:
        # Store._write with the guard first: the row lock is held to the commit.
        with super()._write() as session:
            self._guard(session)
            yield session

    @contextmanager
    def _core(self) -> Iterator[Connection]:
        # The Core writes (events, status, result) under the same guard.
        with super()._core() as connection:
            self._guard(connection)
            yield connection

    def _guard(self, on: Session | Connection) -> None:
        """`Superseded` unless this attempt is the match's current one (row locked)."""
        query = (sa.select(col(Match.attempt), col(Match.status))
                 .where(col(Match.id) == self.match_id))
        if self.engine.dialect.name != "sqlite":  # SQLite: BEGIN IMMEDIATE locks all
            query = query.with_for_update()
        row = on.execute(query).first()
        if row is None or int(row[0]) != self.attempt:
            current = None if row is None else row[0]
            raise Superseded(f"match {self.match_id}: attempt {self.attempt} superseded "
                             f"(current: {current})")

    def create_match(self, game: str, seats: Sequence[NewSeat] = (), *,
                     seed: int | None = None, options: dict[str, Any] | None = None,
                     match_id: str | None = None, attempt: int = 1) -> Match:
        if match_id != self.match_id:
            raise Conflict(f"a worker plays match {self.match_id} only, not {match_id}")
        with self._write() as session:  # the guard alone
            match = session.get(Match, self.match_id)
        assert match is not None
        return match
