"""The store's tables: bots, matches, seats, match events, results, seats' move logs.

The store speaks plain values only (strings, ints, JSON-able dicts and lists): the room and
result types are still moving, and a table must not change shape because a dataclass did.
Statuses, outcomes and failure categories are short strings guarded by CHECK constraints
rather than database enum types, so that adding a value is a one-line batch migration on
SQLite and PostgreSQL alike (a PostgreSQL ENUM cannot drop a value and needs its own DDL).

All tables hang off a registry of their own (`StoreModel`) instead of the global
`SQLModel.metadata`: alembic compares exactly these tables, a test module that declares a
throwaway table model cannot make a migration look stale, and the naming convention below
(which gives every constraint a stable name, as SQLite batch migrations need) does not leak
into anybody else's metadata.
"""

from __future__ import annotations

import enum
import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)
"""The metadata alembic migrates (`migrations/env.py`) and the tests compare."""


class MatchStatus(enum.StrEnum):
    """Where a match is in its life; `finished` iff a result row exists."""

    WAITING = "waiting"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    ABORTED = "aborted"
    CANCELLED = "cancelled"


OPEN_STATUSES: tuple[MatchStatus, ...] = (
    MatchStatus.WAITING, MatchStatus.RUNNING, MatchStatus.PAUSED,
)
"""Statuses a match can still leave; a result may only be committed from one of these."""


class Outcome(enum.StrEnum):
    """A seat's outcome once the match is over."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class FailureCategory(enum.StrEnum):
    """Why a seat lost by misbehaving rather than by playing (the launcher's categories)."""

    TIMEOUT = "timeout"
    ILLEGAL_MOVE = "illegal_move"
    CRASH = "crash"
    PROTOCOL_ERROR = "protocol_error"
    DISCONNECT = "disconnect"
    FAILED_TO_START = "failed_to_start"


def _one_of(column: str, values: type[enum.StrEnum], *, nullable: bool = False) -> str:
    """The SQL text of a CHECK that `column` holds one of the enum's values."""
    listed = ", ".join(f"'{v.value}'" for v in values)
    check = f"{column} IN ({listed})"
    return f"{column} IS NULL OR {check}" if nullable else check


def utcnow() -> datetime:
    """Now, timezone-aware UTC: every stored time is UTC."""
    return datetime.now(UTC)


def new_match_id() -> str:
    """A fresh match id: a random UUID in its 36-character text form (unguessable)."""
    return str(uuid.uuid4())


class UTCDateTime(sa.TypeDecorator[datetime]):
    """A timestamp stored as UTC and always read back timezone-aware.

    SQLite keeps no zone: without this a time read from SQLite would be naive while the same
    time from PostgreSQL is aware, and comparing the two raises. The column type underneath
    is plain `DateTime(timezone=True)`, which is what the migrations spell.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: the store takes timezone-aware times")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class StoreModel(SQLModel, registry=registry(metadata=metadata)):
    """Base of every store table: binds them to the store's own `metadata`."""


class Bot(StoreModel, table=True):
    """A registered bot: how the launcher starts it (argv, working directory, environment)."""

    __tablename__ = "bots"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(100), unique=True)
    game: str = Field(sa_type=sa.String(32), index=True)
    # argv as a list (no shell): the launcher never parses a command string.
    command: list[str] = Field(sa_type=sa.JSON)
    workdir: str | None = Field(default=None, sa_type=sa.String(1024))
    env: dict[str, str] = Field(default_factory=dict, sa_type=sa.JSON)
    # The deck it plays when a seat names none (Hearth: a class deck's name, a deck code or
    # {hero, cards}), as registered: the game reads it again for every match.
    deck: Any = Field(default=None, sa_type=sa.JSON, nullable=True)
    created: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Match(StoreModel, table=True):
    """One match; `attempt` counts restarts of the same pairing (the ladder retries aborts)."""

    __tablename__ = "matches"
    __table_args__ = (
        sa.CheckConstraint(_one_of("status", MatchStatus), name="status"),
        sa.Index(None, "game", "created"),
    )

    id: str = Field(default_factory=new_match_id, primary_key=True, sa_type=sa.String(36))
    game: str = Field(sa_type=sa.String(32))
    status: str = Field(default=MatchStatus.WAITING.value, sa_type=sa.String(16), index=True)
    # Seeds are 64-bit in practice: BIGINT, or PostgreSQL would refuse half of them.
    seed: int | None = Field(default=None, sa_type=sa.BigInteger)
    options: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    created: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    started: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished: datetime | None = Field(default=None, sa_type=UTCDateTime)
    attempt: int = Field(default=1)


