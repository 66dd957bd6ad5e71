"""A seat that fails loses and its opponent wins, whatever the timing (issue #24, point 1):
real bot processes launched by the server, matches made over HTTP, results read
back from the SQLite store and rated by the ladder's store."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from server.ladder.ratings import rate
from server.store.ladder import LadderStore
from tests.api.conftest import AUTH, Running, register, wait_status

EXIT_7 = ["/bin/sh", "-c", "exit 7"]
# The bundled random bot, but 2 s late: the failing bot opposite has exited long before it
# joins (a JVM bot starting on a busy machine). `$0` is the interpreter, `$@` the flags the
# launcher appends.
LATE_RANDOM = ["/bin/sh", "-c", 'sleep 2; exec "$0" -m bots.blokus random "$@"', sys.executable]
BLOKUS = "swc_2027_blokus"


async def match(running: Running, *bots: str) -> dict[str, Any]:
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seats": [{"bot": b} for b in bots]})
    assert created.status_code == 201, created.text
    return await wait_status(running.http, created.json()["id"],
                             {"finished", "aborted", "cancelled"})


def seats_by_name(done: dict[str, Any]) -> dict[str, dict[str, Any]]:
    assert done["status"] == "finished", done
    return {s["name"]: s for s in done["seats"]}


def assert_lost_to(done: dict[str, Any], failing: str, healthy: str) -> None:
    seats = seats_by_name(done)
    assert seats[failing]["outcome"] == "loss", done
    assert seats[failing]["failure"] == "failed_to_start", done
    assert "exited with code 7" in seats[failing]["detail"], done
    assert seats[healthy]["outcome"] == "win" and seats[healthy]["failure"] is None, done
    assert done["result"]["winner"] == seats[healthy]["index"], done


async def test_a_bot_that_cannot_start_loses_every_match(running: Running) -> None:
    await register(running.http, "exit7", EXIT_7)
    # Ten at once, seats alternating: the other bot has joined or not when it fails.
    done = await asyncio.gather(*(
        match(running, *(("exit7", "random") if i % 2 == 0 else ("random", "exit7")))
        for i in range(10)))
    for one in done:
        assert_lost_to(one, "exit7", "random")


async def test_it_loses_also_when_its_opponent_has_not_joined_yet(running: Running) -> None:
    await register(running.http, "exit7", EXIT_7)
    await register(running.http, "late-random", LATE_RANDOM)
    for seats in (("exit7", "late-random"), ("late-random", "exit7")):
        done = await match(running, *seats)
        assert_lost_to(done, "exit7", "late-random")
        events = (await running.http.get(f"/api/matches/{done['id']}/events")).text
        kinds = [json.loads(line)["kind"] for line in events.splitlines()]
        assert "welcome" not in kinds and "result" in kinds, kinds  # it never started


async def test_two_bots_that_cannot_start_both_lose_and_no_rating_calls_it_a_draw(
        running: Running) -> None:
    await register(running.http, "exit7", EXIT_7)
    await register(running.http, "exit7-too", EXIT_7)
    done = await match(running, "exit7", "exit7-too")
    seats = seats_by_name(done)
    assert [seats[n]["outcome"] for n in ("exit7", "exit7-too")] == ["loss", "loss"], done
    assert {seats[n]["failure"] for n in seats} == {"failed_to_start"}, done
    assert done["result"]["winner"] is None

    ladder = LadderStore(running.store)
    rated = await asyncio.to_thread(ladder.rate_match, done["id"], rate)
    assert rated.rated and {c.outcome for c in rated.changes} == {"loss"}
    # Each is rated as having lost to the other, as a loss to an equal moves a rating.
    assert all(c.mu < c.mu_before for c in rated.changes), rated.changes
    standings = await asyncio.to_thread(ladder.standings, BLOKUS)
    lines = {s.name: s for s in standings}
    for name in ("exit7", "exit7-too"):
        assert (lines[name].wins, lines[name].draws, lines[name].losses) == (0, 0, 1)
        assert lines[name].failures == {"failed_to_start": 1}
    table = await asyncio.to_thread(ladder.crosstable, BLOKUS)
    ids = {s.name: s.bot_id for s in standings}
    assert table[ids["exit7"]][ids["exit7-too"]] == (0.0, 1)
    assert table[ids["exit7-too"]][ids["exit7"]] == (0.0, 1)

