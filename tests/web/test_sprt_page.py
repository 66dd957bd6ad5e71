"""The sequential tests page in a real browser (issue #26): reached from the match list, it
lists a test started over the API, draws its LLR over the games (one polyline point per
`history` entry, the two bounds and the zero line), prints the figures as `gauntlet sprt`
does and follows the test to "H1 accepted" without a reload. With the admin token typed
in, its form starts a second test that cannot decide soon and its Stop button stops it.
Every request the page makes goes to the server.

Screenshots land in tests/web/artifacts/ (gitignored)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from tests.server.ladder.conftest import AUTH, BLOKUS, TOKEN, serving
from tests.web.conftest import ARTIFACTS

WAIT_MS = 60_000


def _pm(value: float, ci: list[float]) -> str:
    return f"{value:.2f} +/- {(ci[1] - ci[0]) / 2:.2f}"


def expected_lines(t: dict[str, Any]) -> dict[str, str]:
    """The figures block the page should print for the API's test `t`: the lines of
    `gauntlet sprt` (server/commands/sprt.py), from the API's own figures."""
    lines = {
        "llr": f"LLR: {t['llr']:.2f} ({t['progress']:.1f}%) ({t['lower']:.2f}, "
               f"{t['upper']:.2f}) [{t['elo0']:.2f}, {t['elo1']:.2f}]",
        "ptnml": f"Ptnml(0-2): [{', '.join(str(c) for c in t['pentanomial'])}], "
                 f"pairs: {t['pairs']}, games: {t['games']}",
        "wdl": f"W: {t['wins']}, D: {t['draws']}, L: {t['losses']}",
        "left": f"Pairs left out: {t['incomplete']} incomplete, {t['cancelled']} cancelled"
                f" · playing: {t['playing']}",
    }
    if t["elo"] is not None:
        lines["elo"] = (f"Elo: {_pm(t['elo'], t['elo_ci'])}, nElo: {_pm(t['nelo'], t['nelo_ci'])}"
                        f", LOS: {100 * t['los']:.2f} %")
    if t["stopped_elo"] is not None:
        lo, hi = t["stopped_elo_ci"]
        lines["stopped"] = (f"Elo (median-unbiased, the test stopped): {t['stopped_elo']:.2f} "
                            f"[{lo:.2f}, {hi:.2f}]")
    if t["reason"]:
        lines["reason"] = f"Reason: {t['reason']}"
    return lines