class Seat(StoreModel, table=True):
    """A seat of a match: who sat there and, once it is over, how it went for them."""

    __tablename__ = "seats"
    __table_args__ = (
        sa.CheckConstraint(_one_of("outcome", Outcome, nullable=True), name="outcome"),
        sa.CheckConstraint(_one_of("failure", FailureCategory, nullable=True), name="failure"),
    )

    match_id: str = Field(
        sa_column_args=[sa.ForeignKey("matches.id", ondelete="CASCADE")],
        primary_key=True, sa_type=sa.String(36),
    )
    index: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    display_name: str = Field(default="", sa_type=sa.String(200))
    # A deleted bot leaves its past matches in place, seated by a name only.
    bot_id: int | None = Field(
        default=None,
        sa_column_args=[sa.ForeignKey("bots.id", ondelete="SET NULL")],
        index=True,
    )
    reservation: str | None = Field(default=None, sa_type=sa.String(64))
    score_parts: list[Any] | None = Field(default=None, sa_type=sa.JSON)
    outcome: str | None = Field(default=None, sa_type=sa.String(8))
    failure: str | None = Field(default=None, sa_type=sa.String(32))
    detail: str = Field(default="", sa_type=sa.Text)


class MatchEvent(StoreModel, table=True):
    """One entry of a match's event log; (match_id, seq) is the key, so no seq is stored twice."""

    __tablename__ = "match_events"

    match_id: str = Field(
        sa_column_args=[sa.ForeignKey("matches.id", ondelete="CASCADE")],
        primary_key=True, sa_type=sa.String(36),
    )
    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    time: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    kind: str = Field(sa_type=sa.String(64))
    payload: Any = Field(default_factory=dict, sa_type=sa.JSON)


class MatchLog(StoreModel, table=True):
    """An ended match's event log packed into one row (`server.store.packing`).

    A row per event costs more than most events hold (the 36-character match id twice,
    in the table and in its key, a time, a kind): a Blokus match stored 16 KB that way.
    Once a match is over its events are read back, written here as one compressed
    document and deleted from `match_events` (`Store.pack_match`); readers merge both
    (`Store.events_since`), so nothing tells the two apart. `data` None: the events were
    dropped by the retention (`Store.prune`, at `dropped`); the counts stay.
    """

    __tablename__ = "match_logs"

    match_id: str = Field(
        sa_column_args=[sa.ForeignKey("matches.id", ondelete="CASCADE")],
        primary_key=True, sa_type=sa.String(36),
    )
    events: int = Field(default=0)
    last_seq: int = Field(default=-1)
    # Events of kind `state`: a match with at most one (its opening) saw no move.
    states: int = Field(default=0)
    data: bytes | None = Field(default=None, sa_type=sa.LargeBinary)
    packed: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    dropped: datetime | None = Field(default=None, sa_type=UTCDateTime)


class SeatMove(StoreModel, table=True):
    """What a launched bot printed on stderr during one of its seat's decisions, and what
    that decision cost it (`server.launcher.moves`): written once its match is over.

    `turn` N is the seat's N-th decision (the N-th event of kind `decision` with that seat
    in the match's log, at `seq`); turn 0 holds what came before the first. `lines` is a
    JSON list of strings, already bounded and redacted by the launcher (64 lines / 8 KiB a
    move, 256 KiB a seat); `dropped_lines` and `dropped_bytes` count what was not kept.
    """

    __tablename__ = "seat_moves"

    match_id: str = Field(
        sa_column_args=[sa.ForeignKey("matches.id", ondelete="CASCADE")],
        primary_key=True, sa_type=sa.String(36),
    )
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    turn: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    seq: int | None = Field(default=None)
    think_ms: int | None = Field(default=None)
    cpu_ms: int | None = Field(default=None)
    peak_rss_kb: int | None = Field(default=None)
    lines: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    dropped_lines: int = Field(default=0)
    dropped_bytes: int = Field(default=0)


class StoreProbe(StoreModel, table=True):
    """Scratch rows of the store's health probe (`Store.probe`), deleted again at once."""

    __tablename__ = "store_probe"

    id: int | None = Field(default=None, primary_key=True)
    data: bytes = Field(sa_type=sa.LargeBinary)

