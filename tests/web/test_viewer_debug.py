"""The viewer's debugging parts (issue #29): what each launched bot said at the move shown,
"play from here", and a paused match in the list. A real browser (Debian's chromium)
against a real server with real launched bots; every test screenshots the part it is
about and checks that the page asked nothing of any other host."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.server.api.conftest import (
    AUTH,
    TOKEN,
    Running,
    register,
    script,
    start,
    stop,
    wait_settled,
    wait_status,
)
from tests.server.api.test_api_seat_move_logs import played
from tests.server.spectate.spectate_kit import blokus_match, site
from tests.web.test_viewer_moves import assert_local, http, local_only, position, shot

WAIT_MS = 30_000


def move_at(moves: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    """The move whose lines the frame at `seq` shows: the last decision at or before it."""
    found = moves[0]
    for move in moves:
        if move["seq"] is not None and move["seq"] <= seq:
            found = move
    return found


async def shown_seq(page: Any) -> int:
    return int((await page.inner_text("#seq")).removeprefix("seq "))


async def seat_part(page: Any, seat: int) -> dict[str, Any]:
    """What the panel shows for `seat`: its move's number, lines, truncated mark, usage."""
    part = page.locator(f"#said .said-seat[data-seat='{seat}']")
    lines = part.locator("pre.lines")
    return {"move": int(await part.get_attribute("data-move")),
            "lines": (await lines.inner_text()).split("\n") if await lines.count() else [],
            "truncated": await part.locator(".truncated").count() == 1}


async def decision_seqs(running: Running, match_id: str) -> list[int]:
    answer = await running.http.get(f"/api/matches/{match_id}/events", headers=AUTH,
                                    params={"limit": 10_000})
    return [e["seq"] for e in map(json.loads, answer.text.splitlines())
            if e["kind"] == "decision"]


async def wait_stored_decisions(running: Running, match_id: str, count: int) -> None:
    """Until the store holds `count` decision events of the match (it writes in batches)."""
    async with asyncio.timeout(60):
        while len(await decision_seqs(running, match_id)) < count:
            await asyncio.sleep(0.05)


