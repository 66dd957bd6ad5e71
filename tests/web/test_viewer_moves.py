"""The match viewer's move lists, coordinates, legend, admin buttons and clocks (issue #30),
in a real browser (Debian's chromium) against a real server. Every test screenshots the
part it is about and checks that the page asked nothing of any other host."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from typing import Any

from bots.blokus import RandomBot
from bots.blokus.aio import play_async
from games import blokus
from server.rooms import Room
from server.rooms.events import StateChanged
from tests.server.api.conftest import AUTH, TOKEN, start, stop, wait_status
from tests.server.spectate.spectate_kit import blokus_match, finished, hearth_match, site

WAIT_MS = 30_000


def http(port: int, query: str = "") -> str:
    return f"http://127.0.0.1:{port}/{query}"


def local_only(page: Any) -> list[str]:
    """Every URL the page asks for (documents, scripts, fetches, WebSockets)."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def assert_local(urls: list[str], port: int) -> None:
    own = (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/")
    assert urls and all(url.startswith(own) for url in urls), [
        u for u in urls if not u.startswith(own)]


async def opened(page: Any, port: int, room: Any, drawn: str) -> list[str]:
    """The finished match `room` in the viewer, once `drawn` is on the page (its game's
    viewer drew); the requests the page makes from then on (`assert_local`)."""
    await finished(room)
    urls = local_only(page)
    await page.goto(http(port, f"?match={room.id}"))
    await page.wait_for_selector("#result", timeout=WAIT_MS)
    await page.wait_for_selector(drawn, timeout=WAIT_MS)
    return urls


async def shot(page: Any, tmp_path: Path, name: str, selector: str) -> None:
    """A screenshot of the page, and the element the test is about is on it."""
    assert await page.locator(selector).first.is_visible(), selector
    path = tmp_path / name
    await page.screenshot(path=path, full_page=True)
    assert path.stat().st_size > 10_000


async def position(page: Any) -> tuple[int, int]:
    """The scrubber's position (0-based frame index) and the number of frames."""
    shown, total = (await page.inner_text(".pos")).split(" / ")
    return int(shown) - 1, int(total)


def blokus_moves(room: Room) -> list[str]:
    """The room's moves as the list spells them, from its own log."""
    texts = []
    for entry in room.log.entries:
        if not (entry.observers and isinstance(entry.event, StateChanged)):
            continue
        state = entry.event.views.public
        move = state.last_move
        if move is None:
            continue
        # The round the move was made in: the state before it (the entry's own clone).
        before = state.clone()
        before.pop()
        round_ = before.round
        if isinstance(move, blokus.SetMove):
            texts.append(f"R{round_} {move.color} {move.kind} ({move.x},{move.y})")
        else:
            texts.append(f"R{round_} {move.color} passed")
    return texts


async def current_move(page: Any, selector: str) -> tuple[int, str]:
    """The marked entry of a move list: its frame index and its text."""
    mark = page.locator(f"{selector} li.current button")
    assert await mark.count() == 1
    return int(await mark.get_attribute("data-index")), await mark.inner_text()


async def current_in_view(page: Any, selector: str) -> bool:
    """The marked entry lies inside its scrolled list's visible part."""
    return bool(await page.evaluate(
        """(sel) => {
            const list = document.querySelector(sel);
            const mark = list.querySelector('li.current');
            const a = list.getBoundingClientRect(), b = mark.getBoundingClientRect();
            return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
        }""", selector))


async def test_the_blokus_move_list_names_every_move_and_follows_the_scrubber(
        page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.0, seed=2)
        urls = await opened(page, s.port, room, "#moves li")
        expected = blokus_moves(room)
        assert len(expected) > 30
        texts = await page.locator("#moves .move-text").all_inner_texts()
        assert texts == expected
        assert texts[0].startswith("R1 BLUE ") and "(" in texts[0]
        # The end: the last move is marked, and scrolled into the list's view.
        _at, total = await position(page)
        index, _text = await current_move(page, "#moves")
        assert await current_in_view(page, "#moves")
        assert texts[-1] in _text
        # A click shows the position after that move.
        pick = page.locator("#moves li button").nth(9)
        target = int(await pick.get_attribute("data-index"))
        await pick.click()
        assert await position(page) == (target, total)
        index, text = await current_move(page, "#moves")
        assert index == target and text.startswith(expected[9])
        assert "seq=" in page.url
        assert await page.locator("#moves li.future").count() == len(expected) - 10
        # The keyboard and the scrubber move the mark with them.
        await page.keyboard.press("ArrowRight")
        assert (await current_move(page, "#moves"))[1].startswith(expected[10])
        await page.keyboard.press("Home")
        assert await page.locator("#moves li.current").count() == 0  # before the first move
        await page.evaluate("""() => { const r = document.querySelector('input[type=range]');
            r.value = '5'; r.dispatchEvent(new Event('input')); }""")
        assert (await current_move(page, "#moves"))[1].startswith(expected[4])
        await page.keyboard.press("End")
        assert (await current_move(page, "#moves"))[1].startswith(expected[-1])
        assert await current_in_view(page, "#moves")
        await shot(page, tmp_path, "blokus-moves.png", "#moves li.current")
        assert_local(urls, s.port)


async def test_the_blokus_board_carries_its_coordinates(page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.0, seed=1)
        urls = await opened(page, s.port, room, ".coords.x span")
        columns = await page.locator(".coords.x span").all_inner_texts()
        rows = await page.locator(".coords.y span").all_inner_texts()
        assert columns == [str(n) for n in range(20)] and rows == columns
        # Each number lines up with its column or row of squares (x right, y down).
        for n in (0, 7, 19):
            label = await page.locator(".coords.x span").nth(n).bounding_box()
            square = await page.locator("#board > div").nth(n).bounding_box()  # (n, 0)
            assert abs((label["x"] + label["width"] / 2)
                       - (square["x"] + square["width"] / 2)) < 2
            assert label["y"] + label["height"] <= square["y"] + 1
            label = await page.locator(".coords.y span").nth(n).bounding_box()
            square = await page.locator("#board > div").nth(n * 20).bounding_box()  # (0, n)
            assert abs((label["y"] + label["height"] / 2)
                       - (square["y"] + square["height"] / 2)) < 2
            assert label["x"] + label["width"] <= square["x"] + 1
        # A placed square's title names it; it is where the engine has it.
        x, y, color = room.game.state.fields()[0]  # type: ignore[attr-defined]
        square = page.locator("#board > div").nth(y * 20 + x)
        assert await square.get_attribute("title") == f"({x},{y})"
        assert color[0] in (await square.get_attribute("class") or "")
        await shot(page, tmp_path, "blokus-coordinates.png", ".coords.x")
        assert_local(urls, s.port)


async def test_the_hearth_plays_are_clickable_and_follow_the_scrubber(
        page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, seed=5)
        urls = await opened(page, s.port, room, "#ticker li")
        items = page.locator("#ticker li button")
        count = await items.count()
        assert count > 20  # every play of the match, not only the last dozen
        texts = await items.all_inner_texts()
        assert texts[0].startswith("Turn 1")
        assert (await current_move(page, "#ticker"))[1] == texts[-1]
        pick = items.nth(count // 2)
        target = int(await pick.get_attribute("data-index"))
        await pick.click()
        at, _total = await position(page)
        assert at == target
        assert (await current_move(page, "#ticker"))[1] == texts[count // 2]
        # Stepping on: the mark is the latest play the frame shown has.
        for _ in range(3):
            await page.keyboard.press("ArrowRight")
            at, _total = await position(page)
            index, _text = await current_move(page, "#ticker")
            assert index <= at
            later = page.locator("#ticker li.current + li button")
            if await later.count():
                assert int(await later.get_attribute("data-index")) > at
        assert await current_in_view(page, "#ticker")
        await shot(page, tmp_path, "hearth-plays.png", "#ticker li.current")
        assert_local(urls, s.port)


def _add_secret(engine: Any, player: int, name: str) -> int:
    """A synthetic secret (no script: it never triggers) in `player`'s SECRET zone."""
    from games.hearth.carddb import EMPTY_SCRIPT, Card
    from games.hearth.entity import Entity
    from games.hearth.enums import CONTROLLER, T_SPELL, ZONE, GameTag
    from server.games.hearth.spectate import Z_SECRET

    card = Card(id=f"TEST_{name.upper()}", dbf_id=0, name=name, type=T_SPELL, card_class=0,
                cost=3, atk=0, health=0, durability=0, race=0, rarity=0, collectible=False,
                hero_power="", tags={int(GameTag.SECRET): 1}, text="Secret: a test.",
                script=EMPTY_SCRIPT)
    entity_id = max(*engine.ents, 9_999) + 1  # far above the ids the engine hands out
    engine.ents[entity_id] = Entity(entity_id, card, {ZONE: Z_SECRET, CONTROLLER: player})
    return entity_id


def _add_weapon(engine: Any, player: int) -> int:
    """A Fiery War Axe (3 attack, 2 durability) equipped by `player`'s hero."""
    from games.hearth.carddb import load_cards
    from games.hearth.entity import Entity
    from games.hearth.enums import CONTROLLER, Z_PLAY, ZONE

    axe = max(*engine.ents, 9_999) + 1
    engine.ents[axe] = Entity(axe, load_cards()["CS2_106"], {ZONE: Z_PLAY, CONTROLLER: player})
    engine.weapon[player] = axe
    return axe


async def test_the_hearth_legend_weapons_and_secrets(page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.05, seed=4)
        async with asyncio.timeout(30):
            while not room.started:
                await asyncio.sleep(0.01)
        engine = room.game.state  # type: ignore[attr-defined]
        _add_secret(engine, 1, "Counterspell")
        _add_weapon(engine, 2)
        urls = local_only(page)
        await page.goto(http(s.port, f"?match={room.id}"))
        # Live, for a spectator without the token: a "?" only, the weapon with its figures.
        await page.wait_for_selector("[data-secrets='1'] .secret.hidden", timeout=WAIT_MS)
        assert await page.inner_text("[data-secrets='1'] .secret") == "?"
        assert "Counterspell" not in await page.inner_text("#main")
        legend = page.locator("#legend")
        for words in ("taunt", "divine shield", "frozen", "weapon", "secret", "card in hand"):
            assert words in await legend.inner_text(), words
        await shot(page, tmp_path, "hearth-legend-live.png", "#legend")
        await shot(page, tmp_path, "hearth-secret-live.png", "[data-secrets='1']")
        # Over: the secret is named for everybody.
        await finished(room)
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        await page.wait_for_selector("[data-secrets='1'] .secret:not(.hidden)", timeout=WAIT_MS)
        assert await page.inner_text("[data-secrets='1'] .secret") == "Counterspell"
        await shot(page, tmp_path, "hearth-secret-over.png", "[data-secrets='1']")
        # The weapon, with its figures, from the first frame after it was equipped (the
        # hero may have swung it since: the page keeps every frame).
        weapon = page.locator(".hside[data-player='2'] [data-weapon]")
        _at, total = await position(page)
        await page.keyboard.press("Home")
        for _ in range(total):
            if await weapon.count():
                break
            await page.keyboard.press("ArrowRight")
        assert re.fullmatch(r"Fiery War Axe ⚔ 3 durability [12]", await weapon.inner_text())
        await shot(page, tmp_path, "hearth-weapon.png", ".hside[data-player='2'] .weapon")
        assert_local(urls, s.port)


class GatedBot(RandomBot):
    """Answers only while `gate` is set (the test decides when a move may come)."""

    def __init__(self, seed: int, gate: threading.Event) -> None:
        super().__init__(seed)
        self.gate = gate

    def move(self, state: Any) -> Any:
        self.gate.wait(60)
        return super().move(state)


async def frames(page: Any) -> int:
    return (await position(page))[1]


async def test_the_admin_pauses_steps_resumes_and_cancels_from_the_page(
        page: Any, tmp_path: Path) -> None:
    server, client, store, _url = await start(tmp_path)
    gate = threading.Event()
    players: list[asyncio.Task[Any]] = []
    try:
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}]})
        match_id = created.json()["id"]
        players = [asyncio.create_task(play_async(GatedBot(k, gate), "127.0.0.1",
                                                  server.tcp_port, seat["reservation"]))
                   for k, seat in enumerate(created.json()["seats"])]
        await wait_status(client, match_id, {"running"})
        port = server.http_port
        urls = local_only(page)
        page.on("dialog", lambda dialog: dialog.accept())  # "Cancel this match?"
        await page.goto(http(port, f"?token={TOKEN}&match={match_id}"))
        # The game's viewer drew (no redraw replaces a button under the click from here on:
        # the bots are held).
        await page.wait_for_selector("#board", timeout=WAIT_MS)
        await page.wait_for_selector("#adminbar [data-admin=pause]:not([disabled])",
                                     timeout=WAIT_MS)
        assert await page.get_attribute("#status", "data-status") == "live"
        # Pause: the header says so, and so does the API.
        await page.click("[data-admin=pause]")
        await page.wait_for_selector("#status[data-status=paused]", timeout=WAIT_MS)
        assert "paused" in await page.inner_text(".title")
        assert (await wait_status(client, match_id, {"paused"}))["status"] == "paused"
        await shot(page, tmp_path, "admin-paused.png", "#adminbar")
        # The answer asked for before the pause still comes; then nothing more.
        before = await frames(page)
        gate.set()
        await page.wait_for_function(f"document.querySelector('.pos').textContent"
                                     f".endsWith(' / {before + 1}')", timeout=WAIT_MS)
        # Step: exactly one move, still paused.
        await page.click("[data-admin=step]:not([disabled])")
        await page.wait_for_function(f"document.querySelector('.pos').textContent"
                                     f".endsWith(' / {before + 2}')", timeout=WAIT_MS)
        assert await page.get_attribute("#status", "data-status") == "paused"
        assert "step: sent" in await page.inner_text("#admin-note")
        # Resume with the bots held (the match cannot end before the cancel).
        gate.clear()
        await page.click("[data-admin=resume]:not([disabled])")
        await page.wait_for_selector("#status[data-status=live]", timeout=WAIT_MS)
        assert (await wait_status(client, match_id, {"running"}))["status"] == "running"
        # Cancel: the match ends cancelled, the buttons go.
        await page.click("[data-admin=cancel]")
        done = await wait_status(client, match_id, {"cancelled", "finished", "aborted"})
        assert done["status"] == "cancelled" and done["result"] is None
        await page.wait_for_selector("#adminbar", state="detached", timeout=WAIT_MS)
        assert await page.get_attribute("#status", "data-status") == "cancelled"
        assert "stopped" in await page.inner_text("#result")  # as the room ends it
        await page.screenshot(path=tmp_path / "admin-cancelled.png", full_page=True)
        assert_local(urls, port)
    finally:
        gate.set()
        await asyncio.gather(*players, return_exceptions=True)
        await stop(server, client, store)


