"""`SprtStore`: sequential tests and their pairs in the store (plain synchronous calls).

Like `Store`, every call is one short transaction and blocks: the runner calls them in a
worker thread, the API from plain `def` handlers.

What makes a test survive `kill -9` is `count_pair`: a pair is counted by giving it the
next `position` of its test, in one write transaction that first checks that it was not
counted before and that both of its games have a result. A crash before the commit leaves
the pair to be counted again on the next start; after it, the pair is counted and stays so.
The figures are never stored: they are computed from the counted pairs, in position order.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from sqlmodel import Session, col, select

from server.store.models import PairStatus, SprtPair, SprtStatus, SprtTest, utcnow
from server.store.store import NotFound, Store

__all__ = ["SprtStore"]


class SprtStore:
    """Tests, their pairs, and the two games of each pair."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- tests --------------------------------------------------------------------------

    def create_test(self, test: SprtTest) -> SprtTest:
        with self.store._write() as session:
            session.add(test)
            session.flush()
            session.refresh(test)
        return test

    def get_test(self, test_id: int) -> SprtTest:
        with self.store._read() as session:
            test = session.get(SprtTest, test_id)
        if test is None:
            raise NotFound(f"no test {test_id}")
        return test

    def list_tests(self, *, game: str | None = None, status: str | None = None,
                   limit: int = 50, offset: int = 0) -> tuple[list[SprtTest], int]:
        """Newest first, and the number of tests that match."""
        where = [c for c in (SprtTest.game == game if game else None,
                             SprtTest.status == status if status else None) if c is not None]
        with self.store._read() as session:
            total = session.exec(select(sa.func.count()).select_from(SprtTest)
                                 .where(*where)).one()
            rows = session.exec(select(SprtTest).where(*where)
                                .order_by(col(SprtTest.id).desc())
                                .limit(limit).offset(offset)).all()
        return list(rows), int(total)

    def running(self) -> list[SprtTest]:
        with self.store._read() as session:
            return list(session.exec(select(SprtTest)
                                     .where(SprtTest.status == SprtStatus.RUNNING.value)
                                     .order_by(col(SprtTest.id))).all())

    def finish_test(self, test_id: int, status: SprtStatus, reason: str = "") -> bool:
        """End a running test; False if it had ended already (the first end stands)."""
        with self.store._write() as session:
            test = session.get(SprtTest, test_id)
            if test is None:
                raise NotFound(f"no test {test_id}")
            if test.status != SprtStatus.RUNNING.value:
                return False
            test.status = status.value
            test.reason = reason[:200]
            test.finished = utcnow()
            session.add(test)
            if status is not SprtStatus.RUNNING:
                # Pairs not counted now never will be: the test's end leaves them out.
                session.execute(sa.update(SprtPair)
                                .where(col(SprtPair.test_id) == test_id,
                                       col(SprtPair.status).in_([PairStatus.QUEUED.value,
                                                                 PairStatus.PLAYING.value]))
                                .values(status=PairStatus.CANCELLED.value, finished=utcnow()))
        return True

    # --- pairs --------------------------------------------------------------------------

    def pairs(self, test_id: int) -> list[SprtPair]:
        """Every pair of the test, in pair order."""
        with self.store._read() as session:
            return list(session.exec(select(SprtPair).where(SprtPair.test_id == test_id)
                                     .order_by(col(SprtPair.pair))).all())

    def counted(self, test_id: int, after: int = -1) -> list[SprtPair]:
        """The counted pairs in the order they were counted (positions above `after`)."""
        with self.store._read() as session:
            return list(session.exec(
                select(SprtPair).where(SprtPair.test_id == test_id,
                                       SprtPair.status == PairStatus.COUNTED.value,
                                       col(SprtPair.position) > after)
                .order_by(col(SprtPair.position))).all())

    def status_counts(self, test_id: int) -> dict[str, int]:
        with self.store._read() as session:
            rows = session.exec(select(SprtPair.status, sa.func.count())
                                .where(SprtPair.test_id == test_id)
                                .group_by(SprtPair.status)).all()
        return {status: int(n) for status, n in rows}

    def claim_pair(self, test_id: int, seed_for: Callable[[int], int] | None = None
                   ) -> SprtPair | None:
        """The next pair to play, now `playing`: a queued one (a pair a previous run left
        half played) first, else a new one numbered after the last, seeded `seed_for(n)`
        (None without `seed_for`: only queued pairs are wanted). None too once the test has
        ended: a claim racing a stop makes no pair after it."""
        with self.store._write() as session:
            test = session.get(SprtTest, test_id)
            if test is None or test.status != SprtStatus.RUNNING.value:
                return None
            row = session.exec(select(SprtPair)
                               .where(SprtPair.test_id == test_id,
                                      SprtPair.status == PairStatus.QUEUED.value)
                               .order_by(col(SprtPair.pair)).limit(1)).first()
            if row is None:
                if seed_for is None:
                    return None
                last = session.exec(select(sa.func.max(SprtPair.pair))
                                    .where(SprtPair.test_id == test_id)).one()
                number = 0 if last is None else int(last) + 1
                row = SprtPair(test_id=test_id, pair=number, seed=seed_for(number))
            row.status = PairStatus.PLAYING.value
            session.add(row)
            session.flush()
            session.refresh(row)
        return row

    def has_queued(self, test_id: int) -> bool:
        with self.store._read() as session:
            return session.exec(select(sa.func.count()).where(
                SprtPair.test_id == test_id,
                SprtPair.status == PairStatus.QUEUED.value)).one() > 0

    def requeue_playing(self, test_id: int) -> int:
        """At start: the pairs a previous run left `playing` are queued again (their games
        with a result keep it); how many."""
        with self.store._write() as session:
            result = session.execute(sa.update(SprtPair)
                                     .where(col(SprtPair.test_id) == test_id,
                                            col(SprtPair.status) == PairStatus.PLAYING.value)
                                     .values(status=PairStatus.QUEUED.value))
        return int(getattr(result, "rowcount", 0) or 0)

    def set_game(self, test_id: int, pair: int, game: int, *, match_id: str | None = None,
                 result: str | None = None) -> None:
        """Game `game` (0 or 1) of a pair: its latest match (one more attempt) or its result."""
        with self.store._write() as session:
            row = self._pair(session, test_id, pair)
            if match_id is not None:
                setattr(row, f"match_{game}", match_id)
                row.attempts += 1
            if result is not None:
                setattr(row, f"result_{game}", result)
            session.add(row)

    def count_pair(self, test_id: int, pair: int) -> int | None:
        """Count a pair whose two games have a result: its position (the same one if it was
        counted before); None while a result is missing or the pair was left out."""
        with self.store._write() as session:
            row = self._pair(session, test_id, pair)
            if row.status == PairStatus.COUNTED.value:
                return row.position
            if row.result_0 is None or row.result_1 is None \
                    or row.status != PairStatus.PLAYING.value:
                return None
            last = session.exec(select(sa.func.max(SprtPair.position))
                                .where(SprtPair.test_id == test_id)).one()
            row.position = 0 if last is None else int(last) + 1
            row.status = PairStatus.COUNTED.value
            row.finished = utcnow()
            session.add(row)
            return row.position

    def leave_out(self, test_id: int, pair: int, status: PairStatus) -> None:
        """A pair not counted: `incomplete` (a game without result) or `cancelled`."""
        with self.store._write() as session:
            row = self._pair(session, test_id, pair)
            if row.status != PairStatus.PLAYING.value:
                return  # counted, or cancelled by the test's end: that stands
            row.status = status.value
            row.finished = utcnow()
            session.add(row)

    @staticmethod
    def _pair(session: Session, test_id: int, pair: int) -> SprtPair:
        row = session.get(SprtPair, (test_id, pair))
        if row is None:
            raise NotFound(f"test {test_id} has no pair {pair}")
        return row
