"""The ladder page's rating charts and its admin buttons in a real browser (issue #30): each
bot's rating after each of its games as a small inline SVG (the page asks nothing of any
other host), and with the admin token a start and a stop button that change the state shown.

The rated games are written into the store directly (`finish`), so the charts' figures are
known without playing. Screenshots land in tests/web/artifacts/ (gitignored)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server.store.ladder import LadderStore
from tests.server.ladder.conftest import BLOKUS, TOKEN, serving
from tests.server.ladder.test_ladder_batch import finish
from tests.web.conftest import ARTIFACTS

WAIT_MS = 30_000


async def test_each_bot_has_its_rating_history_as_an_inline_chart(page: Any,
                                                                   tmp_path: Path) -> None:
    async with serving(tmp_path) as s:
        store = s.store
        ladder = LadderStore(store)
        ids = [store.create_bot(name, BLOKUS, ["true"]).id for name in ("up", "down")]
        up, down = ids
        assert up is not None and down is not None

        def play() -> None:
            for outcome in ["win", "win", "draw", "win", "loss", "win", "win"]:
                finish(store, ladder, up, down, outcome)

        await asyncio.to_thread(play)
        base = f"127.0.0.1:{s.server.http_port}"
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.on("websocket", lambda ws: asked.append(ws.url))
        await page.goto(f"http://{base}/ladder.html?game={BLOKUS}")
        chart = page.locator("#standings tr[data-bot=up] td.history[data-points='8'] svg")
        await chart.wait_for(timeout=WAIT_MS)
        assert await chart.is_visible()
        history = (await s.http.get(f"/api/ladder/{BLOKUS}/history")).json()
        lines = {b["bot"]: b for b in history["bots"]}
        for name in ("up", "down"):
            cell = page.locator(f"#standings tr[data-bot={name}] td.history")
            points = await cell.locator("polyline").get_attribute("points")
            assert points is not None and len(points.split()) == 8  # the start and 7 games
            assert float(await cell.get_attribute("data-last") or "nan") == \
                lines[name]["points"][-1]["rating"]
            assert "over games 0–7" in (await cell.locator("title").text_content() or "")
        # One scale for every bot: the winner ends higher (smaller y) than the loser.
        ends = {}
        for name in ("up", "down"):
            dot = page.locator(f"#standings tr[data-bot={name}] circle.last")
            ends[name] = float(await dot.get_attribute("cy") or "nan")
        assert ends["up"] < ends["down"]
        # A bot without games says so instead of drawing.
        idle = page.locator("#standings tr[data-bot=greedy] td.history[data-points='0']")
        assert "no games yet" in await idle.inner_text()
        box = await chart.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 10
        await page.screenshot(path=tmp_path / "ladder-chart.png", full_page=True)
        await page.screenshot(path=ARTIFACTS / "ladder-chart.png", full_page=True)
        assert asked and all(url.split("://", 1)[1].startswith(base + "/") for url in asked), \
            asked  # nothing from any other host: no chart library, no font, no CDN
        # No token, no buttons.
        assert await page.locator("#ladder-admin button").count() == 0


async def test_the_admin_starts_and_stops_a_ladder_from_the_page(page: Any,
                                                                  tmp_path: Path) -> None:
    async with serving(tmp_path) as s:
        sent: list[tuple[str, str, str | None]] = []
        page.on("request", lambda r: sent.append((r.method, r.url, r.headers.get("authorization"))))
        await page.goto(f"http://127.0.0.1:{s.server.http_port}/ladder.html?token={TOKEN}"
                        f"&game={BLOKUS}")
        await page.wait_for_selector("#summary[data-running=false]", timeout=WAIT_MS)
        start, stop = page.locator("#ladder-start"), page.locator("#ladder-stop")
        assert await start.is_visible() and await start.is_enabled()
        assert await stop.is_disabled()
        await start.click()
        await page.wait_for_selector("#summary[data-running=true]", timeout=WAIT_MS)
        await page.wait_for_selector("#ladder-stop:enabled", timeout=WAIT_MS)
        assert await start.is_disabled()
        assert (await s.http.get(f"/api/ladder/{BLOKUS}")).json()["running"] is True
        assert "running" in await page.locator("#summary").inner_text()
        await page.wait_for_selector(f"#tabs .tab[data-game={BLOKUS}] .dot", timeout=WAIT_MS)
        await page.screenshot(path=tmp_path / "ladder-started.png", full_page=True)
        await page.screenshot(path=ARTIFACTS / "ladder-started.png", full_page=True)
        await stop.click()
        await page.wait_for_selector("#summary[data-running=false]", timeout=WAIT_MS)
        await page.wait_for_selector("#ladder-start:enabled", timeout=WAIT_MS)
        assert await page.locator("#ladder-admin").is_visible()
        assert (await s.http.get(f"/api/ladder/{BLOKUS}")).json()["running"] is False
        posts = [(url, auth) for method, url, auth in sent if method == "POST"]
        assert [url.rsplit("/", 1)[1] for url, _ in posts] == ["start", "stop"]
        assert all(auth == f"Bearer {TOKEN}" for _, auth in posts)
        assert TOKEN not in page.url