async def test_no_admin_buttons_without_the_token(page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.2)
        await page.goto(http(s.port, f"?match={room.id}"))
        await page.wait_for_selector("#board .B", timeout=WAIT_MS)
        assert await page.locator("#adminbar").count() == 0
        await shot(page, tmp_path, "no-admin.png", "#board")
        room.cancel()


def think_totals(room: Room, seats: int) -> list[int]:
    """Each seat's think time in ms, from the room's own log (as the frames round it)."""
    totals = [0] * seats
    for entry in room.log.entries:
        event = entry.event
        if (entry.observers and isinstance(event, StateChanged) and event.think is not None
                and event.seat is not None):
            totals[event.seat] += round(event.think * 1000)
    return totals


async def shown_totals(page: Any) -> list[int]:
    rows = page.locator("#clocks tbody tr")
    return [int(await rows.nth(k).get_attribute("data-total-ms"))
            for k in range(await rows.count())]


async def test_blokus_clocks_and_charts(page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.01, seed=3)
        urls = await opened(page, s.port, room, "#clocks")
        totals = think_totals(room, 2)
        assert all(t >= 10 * 20 for t in totals), totals  # 20+ moves each, 10 ms asleep
        assert await shown_totals(page) == totals
        names = await page.locator("#clocks tbody th").all_inner_texts()
        assert names == ["alpha", "beta"]
        # One line per colour in both charts; the marker is at the frame shown.
        for chart in ("#think-chart", "#score-chart"):
            assert await page.locator(f"{chart} polyline").count() == 4
        await shot(page, tmp_path, "blokus-clocks.png", "#clocks")
        await shot(page, tmp_path, "blokus-charts.png", "#score-chart svg")
        end_x = float(await page.get_attribute("#score-chart .marker", "x1"))
        await page.keyboard.press("Home")
        assert await shown_totals(page) == [0, 0]  # nothing thought before the first move
        assert float(await page.get_attribute("#score-chart .marker", "x1")) < end_x
        assert_local(urls, s.port)


