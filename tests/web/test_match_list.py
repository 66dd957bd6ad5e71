"""The match list in a real browser (issue #30): with thousands of stored matches it shows
the live match first, then a page of recent ones with an "older matches" button; each entry
says who won (or "draw") with the scores, when it started and how long it took; the filter
above it (game, player, status) asks the server, so the oldest stored match, far beyond the
pages loaded, is found by its player's name.

The stored matches are written into the store directly (`fill_store`), the live one is
played by in-process players. Screenshots land in tests/web/artifacts/ (gitignored)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server.spectate.stored import LOBBY_PAGE
from tests.server.ladder.conftest import BLOKUS, serving
from tests.server.spectate.spectate_kit import DEMO, blokus_match, fill_store
from tests.web.conftest import ARTIFACTS

WAIT_MS = 30_000
STORED = 3000


async def test_the_demo_match_stays_findable_among_thousands(page: Any,
                                                             tmp_path: Path) -> None:
    async with serving(tmp_path) as s:
        demo = await asyncio.to_thread(fill_store, s.store, STORED)
        live, _ = blokus_match(s.server.lobby, delay=0.2, seed=5)
        await page.goto(f"http://127.0.0.1:{s.server.http_port}/")
        items = page.locator("#matches li[data-id]")
        await page.wait_for_selector(f"#matches li[data-id='{live.id}']", timeout=WAIT_MS)
        await page.wait_for_selector("#list-filter select[name=game] option[value=hearth]",
                                     state="attached", timeout=WAIT_MS)
        # Live first, then a page of the newest stored ones; the demo is far below.
        assert await items.first.get_attribute("data-id") == live.id
        assert int(await page.get_attribute("#matches", "data-total") or 0) >= STORED
        # (The live match is stored too: the first stored page lists it once, as live.)
        first = await items.count()
        assert first in (LOBBY_PAGE, LOBBY_PAGE + 1)
        assert await page.locator(f"#matches li[data-id='{demo}']").count() == 0
        entry = page.locator("#matches li[data-id]:not([data-status=running])"
                             ":not([data-status=waiting])").first
        assert " · " in await entry.locator(".outcome-line").inner_text()  # result · scores
        assert "1:00" in await entry.locator(".when").inner_text()  # played for a minute
        await page.click("#matches [data-action=older]")
        await page.wait_for_function(f"document.querySelectorAll('#matches li[data-id]')"
                                     f".length === {first + LOBBY_PAGE}", timeout=WAIT_MS)
        await page.screenshot(path=tmp_path / "match-list.png", full_page=True)
        await page.screenshot(path=ARTIFACTS / "match-list.png", full_page=True)

        # The filter asks the server: the demo match, by its player's name.
        await page.fill("#list-filter input[name=bot]", DEMO[0])
        await page.wait_for_selector(f"#matches[data-answered='|{DEMO[0]}|']", timeout=WAIT_MS)
        found = page.locator(f"#matches li[data-id='{demo}']")
        assert await found.is_visible()
        assert await items.count() == 1 and await page.get_attribute(
            "#matches", "data-total") == "1"
        assert await found.locator(".outcome-line").inner_text() == \
            f"winner: {DEMO[1]} · 17 : 42"
        shown = await found.locator(".when").inner_text()
        assert shown.startswith("started ") and shown.endswith(" · 1:35")
        assert DEMO[0] in await found.inner_text() and DEMO[1] in await found.inner_text()
        await page.screenshot(path=tmp_path / "match-list-filtered.png", full_page=True)
        await page.screenshot(path=ARTIFACTS / "match-list-filtered.png", full_page=True)

        # With a status and a game too; another game or status hides it.
        await page.select_option("#list-filter select[name=status]", "finished")
        await page.wait_for_selector(f"#matches[data-answered='|{DEMO[0]}|finished']",
                                     timeout=WAIT_MS)
        assert await found.is_visible()
        await page.select_option("#list-filter select[name=game]", "hearth")
        await page.wait_for_selector(f"#matches[data-answered='hearth|{DEMO[0]}|finished']",
                                     timeout=WAIT_MS)
        assert await items.count() == 0
        await page.select_option("#list-filter select[name=game]", BLOKUS)
        await page.wait_for_selector(f"#matches[data-answered='{BLOKUS}|{DEMO[0]}|finished']",
                                     timeout=WAIT_MS)
        assert await found.is_visible()

        # Running matches only: the live one, however many are stored.
        await page.fill("#list-filter input[name=bot]", "")
        await page.select_option("#list-filter select[name=status]", "running")
        await page.wait_for_selector(f"#matches[data-answered='{BLOKUS}||running']",
                                     timeout=WAIT_MS)
        assert [await i.get_attribute("data-id") for i in await items.all()] == [live.id]
        assert await page.locator("#matches [data-action=older]").count() == 0
        # The entry opens the match.
        await page.click(f"#matches li[data-id='{live.id}'] a")
        await page.wait_for_selector(f".match[data-match='{live.id}']", timeout=WAIT_MS)
        live.cancel()
