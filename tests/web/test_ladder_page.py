"""The ladder page in a real browser: reached from the match list, it shows a game's
standings and a crosstable that fills in as the ladder's games finish (no reload), a tab per
game, and a bot's recent matches that open in the match viewer.

Screenshots land in tests/web/artifacts/ (gitignored)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.ladder.conftest import (
    API_BOTS,
    AUTH,
    BLOKUS,
    HEARTH,
    REPO,
    serving,
    wait_until,
)
from tests.web.conftest import ARTIFACTS

WAIT_MS = 60_000
BLOKUS_BOTS = ("greedy", "random", "crasher")


async def cells(page: Any) -> dict[tuple[str, str], int]:
    """The crosstable as the page shows it: games per (row, column)."""
    found: dict[tuple[str, str], int] = {}
    for cell in await page.locator("#crosstable td[data-row]").all():
        row, col = await cell.get_attribute("data-row"), await cell.get_attribute("data-col")
        found[(row, col)] = int(await cell.get_attribute("data-games"))
    return found


@pytest.mark.timeout(420)
async def test_the_ladder_page_fills_in_as_games_finish(page: Any, tmp_path: Path) -> None:
    async with serving(tmp_path) as s:
        client = s.http
        # A third Blokus bot that crashes mid-game: a failure category to show.
        crasher = await client.post("/api/bots", headers=AUTH, json={
            "name": "crasher", "game": BLOKUS, "workdir": str(REPO),
            "command": [sys.executable, str(API_BOTS / "crash_bot.py")]})
        assert crasher.status_code == 201, crasher.text

        await page.goto(f"http://127.0.0.1:{s.server.http_port}/")
        await page.click("#ladder-link")  # linked from the match list
        await page.wait_for_selector("#tabs .tab.current", timeout=WAIT_MS)
        assert page.url.endswith("/ladder.html")
        await page.click(f"#tabs .tab[data-game={BLOKUS}]")
        await page.wait_for_selector("#standings tr[data-bot=crasher]", timeout=WAIT_MS)
        assert page.url.endswith(f"/ladder.html?game={BLOKUS}")
        tabs = [await t.get_attribute("data-game") for t in
                await page.locator("#tabs .tab").all()]
        assert sorted(tabs) == sorted([BLOKUS, HEARTH])
        assert await page.get_attribute("#tabs .tab.current", "data-game") == BLOKUS
        empty = await cells(page)
        assert len(empty) == 6 and set(empty.values()) == {0}  # 3 bots, the diagonal aside
        assert await page.get_attribute("#summary", "data-running") == "false"

        for game in (BLOKUS, HEARTH):
            started = await client.post(f"/api/ladder/{game}/start", headers=AUTH)
            assert started.status_code == 200, started.text
        await page.wait_for_selector("#summary[data-running=true]", timeout=WAIT_MS)
        await page.wait_for_selector("#crosstable td[data-games]:not([data-games='0'])",
                                     timeout=WAIT_MS * 2)
        first = sum((await cells(page)).values())
        assert first >= 2  # both sides of one pairing
        await page.wait_for_function(
            "[...document.querySelectorAll('#crosstable td[data-games]')]"
            f".reduce((n, td) => n + Number(td.dataset.games), 0) > {first + 2}",
            timeout=WAIT_MS * 3)  # more games: the table fills in without a reload
        await page.wait_for_selector("#standings tr[data-bot=crasher] .fail", timeout=WAIT_MS * 2)
        await page.screenshot(path=ARTIFACTS / "ladder-live.png", full_page=True)

        for game in (BLOKUS, HEARTH):
            assert (await client.post(f"/api/ladder/{game}/stop", headers=AUTH)).is_success

        async def settled() -> dict[str, Any] | None:
            state: dict[str, Any] = (await client.get(f"/api/ladder/{BLOKUS}")).json()
            return state if state["live"] == 0 else None

        state = await wait_until(settled, 120, "the last Blokus legs rated")
        await page.wait_for_selector(f"#summary[data-rated='{state['rated']}']"
                                     "[data-running=false]", timeout=WAIT_MS)
        # The page shows what the API says: records, failures and the crosstable.
        for line in state["standings"]:
            row = page.locator(f"#standings tr[data-bot='{line['bot']}']")
            assert await row.get_attribute("data-games") == str(line["games"])
            text = await row.inner_text()
            assert f"{line['rating']:.2f}" in text
            # The batch Elo beside it: the API's figures, "—" for a bot without games.
            elo = row.locator("td.elo")
            if line["elo"] is None:
                assert await elo.inner_text() == "—", line
            else:
                assert float(await elo.get_attribute("data-elo")) == line["elo"]
                assert float(await elo.get_attribute("data-low")) == line["elo_low"]
                assert float(await elo.get_attribute("data-high")) == line["elo_high"]
                assert " ± " in await elo.inner_text()
            for kind, n in line["failures"].items():
                assert await row.locator(f".fail[data-kind={kind}]").inner_text() == \
                    f"{kind} {n}"
        assert [await r.get_attribute("data-bot") for r in
                await page.locator("#standings tbody tr").all()] == \
            [line["bot"] for line in state["standings"]]
        assert "Elo (95 %)" in await page.locator("#standings thead").inner_text()
        assert any(line["elo"] is not None for line in state["standings"])
        cross = (await client.get(f"/api/ladder/{BLOKUS}/crosstable")).json()
        expected = {(r["bot"], c["opponent"]): c["games"] for r in cross["rows"]
                    for c in r["results"]}
        shown = await cells(page)
        assert {k: v for k, v in shown.items() if v} == expected
        await page.screenshot(path=ARTIFACTS / "ladder-blokus.png", full_page=True)

        # A bot's recent matches, each a link to the match viewer.
        await page.click("#standings tr[data-bot=greedy] a")
        await page.wait_for_selector("#recent-list li a", timeout=WAIT_MS)
        assert "bot=greedy" in page.url
        assert await page.locator("#recent-list li").count() >= min(
            10, next(x["games"] for x in state["standings"] if x["bot"] == "greedy"))
        await page.screenshot(path=ARTIFACTS / "ladder-recent.png", full_page=True)
        match_id = await page.get_attribute("#recent-list li:first-child", "data-match")
        await page.click("#recent-list li:first-child a")
        await page.wait_for_selector("#board", timeout=WAIT_MS)
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        assert f"match={match_id}" in page.url

        # The other game's tab.
        await page.go_back()
        await page.click(f"#tabs .tab[data-game={HEARTH}]")
        await page.wait_for_selector("#standings tr[data-bot=hearth-greedy]", timeout=WAIT_MS)
        assert f"game={HEARTH}" in page.url and "bot=" not in page.url
        await page.wait_for_selector("#recent", state="attached")
        assert await page.locator("#recent-list").count() == 0
        await page.screenshot(path=ARTIFACTS / "ladder-hearth.png", full_page=True)