class Result(StoreModel, table=True):
    """A finished match's result; written in the same transaction that sets `finished`."""

    __tablename__ = "results"

    match_id: str = Field(
        sa_column_args=[sa.ForeignKey("matches.id", ondelete="CASCADE")],
        primary_key=True, sa_type=sa.String(36),
    )
    winner: int | None = Field(default=None)
    reason: str = Field(sa_type=sa.String(200))
    scores: Any = Field(default_factory=dict, sa_type=sa.JSON)
    committed: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


# --- the ladder ---------------------------------------------------------------------------
# Its whole state lives here, so that a killed server resumes where it stopped: which games
# run (`ladder_games`), the legs still to play (`ladder_pairings`), each bot's rating
# (`ladder_ratings`) and every rating change, keyed by the match it came from
# (`ladder_rating_history`: a match is rated once, whatever crashes in between).


class PairingStatus(enum.StrEnum):
    """A leg of a pairing: queued, being played (its match id set), or done."""

    QUEUED = "queued"
    PLAYING = "playing"
    DONE = "done"
    DROPPED = "dropped"


class LadderGame(StoreModel, table=True):
    """One game's ladder: running or not (the flag survives restarts)."""

    __tablename__ = "ladder_games"

    game: str = Field(primary_key=True, sa_type=sa.String(32))
    running: bool = Field(default=False)
    updated: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # The positions its rounds start from, in turn ({"match", "turn"} each, as the API's
    # "from"); None or empty: every round from the game's start.
    openings: list[Any] | None = Field(default=None, sa_type=sa.JSON, nullable=True)