async def test_hearth_clocks_and_health_chart(page: Any, tmp_path: Path) -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.01, seed=5)
        urls = await opened(page, s.port, room, "#clocks")
        totals = think_totals(room, 2)
        assert all(t >= 10 * 10 for t in totals), totals  # each answer 10 ms asleep
        assert await shown_totals(page) == totals
        assert await page.locator("#score-chart polyline").count() == 2
        assert await page.locator("#think-chart polyline").count() == 2
        # The health line ends where the heroes' health ends (0 for a dead hero).
        engine = room.game.state  # type: ignore[attr-defined]
        lowest = min(max(0, engine.health(engine.hero[p])) for p in (1, 2))
        assert lowest == 0
        await shot(page, tmp_path, "hearth-clocks.png", "#clocks")
        await shot(page, tmp_path, "hearth-charts.png", "#score-chart svg")
        assert_local(urls, s.port)


async def test_a_refused_admin_action_says_why(page: Any, tmp_path: Path) -> None:
    server, client, store, _url = await start(tmp_path)
    gate = threading.Event()
    players: list[asyncio.Task[Any]] = []
    try:
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}]})
        match_id = created.json()["id"]
        players = [asyncio.create_task(play_async(GatedBot(k, gate), "127.0.0.1",
                                                  server.tcp_port, seat["reservation"]))
                   for k, seat in enumerate(created.json()["seats"])]
        await wait_status(client, match_id, {"running"})
        await page.goto(http(server.http_port, f"?token=not-the-token&match={match_id}"))
        await page.wait_for_selector("#board", timeout=WAIT_MS)  # the viewer drew
        await page.click("[data-admin=pause]:not([disabled])", timeout=WAIT_MS)
        await page.wait_for_selector("#admin-note:has-text('refused')", timeout=WAIT_MS)
        assert "pause refused" in await page.inner_text("#admin-note")
        assert await page.get_attribute("#status", "data-status") == "live"
        assert (await client.get(f"/api/matches/{match_id}")).json()["status"] == "running"
        await shot(page, tmp_path, "admin-refused.png", "#admin-note")
        assert (await client.post(f"/api/matches/{match_id}/cancel", headers=AUTH)).is_success
    finally:
        gate.set()
        await asyncio.gather(*players, return_exceptions=True)
        await stop(server, client, store)
