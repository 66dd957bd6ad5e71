"""`LadderStore`: the ladder's queries on the store's tables (plain synchronous calls).

Like `Store`, every call is one short transaction and blocks: the scheduler runs them in a
worker thread, the API from plain `def` handlers.

The one call that matters for correctness is `rate_match`: it reads a finished match's
seats, computes the new ratings, writes one `LadderRatingChange` per bot, updates the
`LadderRating` rows and marks the pairing done, all in one write transaction that first
checks whether the match was rated already. A crash before the commit leaves nothing; a
crash after it leaves everything; calling it again changes nothing. That is what lets the
scheduler re-rate every finished match it is not sure about after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, select

from server.store.models import (
    Bot,
    LadderGame,
    LadderPairing,
    LadderRating,
    LadderRatingChange,
    Match,
    MatchStatus,
    Outcome,
    PairingStatus,
    Result,
    Seat,
    utcnow,
)
from server.store.store import NotFound, Store

log = logging.getLogger(__name__)

RateFn = Callable[[Sequence[tuple[float, float]], Sequence[int]], list[tuple[float, float]]]
"""(mu, sigma) per seat and rank per seat (0 = best, equal = draw) -> new (mu, sigma)."""

SCORE = {Outcome.WIN.value: 1.0, Outcome.DRAW.value: 0.5, Outcome.LOSS.value: 0.0}


@dataclass(frozen=True)
class Standing:
    """One bot's line of a game's standings."""

    bot_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int
    failures: dict[str, int] = field(default_factory=dict)

    @property
    def ordinal(self) -> float:
        """The conservative rating the standings sort by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class HistoryPoint:
    """A bot's rating after its `game`-th rated game (0: the start, no match yet)."""

    game: int
    at: datetime | None
    mu: float
    sigma: float
    outcome: str | None
    match_id: str | None

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RateOutcome:
    """What `rate_match` did: rated now, rated before, or nothing to rate."""

    rated: bool
    already: bool = False
    changes: list[LadderRatingChange] = field(default_factory=list)