async def test_what_the_bots_said_follows_the_scrubber(page: Any, tmp_path: Path) -> None:
    server, client, store, url = await start(tmp_path)
    running = Running(server, client, store, url)
    try:
        await register(client, "printer", script("print_moves_bot.py"))  # "move k"
        await register(client, "spammer", script("spam_bot.py"))  # 4 MiB at moves 1, 2
        match_id = await played(running, "printer", "spammer")
        moves = {seat: (await client.get(f"/api/matches/{match_id}/seats/{seat}/moves",
                                         headers=AUTH)).json()["moves"] for seat in (0, 1)}
        urls = local_only(page)
        await page.goto(http(server.http_port, f"?token={TOKEN}&match={match_id}"))
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        await page.wait_for_selector("#said .said-seat[data-seat='1']", timeout=WAIT_MS)
        # Beside the board: to its right, on the same rows.
        board = await page.locator("#board").bounding_box()
        said = await page.locator("#said").bounding_box()
        assert said["x"] >= board["x"] + board["width"] and said["y"] < board["y"] + 50

        # Every frame, from the first: each seat's lines are those of its last decision at
        # or before the frame shown.
        await page.keyboard.press("Home")
        _at, total = await position(page)
        seen_moves = set()
        for _ in range(total):
            seq = await shown_seq(page)
            for seat in (0, 1):
                expected = move_at(moves[seat], seq)
                shown = await seat_part(page, seat)
                assert shown["move"] == expected["move"], (seat, seq, shown, expected)
                assert shown["lines"] == expected["lines"], (seat, seq)
                assert shown["truncated"] == expected["truncated"], (seat, seq)
            seen_moves.add((await seat_part(page, 0))["move"])
            await page.keyboard.press("ArrowRight")
        assert len(seen_moves) == len(moves[0])  # every move of the printer was shown

        # A middle move, by its link: "move k", its think time, CPU time and peak memory.
        middle = moves[0][len(moves[0]) // 2]
        await page.goto(http(server.http_port, f"?match={match_id}&seq={middle['seq'] + 1}"))
        await page.wait_for_selector("#said .said-seat[data-seat='0']", timeout=WAIT_MS)
        part = page.locator("#said .said-seat[data-seat='0']")
        assert await part.locator("pre.lines").inner_text() == f"move {middle['move']}"
        assert await part.locator(".u-think").get_attribute("data-ms") == \
            str(middle["think_ms"])
        assert await part.locator(".u-cpu").get_attribute("data-ms") == str(middle["cpu_ms"])
        assert await part.locator(".u-rss").get_attribute("data-kb") == \
            str(middle["peak_rss_kb"])
        assert "MiB" in await part.locator(".u-rss").inner_text()
        heading = await part.locator("h4").inner_text()
        assert f"move {middle['move']} (turn {middle['turn']})" in heading
        # The charts over the match: think and CPU time, and peak memory.
        assert await page.locator("#said-time-0 polyline").count() == 2
        assert await page.locator("#said-memory-0 polyline").count() == 1
        await shot(page, tmp_path, "said-middle.png", "#said .said-seat[data-seat='0'] pre")
        await shot(page, tmp_path, "said-charts.png", "#said-time-0 svg")

        # The flood: cut, and marked so.
        flood = moves[1][1]
        assert flood["truncated"]
        await page.goto(http(server.http_port, f"?match={match_id}&seq={flood['seq'] + 1}"))
        mark = page.locator("#said .said-seat[data-seat='1'] .truncated")
        await mark.wait_for(timeout=WAIT_MS)
        assert f"{flood['dropped_lines']} lines" in await mark.inner_text()
        await shot(page, tmp_path, "said-truncated.png", "#said .said-seat[data-seat='1'] "
                   ".truncated")
        assert_local(urls, server.http_port)
    finally:
        await stop(server, client, store)


async def test_no_bot_output_without_the_token(page: Any, tmp_path: Path) -> None:
    server, client, store, url = await start(tmp_path)
    try:
        await register(client, "printer", script("print_moves_bot.py"))
        match_id = await played(Running(server, client, store, url), "printer", "random")
        await page.goto(http(server.http_port, f"?match={match_id}"))
        await page.wait_for_selector("#result", timeout=WAIT_MS)
        await page.wait_for_selector("#moves li", timeout=WAIT_MS)  # its viewer drew
        assert await page.locator("#said").count() == 0
        assert await page.locator("#from-here").count() == 0
        await shot(page, tmp_path, "no-said.png", "#board")
    finally:
        await stop(server, client, store)


async def board(page: Any) -> list[str]:
    """The colour of each square of the board shown (without the last move's outline)."""
    classes: list[str] = await page.eval_on_selector_all(
        "#board > div", "all => all.map(d => d.className.replace('last', '').trim())")
    return classes


async def test_play_from_here_starts_a_match_at_the_position_shown(
        page: Any, tmp_path: Path) -> None:
    server, client, store, url = await start(tmp_path)
    running = Running(server, client, store, url)
    try:
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "random"}, {"bot": "greedy"}]})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        await wait_settled(client, match_id)
        decisions = await decision_seqs(running, match_id)
        assert len(decisions) > 40
        urls = local_only(page)
        # A middle position: the frame before decision 21 was asked for.
        await page.goto(http(server.http_port,
                             f"?token={TOKEN}&match={match_id}&seq={decisions[21] - 1}"))
        await page.wait_for_selector("#status[data-status=finished]", timeout=WAIT_MS)
        await page.wait_for_selector("#board .B", timeout=WAIT_MS)
        seq = await shown_seq(page)
        turn = sum(s <= seq for s in decisions)
        assert 0 < turn < len(decisions)
        before = await board(page)
        assert sum(c != "" for c in before) > 20
        await page.click("[data-action=play-from-here]")
        await page.wait_for_selector("#from-form select[data-seat='1'] option[value=greedy]",
                                     state="attached", timeout=WAIT_MS)
        # The end: no decision follows it, nothing is started.
        await page.keyboard.press("End")
        await page.click("[data-action=start-from-here]")
        await page.wait_for_selector("#from-note:has-text('no decision follows')",
                                     timeout=WAIT_MS)
        assert f"match={match_id}" in page.url
        await page.keyboard.press("Home")
        for _ in range((await position(page))[1]):
            if await shown_seq(page) == seq:
                break
            await page.keyboard.press("ArrowRight")
        assert await board(page) == before
        assert await page.get_attribute("#from-where", "data-seq") == str(seq)
        # The original's bots are picked; play them the other way round.
        assert await page.input_value("#from-form select[data-seat='0']") == "random"
        await page.select_option("#from-form select[data-seat='0']", "greedy")
        await page.select_option("#from-form select[data-seat='1']", "random")
        assert await page.locator("#from-form select[name=rng]").count() == 0  # Blokus
        await shot(page, tmp_path, "play-from-here-form.png", "#from-form")
        await page.click("[data-action=start-from-here]")
        await page.wait_for_function(
            f"new URLSearchParams(location.search).get('match') !== '{match_id}'",
            timeout=WAIT_MS)
        new_id = await page.evaluate("new URLSearchParams(location.search).get('match')")
        assert "seq=" not in page.url  # following its newest frame
        await page.wait_for_selector(f".match[data-match='{new_id}'] #board", timeout=WAIT_MS)
        # The new match records where it came from, with the bots picked.
        made = (await client.get(f"/api/matches/{new_id}", headers=AUTH)).json()
        assert made["options"]["from"] == {"match": match_id, "turn": turn, "rng": "same"}
        assert [s["name"] for s in made["seats"]] == ["greedy", "random"]
        # Its first frame shows the board of the position it came from.
        await page.keyboard.press("Home")
        assert (await position(page))[0] == 0
        assert await board(page) == before
        await shot(page, tmp_path, "play-from-here-new.png", "#board")
        await wait_settled(client, new_id)
        assert_local(urls, server.http_port)
    finally:
        await stop(server, client, store)


