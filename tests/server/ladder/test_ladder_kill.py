"""Kill -9 a `gauntlet serve` running the ladder mid-run, start it again: the ladder goes on,
no stored result is lost or rated twice, the interrupted matches are aborted and replayed."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.server.ladder.conftest import (
    BLOKUS,
    consistency,
    free_port,
    gauntlet,
    gauntlet_env,
    serve,
)


def wait_rated(http: str, at_least: int, proc: subprocess.Popen[bytes], log: Path,
               timeout: float = 180) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            answer = httpx.get(f"{http}/api/ladder/{BLOKUS}", timeout=5)
            if answer.status_code == 200 and (n := answer.json()["rated"]) >= at_least:
                return int(n)
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"fewer than {at_least} rated games:\n{log.read_text()[-3000:]}")


def playing_legs(url: str) -> list[tuple[int, str | None, int]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT id, match_id, attempts FROM ladder_pairings "
                                     "WHERE status = 'playing'")).all()
            return [(int(r[0]), r[1], int(r[2])) for r in rows]
    finally:
        engine.dispose()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_kill_9_mid_ladder_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    port = free_port()
    http = f"http://127.0.0.1:{port}"
    # Blokus only (Hearth stays stopped): the first start runs every game with two bots,
    # so Hearth's flag is stored as stopped before the first start.
    env = gauntlet_env(tmp_path, port)
    url = env["GAUNTLET_DATABASE_URL"]
    from server.store import Store
    from server.store.ladder import LadderStore

    store = Store(url)
    store.upgrade()
    LadderStore(store).ensure_game("hearth", False)
    store.close()
    log = tmp_path / "serve.log"
    kills = 0
    seen_playing: list[tuple[int, str | None, int]] = []
    for round_ in range(3):
        proc = serve([gauntlet(), "serve"], env, tmp_path, log)
        try:
            rated = wait_rated(http, 3 * (round_ + 1), proc, log)
            # Kill while a match is being played (a leg `playing` with its match).
            deadline = time.monotonic() + 30
            while not (legs := [leg for leg in playing_legs(url) if leg[1]]) and \
                    time.monotonic() < deadline:
                time.sleep(0.05)
            assert rated >= 3
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        kills += 1
        seen_playing += legs
        consistency(url)  # even right after the kill, the books balance
    # A last run finishes what was interrupted, then stops cleanly.
    proc = serve([gauntlet(), "serve"], env, tmp_path, log)
    try:
        final = wait_rated(http, 12, proc, log)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0, log.read_text()[-3000:]
    counts = consistency(url)
    assert counts["rated"] >= final >= 12
    assert counts["aborted"] >= 1, counts  # the interrupted matches, marked by recover()
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            for leg_id, match_id, attempts in seen_playing:
                status = c.execute(sa.text("SELECT status FROM matches WHERE id = :m"),
                                   {"m": match_id}).scalar_one()
                again = c.execute(sa.text("SELECT status, attempts, match_id FROM "
                                          "ladder_pairings WHERE id = :i"),
                                  {"i": leg_id}).one()
                if status == "aborted":
                    # Replayed: a later attempt under a new match.
                    assert again[1] > attempts and again[2] != match_id, (again, attempts)
                else:
                    assert status == "finished"
            # The same match never rated twice (the key would refuse it anyway).
            twice = c.execute(sa.text("SELECT count(*) FROM (SELECT match_id FROM "
                                      "ladder_rating_history GROUP BY match_id "
                                      "HAVING count(*) != 2) t")).scalar_one()
            assert twice == 0
    finally:
        engine.dispose()
    assert kills == 3
