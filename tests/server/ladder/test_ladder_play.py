"""The ladder over the bundled bots: it plays both games, rates every result once, and the
greedy bots come out above the random ones; failing bots are rated and reported."""

from __future__ import annotations

import asyncio
import sys

import pytest

from tests.server.ladder.conftest import (
    API_BOTS,
    AUTH,
    BLOKUS,
    HEARTH,
    REPO,
    Running,
    consistency,
    wait_until,
)

GAMES = 24


def rated(status: dict[str, object]) -> int:
    value = status["rated"]
    assert isinstance(value, int)
    return value


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_the_ladder_ranks_greedy_above_random_in_both_games(running: Running) -> None:
    client = running.http
    for game in (BLOKUS, HEARTH):
        denied = await client.post(f"/api/ladder/{game}/start")
        assert denied.status_code == 401
        started = await client.post(f"/api/ladder/{game}/start", headers=AUTH)
        assert started.status_code == 200, started.text
        assert started.json()["running"] is True

    async def enough() -> bool:
        answers = [(await client.get(f"/api/ladder/{g}")).json() for g in (BLOKUS, HEARTH)]
        return all(rated(a) >= GAMES for a in answers)

    await wait_until(enough, 540, f"{GAMES} rated games of each game", every=1.0)
    for game in (BLOKUS, HEARTH):
        stopped = await client.post(f"/api/ladder/{game}/stop", headers=AUTH)
        assert stopped.json()["running"] is False
    greedy, random = {BLOKUS: ("greedy", "random"), HEARTH: ("hearth-greedy",
                                                             "hearth-random")}.items(), None
    del random
    for game, (good, bad) in greedy:
        # A leg still running when the ladder stopped may finish between two reads: read
        # standings and crosstable until they describe the same games.
        for _ in range(60):
            ladder = (await client.get(f"/api/ladder/{game}")).json()
            cross = (await client.get(f"/api/ladder/{game}/crosstable")).json()
            lines = {s["bot"]: s for s in ladder["standings"]}
            rows = {r["bot"]: {c["opponent"]: c for c in r["results"]} for r in cross["rows"]}
            if rows[good][bad]["games"] == lines[good]["games"]:
                break
            await asyncio.sleep(1.0)
        assert ladder["standings"][0]["bot"] == good, ladder
        assert lines[good]["rating"] > lines[bad]["rating"]
        assert lines[good]["games"] == lines[bad]["games"] >= GAMES
        assert lines[good]["wins"] > lines[good]["losses"]
        assert not lines[good]["failures"] and not lines[bad]["failures"], ladder
        assert ladder["games_per_minute"] > 0
        assert cross["bots"][0] == good
        assert rows[good][bad]["games"] == rows[bad][good]["games"] == lines[good]["games"]
        assert rows[good][bad]["points"] + rows[bad][good]["points"] == lines[good]["games"]
    # Both legs of a round: the same seed, the seats swapped.
    legs = running.store.engine.connect()
    try:
        import sqlalchemy as sa

        pairs = legs.execute(sa.text(
            "SELECT a.seed = b.seed, a.bot_a = b.bot_b AND a.bot_b = b.bot_a "
            "FROM ladder_pairings a JOIN ladder_pairings b ON a.game = b.game "
            "AND a.round = b.round AND a.leg = 0 AND b.leg = 1")).all()
    finally:
        legs.close()
    assert pairs and all(same_seed and swapped for same_seed, swapped in pairs)
    consistency(str(running.store.url.render_as_string(hide_password=False)))


