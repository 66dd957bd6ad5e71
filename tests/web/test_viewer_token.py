"""The viewer keeps the admin token out of every URL: it lives in the tab, goes to the
server in a WebSocket subprotocol and in `Authorization`, and an old `?token=` link is cut
from the address bar (issue 24, point 6). Real chromium, a real server."""

from __future__ import annotations

from typing import Any

from tests.server.spectate.spectate_kit import TOKEN, hearth_match, site

WAIT_MS = 30_000


def _watch_urls(page: Any) -> list[str]:
    """Every URL the page asks for: documents, scripts, fetches and WebSockets."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


async def _hands_shown(page: Any) -> None:
    """A live Hearth match as the admin sees it: cards in both hands, no card backs."""
    await page.wait_for_selector("[data-hand='2'] .card:not(.back)", timeout=WAIT_MS)
    await page.wait_for_selector("[data-hand='1'] .card:not(.back)", timeout=WAIT_MS)
    assert await page.locator(".card.back").count() == 0


async def test_the_token_typed_in_shows_the_hands_and_no_url_carries_it(page: Any) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.2, seed=3)
        urls = _watch_urls(page)
        page.on("dialog", lambda dialog: dialog.accept(TOKEN))
        await page.goto(f"http://127.0.0.1:{s.port}/?match={room.id}")
        await page.wait_for_selector("[data-hand='1'] .card", timeout=WAIT_MS)
        assert await page.locator(".card.back").count() > 0  # no token yet
        await page.click("#admin")  # asks for the token, then reloads
        await page.wait_for_selector("#admin:has-text('✓')", timeout=WAIT_MS)
        await _hands_shown(page)
        await page.click("[data-action=back]")  # a shareable URL per move
        share = await page.get_attribute("a.share", "href")
        assert "seq=" in page.url and share is not None
        for url in [*urls, page.url, share]:
            assert TOKEN not in url, url
        room.cancel()


async def test_an_old_token_link_is_cut_from_the_address_and_still_works(page: Any) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.2, seed=4)
        typed = f"http://127.0.0.1:{s.port}/?token={TOKEN}&match={room.id}"
        urls = _watch_urls(page)
        await page.goto(typed)
        await _hands_shown(page)
        assert TOKEN not in page.url and f"match={room.id}" in page.url
        asked = [url for url in urls if url != typed]  # what the page itself asks for
        assert asked and all(TOKEN not in url for url in asked), asked
        links = await page.eval_on_selector_all("a", "all => all.map(a => a.href)")
        assert links and all(TOKEN not in link for link in links), links
        room.cancel()


async def test_the_ladder_page_sends_the_token_in_a_header(page: Any) -> None:
    async with site() as s:
        sent: list[tuple[str, str | None]] = []
        page.on("request", lambda r: sent.append((r.url, r.headers.get("authorization"))))
        await page.goto(f"http://127.0.0.1:{s.port}/ladder.html?token={TOKEN}")
        await page.wait_for_function("document.getElementById('conn').textContent"
                                     ".includes('retrying')", timeout=WAIT_MS)
        api = [(url, auth) for url, auth in sent if "/api/" in url]
        assert api and all(auth == f"Bearer {TOKEN}" for _url, auth in api), api
        assert TOKEN not in page.url
        assert all(TOKEN not in url for url, _auth in api)
