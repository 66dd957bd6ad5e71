"""The viewer in a real browser: a live Blokus board, a Hearth replay, the live match list.

Screenshots land in tests/web/artifacts/ (gitignored)."""

from __future__ import annotations

import re
from typing import Any

from tests.server.spectate.spectate_kit import blokus_match, finished, hearth_match, site
from tests.web.conftest import ARTIFACTS

WAIT_MS = 30_000


def http(port: int, query: str = "") -> str:
    return f"http://127.0.0.1:{port}/{query}"


async def filled(page: Any) -> int:
    return int(await page.get_attribute("#board", "data-filled"))


async def test_a_live_blokus_board_updates_as_moves_happen(page: Any) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.08)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#board .B", timeout=WAIT_MS)
        before = await filled(page)
        await page.wait_for_function(
            f"Number(document.querySelector('#board').dataset.filled) > {before + 8}",
            timeout=WAIT_MS)
        assert await page.locator("#board .last").count() > 0
        assert await page.locator(".colour.turn").count() == 1
        # The last move's think time, beside it: at least the bot's 80 ms sleep.
        think = page.locator("#turn #think")
        assert int(await think.get_attribute("data-ms")) >= 70
        assert "ms" in await think.inner_text() or " s" in await think.inner_text()
        await page.screenshot(path=ARTIFACTS / "blokus-live.png", full_page=True)
        await page.wait_for_selector("#result", timeout=60_000)
        await finished(room)
        assert room.result is not None
        assert room.result.reason in await page.inner_text("#result")
        final = room.game.state  # type: ignore[attr-defined]
        assert await filled(page) == len(final.fields())
        await page.screenshot(path=ARTIFACTS / "blokus-finished.png", full_page=True)


async def test_a_finished_hearth_match_replays_to_its_final_board(page: Any) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, seed=5)
        await finished(room)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        await page.click("[data-action=first]")
        assert await page.locator("#result").count() == 0
        await page.screenshot(path=ARTIFACTS / "hearth-start.png", full_page=True)
        for _ in range(30):
            await page.click("[data-action=forward]")
        assert "seq=" in page.url  # a shareable URL per move
        shared = page.url
        await page.select_option("select[aria-label=speed]", "10")
        await page.click("[data-action=play]")
        await page.wait_for_timeout(500)
        await page.click("[data-action=last]")
        await page.wait_for_selector("#result")
        engine = room.game.state  # type: ignore[attr-defined]
        for q in (1, 2):
            seen = engine.observation(q)["you"]
            board = page.locator(f"[data-board='{q}'] .minion")
            assert await board.count() == len(seen["board"])
            hand = page.locator(f"[data-hand='{q}'] .card")
            assert await hand.count() == len(seen["hand"])
        assert await page.locator(".card.back").count() == 0  # over: both hands shown
        await page.screenshot(path=ARTIFACTS / "hearth-final.png", full_page=True)
        # The shared URL opens the same move.
        await page.goto(shared)
        await page.wait_for_selector("[data-hand='1']")
        assert "seq=" in page.url and await page.locator("#result").count() == 0


async def test_a_live_hearth_match_hides_the_hands(page: Any) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.2, seed=2)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("[data-hand='1'] .card", timeout=WAIT_MS)
        assert await page.locator(".card.back").count() > 0
        assert await page.locator(".card:not(.back)").count() == 0
        await page.screenshot(path=ARTIFACTS / "hearth-live.png", full_page=True)


async def test_a_live_blokus_match_shows_the_think_time_of_the_last_move(page: Any) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.25)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#turn #think", timeout=WAIT_MS)
        # The view is rebuilt on every frame: read the number, its text and the move
        # in one step, or they may belong to two different moves.
        ms, text, turn = await page.evaluate("""() => {
            const think = document.querySelector('#turn #think');
            return [Number(think.dataset.ms), think.innerText,
                    document.querySelector('#turn').innerText];
        }""")
        # A second or more (a loaded machine) reads "thought 1.02 s".
        assert ms >= 240 and (text == f"thought {ms} ms" if ms < 1000
                              else re.fullmatch(r"thought \d+\.\d\d? s", text)), (ms, text)
        assert "placed" in turn
        await page.wait_for_function(  # it follows the moves
            f"document.querySelector('#think')?.dataset.ms !== '{ms}'", timeout=WAIT_MS)
        await page.screenshot(path=ARTIFACTS / "blokus-think.png", full_page=True)


async def test_a_hearth_secret_shows_as_a_question_mark_to_a_neutral_spectator(
        page: Any) -> None:
    from tests.server.spectate.test_ws_spectate import _add_secret

    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.3, seed=2)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("[data-hand='1'] .card", timeout=WAIT_MS)
        _add_secret(room.game.state, 2, "Mirror Entity")  # type: ignore[attr-defined]
        await page.wait_for_selector("[data-secrets='2'] .secret.hidden", timeout=WAIT_MS)
        assert await page.inner_text("[data-secrets='2'] .secret") == "?"
        assert "Mirror Entity" not in await page.content()
        await page.screenshot(path=ARTIFACTS / "hearth-secret-neutral.png", full_page=True)


async def test_the_match_list_shows_a_new_match_without_a_reload(page: Any) -> None:
    async with site() as s:
        await page.goto(http(s.port))
        await page.wait_for_selector("#conn:has-text('connected')", timeout=WAIT_MS)
        room, _ = blokus_match(s.lobby, delay=0.05)
        await page.wait_for_selector(f"li[data-id='{room.id}']", timeout=WAIT_MS)
        await page.wait_for_selector(f"li[data-id='{room.id}'][data-status=running]",
                                     timeout=WAIT_MS)
        await page.screenshot(path=ARTIFACTS / "match-list.png", full_page=True)
        await page.click(f"li[data-id='{room.id}'] a")
        await page.wait_for_selector("#board", timeout=WAIT_MS)
        assert f"match={room.id}" in page.url


async def test_a_stored_match_replays_after_a_restart(page: Any, tmp_path: Any) -> None:
    from tests.server.api.conftest import start, stop

    server, client, store, _ = await start(tmp_path)
    try:
        room, _ = blokus_match(server.lobby)
        await finished(room)
        assert room.result is not None
        reason = room.result.reason
        fields = len(room.game.state.fields())  # type: ignore[attr-defined]
    finally:
        await stop(server, client, store)

    server, client, store, _ = await start(tmp_path)  # the same database, nothing in memory
    try:
        await page.goto(http(server.http_port))
        item = f"li[data-id='{room.id}'][data-status=finished]"
        await page.wait_for_selector(item, timeout=WAIT_MS)  # listed from the database
        await page.screenshot(path=ARTIFACTS / "stored-list.png", full_page=True)
        await page.click(f"{item} a")
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        assert reason in await page.inner_text("#result")
        assert await filled(page) == fields
        await page.click("[data-action=first]")
        assert await filled(page) < fields and await page.locator("#result").count() == 0
        await page.select_option("select[aria-label=speed]", "10")
        await page.click("[data-action=play]")
        await page.wait_for_selector("#result", timeout=60_000)  # played to the end
        assert await filled(page) == fields
        await page.screenshot(path=ARTIFACTS / "stored-replay-final.png", full_page=True)
    finally:
        await stop(server, client, store)
