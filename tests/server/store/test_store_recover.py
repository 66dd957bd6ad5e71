"""Store.recover(): what a killed server left open is aborted, nothing finished is lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import sqlalchemy as sa

from server.store import Match, MatchStatus, NewEvent, NewSeat, Result, Store

REPO = Path(__file__).resolve().parents[3]
CHILD = Path(__file__).with_name("store_crash_child.py")


def assert_result_iff_finished(store: Store) -> None:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT m.status, r.match_id FROM matches m "
            "LEFT JOIN results r ON r.match_id = m.id")).all()
    assert rows
    for status, result_id in rows:
        assert (status == MatchStatus.FINISHED) == (result_id is not None)


def test_recover_aborts_open_matches_only(store: Store) -> None:
    ids: dict[str, str] = {}
    for name in ("running", "paused", "waiting-started", "waiting", "finished", "cancelled"):
        match = store.create_match("blokus", [NewSeat("a")])
        ids[name] = match.id
        store.append_events([NewEvent(match.id, i, "move") for i in range(3)])
        if name != "waiting":
            store.set_status(match.id, "running")
        if name == "paused":
            store.set_status(match.id, "paused")
        if name == "waiting-started":
            store.set_status(match.id, "waiting")
        if name == "finished":
            store.store_result(match.id, winner=0, reason="REGULAR")
        if name == "cancelled":
            store.set_status(match.id, "cancelled")
    # A hand-made contradiction: finished without a result.
    broken = store.create_match("blokus")
    with store.engine.begin() as conn:
        conn.execute(sa.update(Match).where(sa.column("id") == broken.id)
                     .values(status="finished"))

    aborted = store.recover()

    assert set(aborted) == {ids["running"], ids["paused"], ids["waiting-started"], broken.id}
    expected = {"running": "aborted", "paused": "aborted", "waiting-started": "aborted",
                "waiting": "waiting", "finished": "finished", "cancelled": "cancelled"}
    for name, match_id in ids.items():
        after = store.get_match(match_id)
        assert after is not None and after.status == expected[name], name
        assert len(store.events_since(match_id)) == 3  # events stay with the match
        if expected[name] == "aborted":
            assert after.finished is not None
    assert store.recover() == []
    assert_result_iff_finished(store)


def test_recover_after_a_kill(store: Store, db_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, str(CHILD), db_url], cwd=REPO, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line, child.stderr.read() if child.stderr else "child printed nothing"
        report = json.loads(line)
        # Let it write for a while, then kill it wherever it is (mid-batch, mid-commit).
        deadline = time.monotonic() + 10
        live = report["open"]["running"]
        while (store.last_seq(live) or 0) < report["flushed"] + 200:
            assert time.monotonic() < deadline, "the child stopped writing"
            time.sleep(0.01)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()
    assert child.returncode == -signal.SIGKILL

    reopened = Store(db_url)  # as a restarted server would
    try:
        if reopened.engine.dialect.name == "sqlite":
            with reopened.engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
                assert conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall() == []
        aborted = reopened.recover()
        opened = report["open"]
        assert set(aborted) == {opened["running"], opened["paused"], opened["waiting-started"]}

        seqs = [e.seq for e in reopened.events_since(live)]
        assert len(seqs) >= report["flushed"] + 200
        assert seqs == list(range(len(seqs)))  # a prefix of the log, no holes, no repeats
        for match_id in aborted:
            match = reopened.get_match(match_id)
            assert match is not None and match.status == "aborted"
            assert reopened.get_result(match_id) is None
        waiting = reopened.get_match(opened["waiting"])
        assert waiting is not None and waiting.status == "waiting"

        for k, match_id in enumerate(report["finished"]):
            match = reopened.get_match(match_id)
            result = reopened.get_result(match_id)
            assert match is not None and match.status == "finished" and match.seed == k
            assert isinstance(result, Result) and result.scores == {"k": k}
            assert [e.seq for e in reopened.events_since(match_id)] == list(range(20))
            assert [s.outcome for s in reopened.seats(match_id)] == (
                ["win", "loss"] if k % 2 == 0 else ["loss", "win"])
        assert_result_iff_finished(reopened)
    finally:
        reopened.close()
