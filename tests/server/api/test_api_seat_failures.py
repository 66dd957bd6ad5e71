"""A seat that fails loses and its opponent wins, whatever the timing (issue #24, points 1
and 14a): real bot processes launched by the server, matches made over HTTP, results read
back from the SQLite store and rated by the ladder's store."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from server.ladder.ratings import rate
from server.store.ladder import LadderStore
from tests.server.api.conftest import AUTH, Running, register, wait_settled, wait_status

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
        stored = [json.loads(line) for line in events.splitlines()]
        kinds = [e["kind"] for e in stored]
        assert "welcome" not in kinds and "result" in kinds, kinds  # it never started
        # The bot still connected is told in the official server's words (the stored
        # packet is the one it got): the empty slot left, NOT_CONNECTED; the other wins.
        [xml] = next(e for e in stored if e["kind"] == "result")["payload"]["xml"]
        team = "ONE" if seats[1] == "exit7" else "TWO"
        assert (f'<winner team="{team}" regular="false" reason="exit7 hat das Spiel '
                'verlassen: NOT_CONNECTED"/>') in xml, xml


async def test_two_bots_that_cannot_start_both_lose_and_no_rating_calls_it_a_draw(
        running: Running) -> None:
    await register(running.http, "exit7", EXIT_7)
    await register(running.http, "exit7-too", EXIT_7)
    done = await match(running, "exit7", "exit7-too")
    seats = seats_by_name(done)
    assert [seats[n]["outcome"] for n in ("exit7", "exit7-too")] == ["loss", "loss"], done
    assert {seats[n]["failure"] for n in seats} == {"failed_to_start"}, done
    assert done["result"]["winner"] is None
    events = (await running.http.get(f"/api/matches/{done['id']}/events")).text
    [xml] = next(e for e in map(json.loads, events.splitlines())
                 if e["kind"] == "result")["payload"]["xml"]
    # Official: each empty slot left; nobody wins, every score part is zero.
    assert ('<winner regular="false" reason="Alle Spieler hat das Spiel verlassen: '
            'NOT_CONNECTED"/>') in xml, xml
    assert "<part>2</part>" not in xml

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


async def test_a_hearth_bot_that_cannot_start_loses_too(running: Running) -> None:
    created = await running.http.post("/api/bots", headers=AUTH, json={
        "name": "exit7", "game": "hearth", "command": EXIT_7})
    assert created.status_code == 201, created.text
    for seats in (("exit7", "hearth-random"), ("hearth-random", "exit7")):
        answer = await running.http.post("/api/matches", headers=AUTH, json={
            "game": "hearth", "seats": [{"bot": b} for b in seats]})
        assert answer.status_code == 201, answer.text
        done = await wait_status(running.http, answer.json()["id"],
                                 {"finished", "aborted", "cancelled"})
        assert_lost_to(done, "exit7", "hearth-random")


async def test_a_seat_log_is_served_while_its_file_is_written(running: Running) -> None:
    """Point 14a: after the match the bots get 3 s to exit before their logs are written;
    the log is served all along. This bot plays, then idles for those 3 s."""
    await register(running.http, "lingering", [
        "/bin/sh", "-c", '"$0" -m bots.blokus random "$@"; sleep 30', sys.executable])
    await register(running.http, "exit7", EXIT_7)
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seats": [{"bot": "lingering"}, {"bot": "exit7"}]})
    match_id = created.json()["id"]
    await wait_settled(running.http, match_id)  # the room is gone: only the file is left
    written = running.server.config.data_dir / "seat-logs" / match_id / "0.log"
    answers = []
    async with asyncio.timeout(30):
        while True:
            on_disk = written.exists()
            log = await running.http.get(f"/api/matches/{match_id}/seats/0/log", headers=AUTH)
            answers.append(log.status_code)
            assert log.status_code == 200, (answers, log.text)
            if on_disk:
                break
            await asyncio.sleep(0.05)
    assert "== stdout ==" in log.text and len(answers) > 1