async def test_the_match_list_shows_a_paused_match(page: Any, tmp_path: Path) -> None:
    async with site() as s:
        urls = local_only(page)
        await page.goto(http(s.port))
        await page.wait_for_selector("#conn:has-text('connected')", timeout=WAIT_MS)
        room, _ = blokus_match(s.lobby, delay=0.05)
        item = f"#matches li[data-id='{room.id}']"
        await page.wait_for_selector(f"{item}[data-status=running]", timeout=WAIT_MS)
        room.pause(True)
        await page.wait_for_selector(f"{item}[data-status=paused]", timeout=WAIT_MS)
        assert await page.inner_text(f"{item} .status") == "paused"
        await shot(page, tmp_path, "list-paused.png", f"{item} .status.paused")
        room.pause(False)
        await page.wait_for_selector(f"{item}[data-status=running]", timeout=WAIT_MS)
        room.cancel()
        assert_local(urls, s.port)


async def test_hearth_play_from_here_offers_a_fresh_random_stream_and_a_swap(
        page: Any, tmp_path: Path) -> None:
    server, client, store, url = await start(tmp_path)
    running = Running(server, client, store, url)
    try:
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "hearth", "seats": [{"bot": "hearth-random"}, {"bot": "hearth-greedy"}]})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        await wait_settled(client, match_id)
        decisions = await decision_seqs(running, match_id)
        urls = local_only(page)
        middle = decisions[len(decisions) // 2]
        await page.goto(http(server.http_port,
                             f"?token={TOKEN}&match={match_id}&seq={middle - 1}"))
        await page.wait_for_selector("#status[data-status=finished]", timeout=WAIT_MS)
        # Its viewer places the bots' panel under the heroes, beside the plays.
        await page.wait_for_selector(".hearth #said .said-seat[data-seat='1']",
                                     timeout=WAIT_MS)
        said = await page.locator("#said").bounding_box()
        plays = await page.locator("#ticker").bounding_box()
        assert said["x"] + said["width"] <= plays["x"] and said["y"] < plays["y"] + \
            plays["height"]
        seq = await shown_seq(page)
        turn = sum(s <= seq for s in decisions)
        await page.click("[data-action=play-from-here]")
        await page.wait_for_selector(
            "#from-form select[data-seat='1'] option[value=hearth-greedy]", state="attached",
            timeout=WAIT_MS)
        await page.select_option("#from-form select[name=rng]", "fresh")
        await page.check("#from-form input[name=swap]")
        await shot(page, tmp_path, "hearth-from-here-form.png", "#from-form select[name=rng]")
        await page.click("[data-action=start-from-here]")
        await page.wait_for_function(
            f"new URLSearchParams(location.search).get('match') !== '{match_id}'",
            timeout=WAIT_MS)
        new_id = await page.evaluate("new URLSearchParams(location.search).get('match')")
        await page.wait_for_selector(f".match[data-match='{new_id}'] .hearth", timeout=WAIT_MS)
        made = (await client.get(f"/api/matches/{new_id}", headers=AUTH)).json()
        origin = made["options"]["from"]
        assert {k: origin[k] for k in ("match", "turn", "rng")} == {
            "match": match_id, "turn": turn, "rng": "fresh"}
        assert isinstance(origin["seed"], int)
        # Swapped: the bots as picked play the other sides.
        assert [s["name"] for s in made["seats"]] == ["hearth-greedy", "hearth-random"]
        await shot(page, tmp_path, "hearth-from-here-new.png", ".hearth")
        await wait_settled(client, new_id)
        assert_local(urls, server.http_port)
    finally:
        await stop(server, client, store)


async def test_play_from_here_on_a_paused_match(page: Any, tmp_path: Path) -> None:
    server, client, store, url = await start(tmp_path)
    running = Running(server, client, store, url)
    match_id = ""
    try:
        created = await client.post("/api/matches", headers=AUTH, json={
            "game": "swc_2027_blokus", "seats": [{"bot": "random"}, {"bot": "greedy"}],
            "paused": True})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        await wait_status(client, match_id, {"paused"})
        urls = local_only(page)
        await page.goto(http(server.http_port, f"?token={TOKEN}&match={match_id}"))
        await page.wait_for_selector("#status[data-status=paused]", timeout=WAIT_MS)
        await page.wait_for_selector("[data-action=play-from-here]", timeout=WAIT_MS)
        # Four moves, one step at a time: each one a frame more on the page.
        for _ in range(4):
            total = (await position(page))[1]
            assert (await client.post(f"/api/matches/{match_id}/step",
                                      headers=AUTH)).status_code == 202
            await page.wait_for_function(
                f"Number(document.querySelector('.pos').textContent.split(' / ')[1]) > {total}",
                timeout=WAIT_MS)
        await wait_stored_decisions(running, match_id, 4)
        decisions = await decision_seqs(running, match_id)
        await page.click("[data-action=play-from-here]")
        await page.wait_for_selector("#from-form select[data-seat='1'] option[value=greedy]",
                                     state="attached", timeout=WAIT_MS)
        # The newest position: its decision is asked only once the match is stepped.
        await page.keyboard.press("End")
        await page.click("[data-action=start-from-here]")
        await page.wait_for_selector("#from-note:has-text('not asked yet')", timeout=WAIT_MS)
        # The position after the second answer.
        await page.keyboard.press("Home")
        while await shown_seq(page) <= decisions[1]:
            await page.keyboard.press("ArrowRight")
        seq = await shown_seq(page)
        turn = sum(s <= seq for s in decisions)
        assert turn == 2
        before = await board(page)
        await page.click("[data-action=start-from-here]")
        await page.wait_for_function(
            f"new URLSearchParams(location.search).get('match') !== '{match_id}'",
            timeout=WAIT_MS)
        new_id = await page.evaluate("new URLSearchParams(location.search).get('match')")
        await page.wait_for_selector(f".match[data-match='{new_id}'] #board", timeout=WAIT_MS)
        made = (await client.get(f"/api/matches/{new_id}", headers=AUTH)).json()
        assert made["options"]["from"] == {"match": match_id, "turn": 2, "rng": "same"}
        await page.keyboard.press("Home")
        assert await board(page) == before
        await shot(page, tmp_path, "play-from-paused.png", "#board")
        await wait_settled(client, new_id)
        assert_local(urls, server.http_port)
    finally:
        if match_id:
            await client.post(f"/api/matches/{match_id}/cancel", headers=AUTH)
        await stop(server, client, store)