@pytest.mark.timeout(300)
async def test_failing_bots_are_rated_with_their_category(running: Running) -> None:
    client = running.http
    # Registering refuses a program that is not there: "missing" is removed after.
    gone = running.server.config.data_dir / "nonexistent-bot-binary"
    gone.parent.mkdir(parents=True, exist_ok=True)
    gone.write_text("#!/bin/sh\n")
    gone.chmod(0o755)
    for name, argv in (("missing", [str(gone)]),
                       ("crasher", [sys.executable, str(API_BOTS / "crash_bot.py")])):
        created = await client.post("/api/bots", headers=AUTH, json={
            "name": name, "game": BLOKUS, "command": argv, "workdir": str(REPO)})
        assert created.status_code == 201, created.text
    gone.unlink()
    assert (await client.post(f"/api/ladder/{BLOKUS}/start", headers=AUTH)).is_success

    async def played() -> dict[str, dict[str, object]] | None:
        ladder = (await client.get(f"/api/ladder/{BLOKUS}")).json()
        lines = {s["bot"]: s for s in ladder["standings"]}
        crashes = lines["crasher"]["failures"]
        assert isinstance(crashes, dict)
        if all(isinstance(n := lines[b]["games"], int) and n >= 2 for b in lines) \
                and crashes.get("crash"):
            return lines
        return None

    lines = await wait_until(played, 240, "every bot rated twice, a crash", every=1.0)
    assert (await client.post(f"/api/ladder/{BLOKUS}/stop", headers=AUTH)).is_success
    missing, crasher = lines["missing"], lines["crasher"]
    assert missing["failures"] == {"failed_to_start": missing["games"]}, missing
    assert missing["wins"] == 0
    assert crasher["failures"].get("crash", 0) >= 1, crasher  # type: ignore[union-attr]
    assert lines["greedy"]["games"] >= 2 and lines["random"]["games"] >= 2
    assert lines["greedy"]["failures"] == {} and lines["random"]["failures"] == {}


@pytest.mark.timeout(300)
async def test_a_bot_that_cannot_start_ranks_last_without_a_draw(running: Running) -> None:
    """Issue #24, point 1: such a bot scored 30 draws and 12 losses in 42 games and ranked
    near bots that play. Every one of its games is a loss now."""
    client = running.http
    created = await client.post("/api/bots", headers=AUTH, json={
        "name": "exit7", "game": BLOKUS, "command": ["/bin/sh", "-c", "exit 7"]})
    assert created.status_code == 201, created.text
    assert (await client.post(f"/api/ladder/{BLOKUS}/start", headers=AUTH)).is_success

    async def played() -> list[dict[str, object]] | None:
        standings: list[dict[str, object]] = (await client.get(
            f"/api/ladder/{BLOKUS}")).json()["standings"]
        games = [s["games"] for s in standings]
        return standings if all(isinstance(n, int) and n >= 4 for n in games) else None

    await wait_until(played, 240, "four rated games of every bot", every=1.0)
    assert (await client.post(f"/api/ladder/{BLOKUS}/stop", headers=AUTH)).is_success
    # A leg still running when the ladder stopped may finish between two reads: read
    # standings and crosstable until they describe the same games.
    for _ in range(60):
        standings = (await client.get(f"/api/ladder/{BLOKUS}")).json()["standings"]
        cross = (await client.get(f"/api/ladder/{BLOKUS}/crosstable")).json()
        lines = {s["bot"]: s for s in standings}
        rows = {r["bot"]: r["results"] for r in cross["rows"]}
        if sum(c["games"] for c in rows["exit7"]) == lines["exit7"]["games"]:
            break
        await asyncio.sleep(1.0)
    assert standings[-1]["bot"] == "exit7", standings
    broken = lines["exit7"]
    assert (broken["wins"], broken["draws"]) == (0, 0), broken
    assert broken["losses"] == broken["games"] >= 4, broken
    assert broken["failures"] == {"failed_to_start": broken["games"]}, broken
    assert all(c["points"] == 0 for c in rows["exit7"]), rows["exit7"]
    for name in ("greedy", "random"):
        assert lines[name]["failures"] == {}, lines[name]


async def test_the_ladder_api_without_games(running: Running) -> None:
    client = running.http
    assert (await client.get("/api/ladder/chess")).status_code == 404
    assert (await client.post("/api/ladder/chess/start", headers=AUTH)).status_code == 404
    everything = (await client.get("/api/ladder")).json()
    assert {g["game"] for g in everything} == {BLOKUS, HEARTH}
    assert all(not g["running"] for g in everything)
    cross = (await client.get(f"/api/ladder/{BLOKUS}/crosstable")).json()
    assert set(cross["bots"]) == {"greedy", "random"}
