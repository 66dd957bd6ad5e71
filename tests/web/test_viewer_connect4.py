"""A third game's viewer in a real browser: the page names no game, loads the module the
game's package brings (`examples/connect4`), and shows a game without one as JSON."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from server.games.registry import GamePlugin, GameRegistry
from server.rooms import Lobby, Room, SlotRequest
from server.rooms.inprocess import IN_PROCESS, InProcessPlayer
from tests.server.api.conftest import REPO
from tests.server.spectate.spectate_kit import finished, site

WAIT_MS = 30_000
PACKAGE = REPO / "examples" / "connect4"


@pytest.fixture
def connect4() -> Iterator[GamePlugin]:
    sys.path.insert(0, str(PACKAGE))
    try:
        from connect4.plugin import PLUGIN

        yield PLUGIN
    finally:
        sys.path.remove(str(PACKAGE))


def games_with(plugin: GamePlugin) -> GameRegistry:
    registry = GameRegistry.from_entry_points()
    registry.register(plugin)
    return registry


async def played(lobby: Lobby) -> Room:
    """A whole match of the package's own bots, seeded: the same game every run."""
    from connect4.bots import NegamaxBot, RandomBot
    from connect4.bundled import Player

    room, codes = lobby.prepare("connect4", [SlotRequest("deep"), SlotRequest("lucky")],
                                pause=False)
    plays = [Player("negamax", lambda seed: NegamaxBot(4, seed), seed=1),
             Player("random", RandomBot, seed=2)]
    for play, code in zip(plays, codes, strict=True):
        lobby.seated(lobby.join_prepared(InProcessPlayer(play), code, IN_PROCESS))
    await finished(room)
    return room


async def test_the_packages_viewer_draws_the_board(page: Any, connect4: GamePlugin) -> None:
    async with site(games=games_with(connect4)) as s:
        room = await played(s.lobby)
        assert room.result is not None
        await page.goto(f"http://127.0.0.1:{s.port}/?match={room.id}")
        await page.wait_for_selector(".c4-board .c4-cell", timeout=WAIT_MS)
        assert await page.locator(".c4-board .c4-cell").count() == 42
        discs = await page.locator(".c4-board .c4-X, .c4-board .c4-O").count()
        moves = await page.text_content(".c4-moves")
        assert moves is not None and discs == len(moves.strip()) >= 7
        winner = room.result.winner
        assert await page.locator(f".c4-player.c4-won[data-seat='{winner}']").count() == 1
        # The match list names the game as its package does.
        await page.wait_for_selector(f"[data-id='{room.id}']:has-text('Connect Four')",
                                     timeout=WAIT_MS)


async def test_a_game_without_a_viewer_shows_its_frame(page: Any, connect4: GamePlugin
                                                        ) -> None:
    plain = dataclasses.replace(connect4, viewer=None, display_name="")
    async with site(games=games_with(plain)) as s:
        room = await played(s.lobby)
        await page.goto(f"http://127.0.0.1:{s.port}/?match={room.id}")
        await page.wait_for_selector("pre.frame", timeout=WAIT_MS)
        shown = json.loads(await page.text_content("pre.frame") or "null")
        assert len(shown["grid"]) == 6 and shown["over"] is True
        assert await page.locator(".c4-board").count() == 0
        await page.wait_for_selector(f"[data-id='{room.id}']:has-text('connect4')",
                                     timeout=WAIT_MS)
