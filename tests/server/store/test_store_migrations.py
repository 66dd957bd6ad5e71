"""The migrations build exactly the models' schema, keep data across upgrades, and fail whole."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from server.store import NewEvent, NewSeat, SeatOutcome, Store, migrate
from server.store.engine import make_engine
from server.store.models import metadata

REPO = Path(__file__).resolve().parents[3]


def schema_differences(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "compare_server_default": True})
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


def test_migrations_build_the_models_schema(db_url: str) -> None:
    migrate.upgrade(db_url)
    assert schema_differences(db_url) == []
    assert migrate.current_revision(db_url) == migrate.head_revision()


def test_an_empty_database_differs_from_the_models(db_url: str) -> None:
    """The comparison above can fail: without the migrations it finds every table missing."""
    diffs = schema_differences(db_url)
    added = {d[1].name for d in diffs if isinstance(d, tuple) and d[0] == "add_table"}
    assert added == set(metadata.tables)


def test_the_initial_revision_stays_first() -> None:
    script = migrate.alembic_config()
    from alembic.script import ScriptDirectory

    revisions = list(ScriptDirectory.from_config(script).walk_revisions())
    assert [r.revision for r in revisions][-1] == "0001"  # the initial revision stays first


def test_upgrade_creates_the_sqlite_folder(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a' / 'b' / 'g.db'}"
    migrate.upgrade(url)
    assert (tmp_path / "a" / "b" / "g.db").exists()
    with sqlite3.connect(tmp_path / "a" / "b" / "g.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_the_alembic_cli_finds_the_migrations(tmp_path: Path) -> None:
    """`alembic -c migrations/alembic.ini` works too, with the URL from the environment."""
    db = tmp_path / "cli.db"
    env = {**os.environ, "GAUNTLET_DATABASE_URL": f"sqlite:///{db}"}
    alembic = Path(sys.executable).parent / "alembic"
    done = subprocess.run([str(alembic), "-c", "migrations/alembic.ini", "upgrade", "head"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert migrate.current_revision(f"sqlite:///{db}") == migrate.head_revision()


def _fill(store: Store) -> tuple[str, str]:
    """A finished match with events and a result, and a running one; their ids."""
    bot = store.create_bot("keeper", "blokus", ["python", "bot.py"], env={"A": "1"})
    done = store.create_match("blokus", [NewSeat("one", bot.id), NewSeat("two")], seed=7,
                              options={"x": [1, 2]})
    store.set_status(done.id, "running")
    store.append_events([NewEvent(done.id, i, "move", {"i": i}) for i in range(25)])
    store.store_result(done.id, winner=0, reason="REGULAR", scores={"points": [9, 4]},
                       seats=[SeatOutcome(0, "win", [2, 9]), SeatOutcome(1, "loss", [0, 4])])
    running = store.create_match("blokus", [NewSeat("three", bot.id)])
    store.set_status(running.id, "running")
    store.append_events([NewEvent(running.id, i, "move", {"i": i}) for i in range(5)])
    return done.id, running.id


# A later revision as a real one would look: batch-alters the parent tables of the
# cascading foreign keys. On SQLite the batch copy drops and renames `matches` and `bots`;
# with foreign keys enforced that DROP would delete every seat, event and result.
LATER_REVISION = '''
import sqlalchemy as sa
from alembic import op

revision = "9001"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("note", sa.String(50), nullable=False, server_default=""))
        batch.alter_column("game", type_=sa.String(40), existing_type=sa.String(32),
                           existing_nullable=False)
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("rating", sa.Float(), nullable=True))
    {extra}


def downgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("rating")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("note")
        batch.alter_column("game", type_=sa.String(32), existing_type=sa.String(40),
                           existing_nullable=False)
'''


def _later_revision(folder: Path, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "9001_later.py").write_text(
        textwrap.dedent(LATER_REVISION).replace("{extra}", extra)
        .replace("{head}", migrate.head_revision() or ""), encoding="utf-8")
    return folder


def _snapshot(store: Store, ids: tuple[str, ...]) -> dict[str, object]:
    return {
        "bots": [(b.name, b.command, b.env) for b in store.list_bots()],
        **{i: (store.get_match(i), store.seats(i), store.events_since(i), store.get_result(i))
           for i in ids},
    }


def test_upgrading_keeps_the_data(db_url: str, tmp_path: Path) -> None:
    migrate.upgrade(db_url)
    store = Store(db_url)
    try:
        ids = _fill(store)
        before = _snapshot(store, ids)
        store.close()
        migrate.upgrade(db_url, extra_versions=[_later_revision(tmp_path / "later")])
        assert migrate.current_revision(db_url) == "9001"
        engine = make_engine(db_url)
        with engine.connect() as conn:
            notes = conn.execute(sa.text("SELECT note FROM matches")).scalars().all()
            assert notes == ["", ""]
            counts = {t: conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one()
                      for t in ("bots", "matches", "seats", "match_events", "results")}
            assert counts == {"bots": 1, "matches": 2, "seats": 3, "match_events": 30,
                              "results": 1}
            if conn.dialect.name == "sqlite":
                assert conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall() == []
                # The batch copy kept the cascade: deleting a match still takes its events.
        engine.dispose()
        assert _snapshot(store, ids) == before
        with pytest.raises(sa.exc.IntegrityError):  # foreign keys are enforced again
            store.append_events([NewEvent("no-such-match", 0, "move")])
        _downgrade(db_url, tmp_path / "later")
        assert _snapshot(store, ids) == before
        assert schema_differences(db_url) == []
    finally:
        store.close()


def _downgrade(url: str, later: Path) -> None:
    from alembic import command

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            command.downgrade(migrate.alembic_config(connection=connection,
                                                     extra_versions=[later]),
                               migrate.head_revision() or "")
    finally:
        engine.dispose()


def test_a_failing_upgrade_changes_nothing(db_url: str, tmp_path: Path) -> None:
    """The whole upgrade is one transaction, on SQLite too: no half-migrated schema."""
    migrate.upgrade(db_url)
    store = Store(db_url)
    try:
        ids = _fill(store)
        before = _snapshot(store, ids)
        later = _later_revision(tmp_path / "broken",
                                extra='raise RuntimeError("migration bug")')
        with pytest.raises(RuntimeError, match="migration bug"):
            migrate.upgrade(db_url, extra_versions=[later])
        assert migrate.current_revision(db_url) == migrate.head_revision()
        assert schema_differences(db_url) == []
        assert _snapshot(store, ids) == before
    finally:
        store.close()


def test_times_come_back_timezone_aware(store: Store) -> None:
    match = store.create_match("hearth")
    again = store.get_match(match.id)
    assert again is not None and again.created.tzinfo is not None
    assert abs((again.created - datetime.now(UTC)).total_seconds()) < 60


def test_naive_times_are_refused(store: Store) -> None:
    """A naive datetime is ambiguous (local? UTC?): the store wants aware ones."""
    match = store.create_match("hearth")
    # Events are converted by the column types before SQLAlchemy sees them: a plain error.
    with pytest.raises(ValueError, match="naive datetime"):
        store.append_events([NewEvent(match.id, 0, "move", time=datetime(2030, 1, 1))])
