"""Kill -9 a `gauntlet serve` in the middle of a sequential test, start it again: the test
resumes where it stopped, no pair is counted twice or lost, and a game that had its result
before the kill is not played again."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from stats import llr, pair_index
from tests.server.ladder.conftest import AUTH, BLOKUS, free_port, gauntlet, gauntlet_env, serve

PAIR_COLUMNS = "pair, status, position, match_0, match_1, result_0, result_1, attempts"


def pairs(url: str) -> dict[int, dict[str, Any]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text(f"SELECT {PAIR_COLUMNS} FROM sprt_pairs")).mappings()
            return {int(r["pair"]): dict(r) for r in rows}
    finally:
        engine.dispose()


def match_status(url: str, match_id: str) -> str:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            return str(c.execute(sa.text("SELECT status FROM matches WHERE id = :m"),
                                 {"m": match_id}).scalar_one())
    finally:
        engine.dispose()


def wait_for(check: Any, proc: subprocess.Popen[bytes], log: Path, what: str,
             timeout: float = 180) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if found := check():
                return found
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}:\n{log.read_text()[-3000:]}")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_kill_9_mid_test_resumes_it_and_counts_every_pair_once(tmp_path: Path) -> None:
    port = free_port()
    http = f"http://127.0.0.1:{port}"
    env = gauntlet_env(tmp_path, port, GAUNTLET_LADDER_AUTOSTART="false")
    url = env["GAUNTLET_DATABASE_URL"]
    log = tmp_path / "serve.log"
    proc = serve([gauntlet(), "serve"], env, tmp_path, log)
    try:
        wait_for(lambda: httpx.get(f"{http}/api/health", timeout=5).status_code == 200,
                 proc, log, "the server")
        # Every pair lost by the candidate, at [-5, 0] with bounds of +/-6.9: the LLR
        # falls by about 0.02 a pair, so the test goes on for hundreds of pairs.
        answer = httpx.post(f"{http}/api/tests", headers=AUTH, timeout=30, json={
            "game": BLOKUS, "a": "random", "b": "greedy", "elo0": -5, "elo1": 0,
            "alpha": 0.001, "beta": 0.001, "concurrency": 2, "seed": 5})
        assert answer.status_code == 201, answer.text
        test_id = answer.json()["id"]
        # Kill with pairs counted and a pair half played: one game with its result, the
        # other with its match still open.
        def half_played() -> bool:
            found = pairs(url)
            counted = sum(p["status"] == "counted" for p in found.values())
            return counted >= 3 and any(
                p["status"] == "playing" and p["match_0"] and p["match_1"]
                and (p["result_0"] is None) != (p["result_1"] is None)
                for p in found.values())

        wait_for(half_played, proc, log, "a half played pair")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    before = pairs(url)
    counted_before = {n: p for n, p in before.items() if p["status"] == "counted"}
    playing_before = {n: p for n, p in before.items() if p["status"] == "playing"}
    assert counted_before and playing_before

    proc = serve([gauntlet(), "serve"], env, tmp_path, log)
    try:
        def more_counted() -> bool:
            found = pairs(url)
            return all(found[n]["status"] == "counted" for n in playing_before) and \
                sum(p["status"] == "counted" for p in found.values()) >= len(counted_before) + 4

        wait_for(more_counted, proc, log, "the resumed pairs and more")
        test = httpx.post(f"{http}/api/tests/{test_id}/stop", headers=AUTH, timeout=30).json()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0, log.read_text()[-3000:]
    after = pairs(url)

    # What was counted before the kill is counted still, at the same place.
    for number, pair in counted_before.items():
        assert after[number] == pair
    counted = sorted((p for p in after.values() if p["status"] == "counted"),
                     key=lambda p: p["position"])
    assert [p["position"] for p in counted] == list(range(len(counted)))
    assert test["pairs"] == len(counted) and test["status"] == "stopped"
    counts = [0] * 5
    for pair in counted:
        counts[pair_index(pair["result_0"], pair["result_1"])] += 1
    assert test["pentanomial"] == counts
    assert test["llr"] == pytest.approx(llr(counts, -5, 0))
    # The pairs being played at the kill were finished, not lost and not played twice.
    for number, pair in playing_before.items():
        now = after[number]
        for game in (0, 1):
            match_id, result = pair[f"match_{game}"], pair[f"result_{game}"]
            if result is not None:  # had its result: kept, not played again
                assert (now[f"match_{game}"], now[f"result_{game}"]) == (match_id, result)
            elif match_id is None:  # not started before the kill: started after it
                assert now[f"match_{game}"] is not None
            elif match_status(url, match_id) == "aborted":
                # Its match was cut by the kill: played again under a new match.
                assert now[f"match_{game}"] != match_id and now["attempts"] > pair["attempts"]
            else:  # its match finished just before the kill: its result was taken
                assert now[f"match_{game}"] == match_id
    assert all(p["status"] in ("counted", "cancelled") for p in after.values())