class LadderPairing(StoreModel, table=True):
    """One leg to play: bot_a in seat 0, bot_b in seat 1; both legs of a round share a seed."""

    __tablename__ = "ladder_pairings"
    __table_args__ = (
        sa.CheckConstraint(_one_of("status", PairingStatus), name="status"),
        sa.Index(None, "game", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(sa_type=sa.String(32))
    round: int = Field(default=0)
    leg: int = Field(default=0)
    bot_a: int = Field(sa_column_args=[sa.ForeignKey("bots.id", ondelete="CASCADE")])
    bot_b: int = Field(sa_column_args=[sa.ForeignKey("bots.id", ondelete="CASCADE")])
    seed: int = Field(sa_type=sa.BigInteger)
    status: str = Field(default=PairingStatus.QUEUED.value, sa_type=sa.String(16))
    # The match of the latest attempt (an aborted attempt is replayed under a new match).
    match_id: str | None = Field(default=None, sa_type=sa.String(36))
    attempts: int = Field(default=0)
    # The opening both legs of the round start from ({"match", "turn"}; None: the start).
    start: Any = Field(default=None, sa_type=sa.JSON, nullable=True)
    created: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class LadderRating(StoreModel, table=True):
    """A bot's current rating (openskill mu and sigma) and its ladder record."""

    __tablename__ = "ladder_ratings"

    bot_id: int = Field(
        sa_column_args=[sa.ForeignKey("bots.id", ondelete="CASCADE")],
        primary_key=True, sa_column_kwargs={"autoincrement": False},
    )
    game: str = Field(sa_type=sa.String(32), index=True)
    mu: float
    sigma: float
    games: int = Field(default=0)
    wins: int = Field(default=0)
    draws: int = Field(default=0)
    losses: int = Field(default=0)
    # Failure category -> count (the launcher's and the room's categories).
    failures: dict[str, int] = Field(default_factory=dict, sa_type=sa.JSON)
    updated: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class LadderRatingChange(StoreModel, table=True):
    """One bot's rating change from one match: (match_id, bot_id) is the idempotency key."""

    __tablename__ = "ladder_rating_history"
    __table_args__ = (
        sa.CheckConstraint(_one_of("outcome", Outcome), name="outcome"),
        sa.CheckConstraint(_one_of("failure", FailureCategory, nullable=True), name="failure"),
        sa.Index(None, "game", "at"),
    )

    match_id: str = Field(
        sa_column_args=[sa.ForeignKey("matches.id", ondelete="CASCADE")],
        primary_key=True, sa_type=sa.String(36),
    )
    bot_id: int = Field(
        sa_column_args=[sa.ForeignKey("bots.id", ondelete="CASCADE")],
        primary_key=True, sa_column_kwargs={"autoincrement": False},
    )
    game: str = Field(sa_type=sa.String(32))
    opponent_id: int | None = Field(default=None)
    outcome: str = Field(sa_type=sa.String(8))
    failure: str | None = Field(default=None, sa_type=sa.String(32))
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


# --- sequential tests (SPRT) ----------------------------------------------------------------
# A test's whole state lives here, so that a killed server resumes it where it stopped: the
# test (`sprt_tests`), and its pairs (`sprt_pairs`): each pair's seed, the match id and the
# candidate's result of each of its two games, and, once both games have a result, the
# place at which the pair was counted. The figures are computed from the counted pairs in
# that order, so a pair is counted once (its `position` is set in one transaction) and the
# LLR after every pair can be drawn again at any time.


class SprtStatus(enum.StrEnum):
    """A test: running, or ended (decided, out of games, or stopped by someone)."""

    RUNNING = "running"
    H1 = "h1"
    H0 = "h0"
    INCONCLUSIVE = "inconclusive"
    STOPPED = "stopped"


class PairStatus(enum.StrEnum):
    """A pair of a test: to play (again), being played, counted, or left out.

    `incomplete`: a game gave no result after every attempt; `cancelled`: the test ended
    (decided or stopped) while the pair was being played. Neither is counted."""

    QUEUED = "queued"
    PLAYING = "playing"
    COUNTED = "counted"
    INCOMPLETE = "incomplete"
    CANCELLED = "cancelled"


class SprtTest(StoreModel, table=True):
    """One sequential test of bot_a (the candidate) against bot_b (the baseline)."""

    __tablename__ = "sprt_tests"
    __table_args__ = (
        sa.CheckConstraint(_one_of("status", SprtStatus), name="status"),
        sa.CheckConstraint("model IN ('normalized', 'logistic')", name="model"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(sa_type=sa.String(32))
    # A deleted bot leaves its tests in place, named only.
    bot_a: int | None = Field(
        default=None, sa_column_args=[sa.ForeignKey("bots.id", ondelete="SET NULL")])
    bot_b: int | None = Field(
        default=None, sa_column_args=[sa.ForeignKey("bots.id", ondelete="SET NULL")])
    name_a: str = Field(sa_type=sa.String(100))
    name_b: str = Field(sa_type=sa.String(100))
    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str = Field(default="normalized", sa_type=sa.String(16))
    max_games: int
    concurrency: int = Field(default=1)
    seed: int = Field(sa_type=sa.BigInteger)
    # The positions its pairs start from ({"match", "turn"} each): pair k from opening k mod
    # n, both games alike; None: every pair from the game's start.
    openings: list[Any] | None = Field(default=None, sa_type=sa.JSON, nullable=True)
    status: str = Field(default=SprtStatus.RUNNING.value, sa_type=sa.String(16), index=True)
    # Why it ended when nobody decided it: stopped over the API, too many games without result.
    reason: str = Field(default="", sa_type=sa.String(200))
    created: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    finished: datetime | None = Field(default=None, sa_type=UTCDateTime)


class SprtPair(StoreModel, table=True):
    """One pair of a test: game 0 with the candidate in seat 0, game 1 with the seats
    swapped, the same seed. `result_N` is the candidate's (W, D or L); match ids are
    plain text, not keys: the retention may delete a match, the pair's result stays."""

    __tablename__ = "sprt_pairs"
    __table_args__ = (
        sa.CheckConstraint(_one_of("status", PairStatus), name="status"),
        sa.CheckConstraint("result_0 IS NULL OR result_0 IN ('W', 'D', 'L')", name="result_0"),
        sa.CheckConstraint("result_1 IS NULL OR result_1 IN ('W', 'D', 'L')", name="result_1"),
        sa.UniqueConstraint("test_id", "position"),
    )

    test_id: int = Field(
        sa_column_args=[sa.ForeignKey("sprt_tests.id", ondelete="CASCADE")],
        primary_key=True, sa_column_kwargs={"autoincrement": False},
    )
    pair: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    seed: int = Field(sa_type=sa.BigInteger)
    status: str = Field(default=PairStatus.QUEUED.value, sa_type=sa.String(16))
    match_0: str | None = Field(default=None, sa_type=sa.String(36))
    match_1: str | None = Field(default=None, sa_type=sa.String(36))
    result_0: str | None = Field(default=None, sa_type=sa.String(1))
    result_1: str | None = Field(default=None, sa_type=sa.String(1))
    # Games started for this pair (a game without a result is played again, up to a bound).
    attempts: int = Field(default=0)
    # The order in which pairs were counted: the test's figures replay them in it.
    position: int | None = Field(default=None)
    finished: datetime | None = Field(default=None, sa_type=UTCDateTime)
