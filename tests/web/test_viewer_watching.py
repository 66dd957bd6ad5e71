"""Watching in a real browser (issue #30): follow live, a paused match says so, the keyboard
steps and jumps, a failed match names the seat that failed and links to its output, a dead
hero shows 0."""

from __future__ import annotations

import random
from typing import Any

from server.rooms import Clocks, SlotRequest
from tests.server.server_testkit import InProcessSeat
from tests.server.spectate.spectate_kit import blokus_match, finished, hearth_match, site
from tests.web.conftest import ARTIFACTS

WAIT_MS = 30_000


def http(port: int, query: str = "") -> str:
    return f"http://127.0.0.1:{port}/{query}"


async def test_follow_live_opens_the_next_live_match_when_the_watched_one_ends(page: Any
                                                                            ) -> None:
    async with site() as s:
        first, _ = blokus_match(s.lobby, delay=0.01)
        await page.goto(http(s.port, f"?match={first.id}&follow=1"))
        await page.wait_for_selector(f".match[data-match='{first.id}']", timeout=WAIT_MS)
        assert await page.is_checked("#follow")
        await finished(first)
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        second, _ = blokus_match(s.lobby, delay=0.2, seed=3)
        await page.wait_for_selector(f".match[data-match='{second.id}']", timeout=WAIT_MS)
        assert f"match={second.id}" in page.url and "follow=1" in page.url
        await page.screenshot(path=ARTIFACTS / "follow-live.png", full_page=True)
        assert (ARTIFACTS / "follow-live.png").stat().st_size > 10_000
        second.cancel()


async def test_without_follow_the_viewer_stays_on_the_finished_match(page: Any) -> None:
    async with site() as s:
        first, _ = blokus_match(s.lobby, delay=0.0)
        await finished(first)
        await page.goto(http(s.port, f"?match={first.id}"))
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        assert not await page.is_checked("#follow")
        second, _ = blokus_match(s.lobby, delay=0.2, seed=3)
        await page.wait_for_selector(f"[data-id='{second.id}']", timeout=WAIT_MS)  # listed
        assert await page.locator(f".match[data-match='{first.id}']").count() == 1
        second.cancel()


async def test_a_paused_match_says_paused_and_the_keyboard_steps(page: Any) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.05)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#board .B", timeout=WAIT_MS)
        room.pause(True)
        await page.wait_for_function(
            "document.querySelector('.title .hint').textContent.includes('paused')",
            timeout=WAIT_MS)
        await page.reload()  # joined while paused: the snapshot says so
        await page.wait_for_function(
            "document.querySelector('.title .hint')?.textContent.includes('paused')",
            timeout=WAIT_MS)
        await page.screenshot(path=ARTIFACTS / "paused.png", full_page=True)
        room.pause(False)
        await finished(room)
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        total = (await page.inner_text(".pos")).split(" / ")[1]
        await page.keyboard.press("Home")
        assert await page.inner_text(".pos") == f"1 / {total}"
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowRight")
        assert await page.inner_text(".pos") == f"3 / {total}"
        await page.keyboard.press("ArrowLeft")
        assert await page.inner_text(".pos") == f"2 / {total}"
        await page.keyboard.press("End")
        assert await page.inner_text(".pos") == f"{total} / {total}"
        await page.keyboard.press("Home")
        await page.keyboard.press(" ")  # plays
        await page.wait_for_function(
            "!document.querySelector('.pos').textContent.startsWith('1 /')", timeout=WAIT_MS)
        await page.keyboard.press(" ")  # pauses
        assert await page.inner_text("[data-action=play]") == "play"


async def test_a_failed_match_names_the_seat_and_links_to_its_output(page: Any) -> None:
    quick = Clocks(soft=0.2, hard=0.4, decision=0.4, turn=2.0)
    async with site(clocks=quick) as s:
        rng = random.Random(0)
        seats = [InProcessSeat(lambda d: rng.choice(d.payload.actions)), InProcessSeat(None)]
        room, codes = s.lobby.prepare("hearth", [SlotRequest("jaina"), SlotRequest("silent")],
                                      pause=False)
        for seat, code in zip(seats, codes, strict=True):
            s.lobby.seated(s.lobby.join_prepared(seat, code, protocol="kettle"))
        await finished(room)
        assert room.result is not None and room.result.violation is not None
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#result.failed", timeout=WAIT_MS)
        text = await page.inner_text("#result")
        assert "silent failed" in text and "timeout" in text and "Draw" not in text
        link = page.locator("#result a.seat-log")
        assert await link.get_attribute("href") == f"/api/matches/{room.id}/seats/1/log"
        await page.screenshot(path=ARTIFACTS / "failed.png", full_page=True)


async def test_a_dead_hero_shows_zero_health(page: Any) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, seed=0)  # the site's first room: a lethal overkill
        await finished(room)
        engine = room.game.state  # type: ignore[attr-defined]
        (dead,) = [p for p in (1, 2) if engine.health(engine.hero[p]) <= 0]
        assert engine.health(engine.hero[dead]) < 0  # overkill: the old viewer showed "♥ -n"
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        hero_hp = page.locator(f".hside[data-player='{dead}'] .hrow .stat.hp").first
        shown = await hero_hp.inner_text()
        assert shown == "♥ 0", shown


async def test_the_current_moves_time_runs_live(page: Any) -> None:
    """Under the title, "this move: N s" counts from the last move while the match is live,
    starts again at each move, and is gone once the match is paused."""
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.8)  # each bot thinks 0.8 s
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#move-clock", timeout=WAIT_MS)
        await page.wait_for_function(
            "Number(document.querySelector('#move-clock').dataset.ms) >= 400", timeout=WAIT_MS)
        seq = await page.inner_text("#seq")
        # The next move: the clock starts again (it reads less than the 400 ms it had).
        await page.wait_for_function(
            f"document.querySelector('#seq').textContent !== {seq!r}"
            " && Number(document.querySelector('#move-clock').dataset.ms) < 400",
            timeout=WAIT_MS)
        assert (await page.inner_text("#move-clock")).startswith("this move: ")
        await page.locator("#move-clock").screenshot(path=ARTIFACTS / "move-clock.png")
        room.pause(True)
        await page.wait_for_function("document.querySelector('#move-clock') === null",
                                     timeout=WAIT_MS)
        room.cancel()
