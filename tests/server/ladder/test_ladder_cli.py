"""`gauntlet ladder start|stop|status` against a real server (HTTP on port 0): the commands
drive the ladder API, and every failure is one `error:` line with a non-zero exit."""

from __future__ import annotations

import asyncio
import doctest
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import server.commands.ladder
from server.cli import app
from tests.server.ladder.conftest import BLOKUS, HEARTH, TOKEN, Running, free_port, wait_until

ENV_KEYS = ("GAUNTLET_ADMIN_TOKEN", "GAUNTLET_DATA_DIR", "GAUNTLET_HOST",
            "GAUNTLET_HTTP_PORT")


async def ladder(*args: str, **env: str) -> Result:
    """`gauntlet ladder ...` in a thread: the server answers on this test's event loop.
    No GAUNTLET_* setting leaks in from the test's environment, only `env`."""
    clean: dict[str, str | None] = dict.fromkeys(ENV_KEYS)
    clean["COLUMNS"] = "200"  # rich's width off a terminal: titles on one line
    clean.update(env)
    return await asyncio.to_thread(CliRunner().invoke, app, ["ladder", *args], env=clean)


def url(running: Running) -> str:
    return f"http://127.0.0.1:{running.server.http_port}"


def one_error(result: Result, code: int = 1) -> str:
    """The failure is exactly one `error:` line on stderr, nothing on stdout, exit `code`."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert result.stdout == "", result.stdout
    return lines[0]


async def running_flags(running: Running) -> dict[str, bool]:
    answer = (await running.http.get("/api/ladder")).json()
    return {g["game"]: g["running"] for g in answer}


@pytest.mark.timeout(300)
async def test_start_status_and_stop_drive_the_ladder(running: Running) -> None:
    started = await ladder("start", BLOKUS, "--url", url(running),
                           GAUNTLET_ADMIN_TOKEN=TOKEN)
    assert started.exit_code == 0, started.output
    assert started.stdout.strip() == f"{BLOKUS}: running"
    assert await running_flags(running) == {BLOKUS: True, HEARTH: False}

    async def rated() -> bool:
        state = (await running.http.get(f"/api/ladder/{BLOKUS}")).json()
        return bool(state["rated"] >= 1)

    await wait_until(rated, 240, "a rated Blokus game", every=0.5)
    # No --url: the address comes from GAUNTLET_HTTP_PORT, as for every client.
    status = await ladder("status", GAUNTLET_HTTP_PORT=str(running.server.http_port))
    assert status.exit_code == 0, status.output
    text = status.stdout
    blokus, hearth = text.index(f"{BLOKUS}: running"), text.index(f"{HEARTH}: stopped")
    blokus_table = text[blokus:hearth] if blokus < hearth else text[blokus:]
    for bot in ("greedy", "random"):
        assert re.search(rf"^ +\d+ +{bot} +-?\d+\.\d\d ", blokus_table, re.M), text
    for bot in ("hearth-greedy", "hearth-random"):
        assert re.search(rf"^ +\d+ +{bot} +-?\d+\.\d\d ", text, re.M), text
    per_minute = re.search(r"(\d+\.\d) games/min", blokus_table)
    assert per_minute is not None and float(per_minute.group(1)) > 0, text
    for column in ("rating", "sigma", "Elo (95 %)", "games"):
        assert column in blokus_table
    # The batch Elo beside openskill: both bots have a rated game, so a figure ± a width.
    for bot in ("greedy", "random"):
        assert re.search(rf"^ +\d+ +{bot} .* [+-]?\d+ ± \d+ ", blokus_table, re.M), text

    # The token from <data dir>/admin-token when the environment has none.
    data = running.server.config.data_dir
    data.mkdir(parents=True, exist_ok=True)
    (data / "admin-token").write_text(TOKEN + "\n", encoding="utf-8")
    stopped = await ladder("stop", "--url", url(running), "--data-dir", str(data))
    assert stopped.exit_code == 0, stopped.output
    assert sorted(stopped.stdout.splitlines()) == [f"{HEARTH}: stopped", f"{BLOKUS}: stopped"]
    assert await running_flags(running) == {BLOKUS: False, HEARTH: False}
    only = await ladder("status", HEARTH, "--url", url(running))
    assert only.exit_code == 0 and BLOKUS not in only.stdout, only.output


async def test_errors_are_one_line_and_a_non_zero_exit(running: Running,
                                                       tmp_path: Path) -> None:
    address = url(running)
    empty = tmp_path / "no-token-here"
    empty.mkdir()
    missing = one_error(await ladder("start", BLOKUS, "--url", address,
                                     "--data-dir", str(empty)))
    assert "GAUNTLET_ADMIN_TOKEN" in missing and str(empty / "admin-token") in missing
    wrong = one_error(await ladder("stop", BLOKUS, "--url", address,
                                   GAUNTLET_ADMIN_TOKEN="not-the-token"))
    assert "401" in wrong and "admin token from GAUNTLET_ADMIN_TOKEN was refused" in wrong
    unknown = one_error(await ladder("start", "chess", "--url", address,
                                     GAUNTLET_ADMIN_TOKEN=TOKEN))
    assert "404" in unknown and "'chess'" in unknown and BLOKUS in unknown
    one_error(await ladder("status", "chess", "--url", address))
    assert await running_flags(running) == {BLOKUS: False, HEARTH: False}

    nobody = f"http://127.0.0.1:{free_port()}"
    for args in (("status",), ("start", BLOKUS), ("stop",)):
        line = one_error(await ladder(*args, "--url", nobody, GAUNTLET_ADMIN_TOKEN=TOKEN))
        assert f"no answer from {nobody}" in line, line
    schemeless = one_error(await ladder("status", "--url", address.removeprefix("http://")))
    assert "no answer from" in schemeless and "http://" in schemeless
    elsewhere = one_error(await ladder("status", "--url", f"{address}/somewhere"))
    assert "404" in elsewhere
    bad = one_error(await ladder("status", GAUNTLET_HTTP_PORT="eighty"), code=2)
    assert "invalid settings" in bad and "GAUNTLET_HTTP_PORT" in bad


def test_the_batch_elo_column_examples() -> None:
    result = doctest.testmod(server.commands.ladder)
    assert result.attempted > 0 and result.failed == 0


async def test_openings_are_shown_set_and_cleared(running: Running) -> None:
    created = await running.http.post("/api/matches", headers={
        "Authorization": f"Bearer {TOKEN}"}, json={"game": BLOKUS, "seats": [
            {"bot": "greedy"}, {"bot": "random"}]})
    match_id = created.json()["id"]

    async def finished() -> bool:
        body = (await running.http.get(f"/api/matches/{match_id}")).json()
        return bool(body["status"] == "finished" and not body["live"])

    await wait_until(finished, 120, "the match", every=0.1)
    address = url(running)
    shown = await ladder("openings", BLOKUS, "--url", address)
    assert shown.exit_code == 0 and shown.stdout == f"{BLOKUS}: every round from the " \
        "game's start\n", shown.output
    made = await ladder("openings", BLOKUS, f"{match_id}:6", f"{match_id}:9", "--url",
                        address, GAUNTLET_ADMIN_TOKEN=TOKEN)
    assert made.exit_code == 0, made.output
    assert made.stdout.splitlines() == [
        f"{BLOKUS}: opening 0: match {match_id} before decision 6",
        f"{BLOKUS}: opening 1: match {match_id} before decision 9"]
    assert [o["turn"] for o in (await running.http.get(f"/api/ladder/{BLOKUS}")).json()[
        "openings"]] == [6, 9]
    past = one_error(await ladder("openings", BLOKUS, f"{match_id}:100000", "--url", address,
                                  GAUNTLET_ADMIN_TOKEN=TOKEN))
    assert "422" in past and "openings[0]: from.turn" in past
    assert "MATCH_ID:TURN" in one_error(await ladder("openings", BLOKUS, "nonsense", "--url",
                                                     address, GAUNTLET_ADMIN_TOKEN=TOKEN), 2)
    cleared = await ladder("openings", BLOKUS, "--clear", "--url", address,
                           GAUNTLET_ADMIN_TOKEN=TOKEN)
    assert cleared.exit_code == 0 and "every round from the game's start" in cleared.stdout
    assert (await running.http.get(f"/api/ladder/{BLOKUS}")).json()["openings"] == []