async def shown_lines(page: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in await page.locator("#figures [data-line]").all():
        found[await line.get_attribute("data-line")] = await line.inner_text()
    return found


async def figures_match(page: Any, expected: dict[str, str]) -> None:
    """Wait until the figures block shows `expected` (a refresh may be under way), then
    compare, so that a mismatch fails with both sides."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    with suppress(PlaywrightTimeout):
        await page.wait_for_function(
            "want => Object.entries(want).every(([key, text]) => document.querySelector("
            "`#figures [data-line=${key}]`)?.textContent === text)", arg=expected,
            timeout=WAIT_MS)
    shown = await shown_lines(page)
    assert {key: shown.get(key) for key in expected} == expected


async def line_y(page: Any, selector: str) -> float:
    """The y of a horizontal line of the chart (checked to be horizontal)."""
    y1 = float(await page.get_attribute(selector, "y1"))
    assert float(await page.get_attribute(selector, "y2")) == y1, selector
    return y1


@pytest.mark.timeout(300)
async def test_the_tests_page_follows_a_test_to_h1_and_stops_another(
        page: Any, tmp_path: Path) -> None:
    async with serving(tmp_path) as s:
        client = s.http
        base = f"http://127.0.0.1:{s.server.http_port}"
        asked: list[tuple[str, str | None]] = []  # every URL the page asks for, its auth
        page.on("request", lambda r: asked.append((r.url, r.headers.get("authorization"))))
        page.on("websocket", lambda ws: asked.append((ws.url, None)))

        # A second random Blokus bot: random against random cannot decide soon.
        bots = (await client.get("/api/bots", params={"game": BLOKUS}, headers=AUTH)).json()
        random_bot = next(b for b in bots if b["name"] == "random")
        other = await client.post("/api/bots", headers=AUTH, json={
            "name": "random-2", "game": BLOKUS, "command": random_bot["command"],
            "workdir": random_bot["workdir"], "env": random_bot["env"]})
        assert other.status_code == 201, other.text
        # greedy against random with this seed accepts H1 after 34 games.
        created = await client.post("/api/tests", headers=AUTH, json={
            "game": BLOKUS, "a": "greedy", "b": "random", "elo0": 0, "elo1": 50, "seed": 3})
        assert created.status_code == 201, created.text
        first = created.json()["id"]
        row = f"#tests tr[data-test='{first}']"

        await page.goto(f"{base}/")
        await page.click("#tests-link")  # linked from the match list
        await page.wait_for_selector(row, timeout=WAIT_MS)
        assert page.url.endswith("/tests.html")
        assert "greedy vs random" in await page.locator(row).inner_text()
        await page.wait_for_selector(f"{row}.current", timeout=WAIT_MS)  # the newest, picked
        await page.wait_for_selector(f"#detail[data-test='{first}'] #chart polyline.llr",
                                     timeout=WAIT_MS)
        # No token: no Stop button, no form.
        assert await page.locator("#stop").count() == 0
        assert await page.locator("#start-section").is_hidden()

        # Running, it is read again: games come in and the curve grows without a reload.
        await page.wait_for_function(
            "document.querySelector('#chart polyline.llr').points.numberOfItems > 2",
            timeout=WAIT_MS)
        await page.wait_for_selector(f"{row}[data-status=h1]", timeout=WAIT_MS * 2)
        await page.wait_for_selector("#detail[data-status=h1]", timeout=WAIT_MS)
        test = (await client.get(f"/api/tests/{first}")).json()
        assert test["status"] == "h1" and test["decided_at"] == test["games"], test
        await page.wait_for_selector(f"#detail[data-games='{test['games']}']", timeout=WAIT_MS)
        await page.screenshot(path=ARTIFACTS / "sprt-h1.png", full_page=True)

        # The list: status, LLR with bounds, progress, games, Elo ± half its interval.
        names = {g["id"]: g["name"] for g in (await client.get("/games.json")).json()}
        cells = [await c.inner_text() for c in await page.locator(f"{row} td").all()]
        half = (test["elo_ci"][1] - test["elo_ci"][0]) / 2
        assert cells == [
            str(first), "greedy vs random", names[BLOKUS], "H1 accepted",
            f"{test['llr']:.2f} ({test['lower']:.2f}, {test['upper']:.2f})",
            f"{test['progress']:.1f}%", str(test["games"]), f"{test['elo']:.1f} ± {half:.1f}"]
        # The chart: one point per history entry, the bounds and zero as horizontal lines,
        # H1's above zero above H0's, the axes named.
        chart = "#chart"
        points = await page.eval_on_selector(f"{chart} polyline.llr",
                                             "p => p.points.numberOfItems")
        assert points == len(test["history"]) == test["pairs"] + 1
        upper = await line_y(page, f"{chart} line.bound[data-bound=upper]")
        lower = await line_y(page, f"{chart} line.bound[data-bound=lower]")
        zero = await line_y(page, f"{chart} line.zero")
        assert upper < zero < lower  # SVG's y grows downwards
        assert float(await page.get_attribute(f"{chart} line.bound[data-bound=upper]",
                                              "data-value")) == test["upper"]
        assert float(await page.get_attribute(f"{chart} line.bound[data-bound=lower]",
                                              "data-value")) == test["lower"]
        last_y = await page.eval_on_selector(
            f"{chart} polyline.llr", "p => p.points.getItem(p.points.numberOfItems - 1).y")
        assert last_y <= upper  # the curve ends on or past H1's bound
        titles = await page.locator(f"{chart} .axis-title").all_text_contents()
        assert titles == ["games", "LLR"]
        labels = await page.locator(f"{chart} .bound-label").all_text_contents()
        assert labels == [f"H1 {test['upper']:.2f}", f"H0 {test['lower']:.2f}"]
        # The figures, as `gauntlet sprt` prints them, the median-unbiased Elo included.
        expected = expected_lines(test)
        assert "stopped" in expected and "elo" in expected
        await figures_match(page, expected)
        shown = await shown_lines(page)
        assert shown["status"] == f"Status: H1 accepted after {test['decided_at']} games"
        assert "seed" not in shown["setup"]  # the admin's only

        # The admin: the token typed in (kept in the tab), the form starts a test.
        page.on("dialog", lambda dialog: dialog.accept(TOKEN))
        await page.click("#admin")  # asks for the token, then reloads
        await page.wait_for_selector("#admin:has-text('✓')", timeout=WAIT_MS)
        await page.wait_for_selector("#start-section:not([hidden])", timeout=WAIT_MS)
        await page.wait_for_selector("#detail[data-status=h1] [data-line=setup]",
                                     timeout=WAIT_MS)
        assert ", seed 3" in await page.inner_text("[data-line=setup]")
        assert await page.locator("#stop").is_hidden()  # the test ended: nothing to stop
        await page.select_option("#start-game", BLOKUS)
        await page.wait_for_selector("#start-b option[value=random-2]", state="attached",
                                     timeout=WAIT_MS)
        await page.select_option("#start-a", "random")
        await page.select_option("#start-b", "random-2")
        for name, value in {"elo0": "0", "elo1": "5", "alpha": "0.001", "beta": "0.001",
                            "max_games": "20000"}.items():
            await page.fill(f"#start input[name={name}]", value)
        await page.click("#start-submit")
        await page.wait_for_function(
            f"(d => d.dataset.test && d.dataset.test !== '{first}' && "
            "d.dataset.status === 'running')(document.getElementById('detail'))",
            timeout=WAIT_MS)
        second = int(await page.get_attribute("#detail", "data-test"))
        assert page.url.endswith(f"/tests.html?test={second}")
        started = (await client.get(f"/api/tests/{second}", headers=AUTH)).json()
        assert (started["status"], started["a"], started["b"], started["game"]) == \
            ("running", "random", "random-2", BLOKUS)
        assert (started["elo0"], started["elo1"], started["alpha"], started["beta"],
                started["max_games"]) == (0, 5, 0.001, 0.001, 20000)
        # The server's seed (up to 2^63), digit for digit: more than a double holds.
        await page.wait_for_selector("#detail[data-status=running] [data-line=setup]",
                                     timeout=WAIT_MS)
        assert await page.inner_text("[data-line=setup]") == (
            f"Model: normalized, α 0.001, β 0.001, max games 20000, concurrency 1, "
            f"seed {started['seed']}")
        second_row = f"#tests tr[data-test='{second}']"
        await page.wait_for_selector(f"{second_row}[data-status=running]", timeout=WAIT_MS)
        rows = [await r.get_attribute("data-test")
                for r in await page.locator("#tests tbody tr").all()]
        assert rows == [str(second), str(first)]  # newest first
        await page.wait_for_selector("#detail:not([data-games='0'])", timeout=WAIT_MS)
        await page.screenshot(path=ARTIFACTS / "sprt-running.png", full_page=True)

        # A click on a row picks that test, and back.
        await page.click(f"{row} td:nth-child(2)")
        await page.wait_for_selector(f"#detail[data-test='{first}'][data-status=h1]",
                                     timeout=WAIT_MS)
        await page.wait_for_url(f"**/tests.html?test={first}", timeout=WAIT_MS)
        await page.wait_for_selector(f"{row}.current", timeout=WAIT_MS)
        assert await page.locator("#stop").is_hidden()
        await page.click(f"{second_row} td:nth-child(2)")
        await page.wait_for_selector(f"#detail[data-test='{second}'][data-status=running]",
                                     timeout=WAIT_MS)
        await page.wait_for_url(f"**/tests.html?test={second}", timeout=WAIT_MS)

        # Stop.
        await page.click("#stop")
        await page.wait_for_selector("#detail[data-status=stopped]", timeout=WAIT_MS)
        await page.wait_for_selector(f"{second_row}[data-status=stopped]", timeout=WAIT_MS)
        stopped = (await client.get(f"/api/tests/{second}")).json()
        assert stopped["status"] == "stopped" and stopped["reason"], stopped
        assert stopped["decided_at"] is None and stopped["stopped_elo"] is None
        assert await page.locator("#stop").is_hidden()
        assert await page.inner_text(f"{second_row} td:nth-child(4)") == "stopped"
        await page.wait_for_selector(f"#detail[data-games='{stopped['games']}']",
                                     timeout=WAIT_MS)
        await figures_match(page, expected_lines(stopped))
        assert "reason" in expected_lines(stopped)
        assert await page.inner_text("[data-line=status]") == "Status: stopped"
        assert await page.eval_on_selector("#chart polyline.llr",
                                           "p => p.points.numberOfItems") == \
            len(stopped["history"])
        await page.screenshot(path=ARTIFACTS / "sprt-stopped.png", full_page=True)

        # Nothing but the server was asked; the token went in headers, never in a URL.
        assert asked
        outside = [url for url, _auth in asked
                   if not url.startswith((f"{base}/", f"ws://127.0.0.1:{s.server.http_port}/"))]
        assert not outside, outside
        assert all(TOKEN not in url for url, _auth in asked)
        admin_posts = [url for url, auth in asked
                       if url.startswith(f"{base}/api/tests") and auth == f"Bearer {TOKEN}"]
        assert f"{base}/api/tests/{second}/stop" in admin_posts