class LadderStore:
    """The ladder's state in the store: running flags, the leg queue, ratings, history."""

    def __init__(self, store: Store, *, mu: float = 25.0, sigma: float = 25.0 / 3) -> None:
        self.store = store
        self.mu = mu
        self.sigma = sigma

    # --- running flags ------------------------------------------------------------------

    def set_running(self, game: str, running: bool) -> None:
        with self.store._write() as session:
            row = session.get(LadderGame, game) or LadderGame(game=game)
            row.running = running
            row.updated = utcnow()
            session.add(row)

    def ensure_game(self, game: str, running: bool) -> bool:
        """Create the game's flag if it has none yet (first start); True if created."""
        with self.store._write() as session:
            if session.get(LadderGame, game) is not None:
                return False
            session.add(LadderGame(game=game, running=running))
            return True

    def running_games(self) -> list[str]:
        query = select(LadderGame.game).where(col(LadderGame.running).is_(True))
        with self.store._read() as session:
            return sorted(session.exec(query).all())

    def is_running(self, game: str) -> bool:
        with self.store._read() as session:
            row = session.get(LadderGame, game)
        return bool(row is not None and row.running)

    def set_openings(self, game: str, openings: Sequence[dict[str, Any]]) -> None:
        """The positions the game's next rounds start from, in turn (empty: the start)."""
        with self.store._write() as session:
            row = session.get(LadderGame, game) or LadderGame(game=game)
            row.openings = [dict(o) for o in openings] or None
            row.updated = utcnow()
            session.add(row)

    def openings(self, game: str) -> list[dict[str, Any]]:
        with self.store._read() as session:
            row = session.get(LadderGame, game)
        return list(row.openings or []) if row is not None else []

    # --- the queue of legs --------------------------------------------------------------

    def add_round(self, game: str, bot_a: int, bot_b: int, seed: int,
                  openings: Sequence[dict[str, Any]] = ()) -> list[LadderPairing]:
        """Two legs with the same seed, seats swapped; queued in that order. Round k starts
        from `openings[(k - 1) % len(openings)]` (both legs the same), else from the start."""
        with self.store._write() as session:
            last = session.exec(select(sa.func.max(LadderPairing.round))
                                .where(LadderPairing.game == game)).one()
            number = int(last or 0) + 1
            start = dict(openings[(number - 1) % len(openings)]) if openings else None
            legs = [LadderPairing(game=game, round=number, leg=0, bot_a=bot_a, bot_b=bot_b,
                                  seed=seed, start=start),
                    LadderPairing(game=game, round=number, leg=1, bot_a=bot_b, bot_b=bot_a,
                                  seed=seed, start=start)]
            session.add_all(legs)
        return legs

    def queued(self, game: str) -> list[LadderPairing]:
        query = (select(LadderPairing)
                 .where(LadderPairing.game == game,
                        LadderPairing.status == PairingStatus.QUEUED.value)
                 .order_by(col(LadderPairing.id)))
        with self.store._read() as session:
            return list(session.exec(query).all())

    def playing(self) -> list[LadderPairing]:
        query = (select(LadderPairing)
                 .where(LadderPairing.status == PairingStatus.PLAYING.value)
                 .order_by(col(LadderPairing.id)))
        with self.store._read() as session:
            return list(session.exec(query).all())

    def claim(self, pairing_id: int) -> LadderPairing | None:
        """Queued -> playing (one more attempt, no match yet); None if not queued any more."""
        with self.store._write() as session:
            pairing = session.get(LadderPairing, pairing_id)
            if pairing is None or pairing.status != PairingStatus.QUEUED.value:
                return None
            pairing.status = PairingStatus.PLAYING.value
            pairing.attempts += 1
            pairing.match_id = None
            session.add(pairing)
        return pairing

    def set_match(self, pairing_id: int, match_id: str) -> None:
        with self.store._write() as session:
            session.execute(sa.update(LadderPairing)
                            .where(col(LadderPairing.id) == pairing_id)
                            .values(match_id=match_id))

    def finish_pairing(self, pairing_id: int, status: PairingStatus) -> None:
        """Back to the queue (an aborted attempt), dropped, or done."""
        with self.store._write() as session:
            session.execute(sa.update(LadderPairing)
                            .where(col(LadderPairing.id) == pairing_id)
                            .values(status=status.value))

    def counts(self, game: str) -> dict[str, int]:
        query = (select(LadderPairing.status, sa.func.count())
                 .where(LadderPairing.game == game).group_by(col(LadderPairing.status)))
        with self.store._read() as session:
            return {str(s): int(n) for s, n in session.exec(query).all()}

    # --- ratings ------------------------------------------------------------------------

    def ratings(self, game: str) -> dict[int, LadderRating]:
        query = select(LadderRating).where(LadderRating.game == game)
        with self.store._read() as session:
            return {r.bot_id: r for r in session.exec(query).all()}

    def is_rated(self, match_id: str) -> bool:
        query = select(sa.func.count()).where(LadderRatingChange.match_id == match_id)
        with self.store._read() as session:
            return bool(session.exec(query).one())

    def rate_match(self, match_id: str, rate: RateFn,
                   pairing_id: int | None = None) -> RateOutcome:
        """Rate a finished match once (see the module docstring); marks its pairing done.

        Only seats with a registered bot are rated, and only when at least two are. A
        match every seat lost (each failed: a double loss) is a loss for each, rated as a
        loss to the other, never as a draw.
        `NotFound` for an unknown match; a match that is not finished is not rated.
        """
        now = utcnow()
        with self.store._write() as session:
            match = session.get(Match, match_id)
            if match is None:
                raise NotFound(f"no match {match_id}")
            done = [] if pairing_id is None else [pairing_id]
            if session.exec(select(sa.func.count())
                            .where(LadderRatingChange.match_id == match_id)).one():
                _mark_done(session, done)
                return RateOutcome(False, already=True)
            if match.status != MatchStatus.FINISHED.value:
                return RateOutcome(False)
            seats = list(session.exec(select(Seat).where(Seat.match_id == match_id)
                                      .order_by(col(Seat.index))).all())
            rated = [s for s in seats if s.bot_id is not None and s.outcome is not None]
            if len(rated) < 2 or len({s.bot_id for s in rated}) < len(rated):
                _mark_done(session, done)
                return RateOutcome(False)
            rows: list[LadderRating] = []
            for seat in rated:
                assert seat.bot_id is not None
                row = session.get(LadderRating, seat.bot_id)
                if row is None:
                    row = LadderRating(bot_id=seat.bot_id, game=match.game, mu=self.mu,
                                       sigma=self.sigma, failures={})
                rows.append(row)
            ranks = [0 if s.outcome == Outcome.WIN.value else
                     1 if s.outcome == Outcome.DRAW.value else 2 for s in rated]
            before = [(r.mu, r.sigma) for r in rows]
            if all(s.outcome == Outcome.LOSS.value for s in rated):
                # Every seat failed (a double loss): equal ranks would rate it as a draw.
                # Each is rated as having lost to the others (as they stood before).
                new = [rate(before, [1 if j == i else 0 for j in range(len(before))])[i]
                       for i in range(len(before))]
            else:
                new = rate(before, ranks)
            changes: list[LadderRatingChange] = []
            for i, (seat, row, (mu, sigma)) in enumerate(zip(rated, rows, new, strict=True)):
                assert seat.bot_id is not None and seat.outcome is not None
                others = [s.bot_id for j, s in enumerate(rated) if j != i]
                changes.append(LadderRatingChange(
                    match_id=match_id, bot_id=seat.bot_id, game=match.game,
                    opponent_id=others[0] if len(others) == 1 else None,
                    outcome=seat.outcome, failure=seat.failure, mu_before=row.mu,
                    sigma_before=row.sigma, mu=mu, sigma=sigma, at=now))
                row.mu, row.sigma = mu, sigma
                row.games += 1
                row.wins += seat.outcome == Outcome.WIN.value
                row.draws += seat.outcome == Outcome.DRAW.value
                row.losses += seat.outcome == Outcome.LOSS.value
                if seat.failure:
                    failures = dict(row.failures)
                    failures[seat.failure] = failures.get(seat.failure, 0) + 1
                    row.failures = failures
                row.updated = now
                session.add(row)
            session.add_all(changes)
            _mark_done(session, done)
        return RateOutcome(True, changes=changes)

    # --- what the API shows -------------------------------------------------------------

    def standings(self, game: str) -> list[Standing]:
        """Every bot of the game, rated or not, best conservative rating first."""
        with self.store._read() as session:
            bots = list(session.exec(select(Bot).where(Bot.game == game)).all())
            ratings = {r.bot_id: r for r in session.exec(
                select(LadderRating).where(LadderRating.game == game)).all()}
        lines = []
        for bot in bots:
            assert bot.id is not None
            r = ratings.get(bot.id)
            if r is None:
                lines.append(Standing(bot.id, bot.name, self.mu, self.sigma, 0, 0, 0, 0, {}))
            else:
                lines.append(Standing(bot.id, bot.name, r.mu, r.sigma, r.games, r.wins,
                                      r.draws, r.losses, dict(r.failures)))
        lines.sort(key=lambda s: (-s.ordinal, s.name))
        return lines

    def crosstable(self, game: str) -> dict[int, dict[int, tuple[float, int]]]:
        """bot -> opponent -> (points scored, games): win 1, draw 1/2, loss 0."""
        query = (select(LadderRatingChange.bot_id, LadderRatingChange.opponent_id,
                        LadderRatingChange.outcome, sa.func.count())
                 .where(LadderRatingChange.game == game,
                        col(LadderRatingChange.opponent_id).is_not(None))
                 .group_by(col(LadderRatingChange.bot_id), col(LadderRatingChange.opponent_id),
                           col(LadderRatingChange.outcome)))
        table: dict[int, dict[int, tuple[float, int]]] = {}
        with self.store._read() as session:
            for bot, opponent, outcome, n in session.exec(query).all():
                assert opponent is not None
                points, games = table.setdefault(bot, {}).get(opponent, (0.0, 0))
                table[bot][opponent] = (points + SCORE[outcome] * n, games + int(n))
        return table

    def rated_games(self, game: str) -> list[tuple[int, int, float]]:
        """Every rated two-bot match of the game once, as (bot_a, bot_b, score of bot_a).

        The input of the batch fit (`stats.batch`): bot ids, win 1, draw ½, loss 0; bot_a
        is the lower id. Read from the rating history (one row per bot per match). Left
        out: matches of more than two bots (no `opponent_id`), and a match both bots lost
        (both failed: it says nothing about which is stronger, and a pair of scores that
        do not add up to 1 is no Bradley–Terry game).
        """
        query = (select(LadderRatingChange.match_id, LadderRatingChange.bot_id,
                        LadderRatingChange.opponent_id, LadderRatingChange.outcome)
                 .where(LadderRatingChange.game == game,
                        col(LadderRatingChange.opponent_id).is_not(None)))
        outcomes: dict[str, dict[int, tuple[int, str]]] = {}
        with self.store._read() as session:
            for match_id, bot, opponent, outcome in session.exec(query).all():
                assert opponent is not None
                outcomes.setdefault(match_id, {})[bot] = (opponent, outcome)
        games = []
        for rows in outcomes.values():
            bot = min(rows)
            opponent, outcome = rows[bot]
            other = rows.get(opponent)
            if other is None or other[0] != bot:
                continue  # not a two-bot match after all
            if outcome == other[1] == Outcome.LOSS.value:
                continue  # a double loss
            games.append((bot, opponent, SCORE[outcome]))
        return games

    def history(self, bot_id: int, limit: int = 100) -> list[LadderRatingChange]:
        query = (select(LadderRatingChange).where(LadderRatingChange.bot_id == bot_id)
                 .order_by(col(LadderRatingChange.at).desc()).limit(limit))
        with self.store._read() as session:
            return list(session.exec(query).all())

    def game_history(self, game: str, limit: int = 200) -> dict[int, list[HistoryPoint]]:
        """Each bot's rating after each of its rated games of `game`, oldest first: its last
        `limit` games, and before the first of them the rating it started that game with
        (numbered one lower: 0 is the unrated start). Bots without games are left out.

        One query: a window numbers each bot's rows and counts them, so a ladder of
        thousands of games sends back only the rows asked for.
        """
        change = LadderRatingChange.__table__.c  # type: ignore[attr-defined]
        numbered = (sa.select(change.bot_id, change.match_id, change.at, change.outcome,
                              change.mu_before, change.sigma_before, change.mu, change.sigma,
                              sa.func.row_number().over(partition_by=change.bot_id,
                                                        order_by=(change.at, change.match_id))
                              .label("n"),
                              sa.func.count().over(partition_by=change.bot_id).label("total"))
                    .where(change.game == game).subquery())
        query = (sa.select(numbered).where(numbered.c.n > numbered.c.total - max(1, limit))
                 .order_by(numbered.c.bot_id, numbered.c.n))
        found: dict[int, list[HistoryPoint]] = {}
        with self.store._read() as session:
            for row in session.execute(query).all():
                points = found.setdefault(int(row.bot_id), [])
                if not points:
                    points.append(HistoryPoint(int(row.n) - 1, None, row.mu_before,
                                               row.sigma_before, None, None))
                points.append(HistoryPoint(int(row.n), row.at, row.mu, row.sigma,
                                           row.outcome, row.match_id))
        return found

    def rated_matches(self, game: str, since: datetime | None = None) -> int:
        """Matches rated (in the game, since a time): each counted once."""
        query = (select(sa.func.count(sa.distinct(col(LadderRatingChange.match_id))))
                 .where(LadderRatingChange.game == game))
        if since is not None:
            query = query.where(col(LadderRatingChange.at) >= since)
        with self.store._read() as session:
            return int(session.exec(query).one())

    def games_per_minute(self, game: str, window: float = 600.0) -> float:
        """Rated matches per minute over the last `window` seconds (or since the first)."""
        since = utcnow() - timedelta(seconds=window)
        query = (select(sa.func.count(sa.distinct(col(LadderRatingChange.match_id))),
                        sa.func.min(LadderRatingChange.at))
                 .where(LadderRatingChange.game == game,
                        col(LadderRatingChange.at) >= since))
        with self.store._read() as session:
            count, first = session.exec(query).one()
        if not count or first is None:
            return 0.0
        if first.tzinfo is None:
            from datetime import UTC
            first = first.replace(tzinfo=UTC)
        span = max((utcnow() - first).total_seconds(), 60.0)
        return float(count) * 60.0 / span

    def result_of(self, match_id: str) -> Result | None:
        return self.store.get_result(match_id)


def _mark_done(session: object, pairing_ids: list[int]) -> None:
    from sqlmodel import Session

    assert isinstance(session, Session)
    if pairing_ids:
        session.execute(sa.update(LadderPairing)
                        .where(col(LadderPairing.id).in_(pairing_ids))
                        .values(status=PairingStatus.DONE.value))
