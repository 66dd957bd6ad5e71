"""A lobby with the spectator app on a real port, in-process players, a WS reader."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import websockets

from server.api.http import HttpServer
from server.api.viewer import create_spectate_app
from server.games.registry import GameRegistry
from server.rooms import Clocks, Lobby, Room, SlotRequest
from server.spectate import SpectateHub
from server.store import MatchStatus, NewSeat, SeatOutcome, Store
from tests.server.server_testkit import InProcessPlayer, InProcessSeat

TOKEN = "spectate-token"
WAIT = 60.0
RELAXED = Clocks(soft=30.0, hard=60.0, decision=30.0, turn=60.0)


@dataclass
class Site:
    lobby: Lobby
    hub: SpectateHub
    port: int

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


@asynccontextmanager
async def site(seed: int = 1, games: GameRegistry | None = None,
               clocks: Clocks = RELAXED) -> AsyncIterator[Site]:
    lobby = Lobby(clocks=clocks, seed=seed, games=games)
    app = create_spectate_app(lobby, admin_token=TOKEN)
    http = HttpServer(app, "127.0.0.1", 0)
    await http.start()
    try:
        yield Site(lobby, app.state.spectate, http.port)
    finally:
        await lobby.close()
        await http.stop()


def blokus_match(lobby: Lobby, delay: float = 0.0, seed: int = 0) -> tuple[Room, list[Any]]:
    players = [InProcessPlayer(seed + i, delay=delay) for i in range(2)]
    room, codes = lobby.prepare("swc_2027_blokus", [SlotRequest("alpha"), SlotRequest("beta")],
                                pause=False)
    for player, code in zip(players, codes, strict=True):
        lobby.seated(lobby.join_prepared(player, code))
    return room, players


def hearth_match(lobby: Lobby, delay: float = 0.0, seed: int = 0) -> tuple[Room, list[Any]]:
    rng = random.Random(seed)
    seats = [InProcessSeat(lambda d: rng.choice(d.payload.actions), delay=delay)
             for _ in range(2)]
    room, codes = lobby.prepare("hearth", [SlotRequest("jaina"), SlotRequest("rexxar")],
                                pause=False)
    for seat, code in zip(seats, codes, strict=True):
        lobby.seated(lobby.join_prepared(seat, code, protocol="kettle"))
    return room, seats


async def finished(room: Room) -> None:
    async with asyncio.timeout(WAIT):
        assert room.task is not None
        await asyncio.shield(room.task)


@dataclass
class Stream:
    messages: list[dict[str, Any]]
    close_code: int | None
    close_reason: str

    @property
    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]

    @property
    def seqs(self) -> list[int]:
        return [m["seq"] for m in self.events]


async def read(url: str, limit: int | None = None, **connect: Any) -> Stream:
    """Messages until the server closes (or `limit` events were read: then we leave)."""
    messages: list[dict[str, Any]] = []
    async with asyncio.timeout(WAIT):
        async with websockets.connect(url, max_size=2**24, **connect) as ws:
            try:
                async for text in ws:
                    messages.append(json.loads(text))
                    if limit is not None and sum(m["type"] == "event" for m in messages) >= limit:
                        break
            except websockets.ConnectionClosed:
                pass
            if limit is not None:
                return Stream(messages, None, "")
        return Stream(messages, ws.close_code, ws.close_reason or "")


DEMO = ("demo-north", "demo-south")
"""The players of `fill_store`'s demo match: the oldest of them all, a win 17 : 42."""


def fill_store(store: Store, count: int, game: str = "swc_2027_blokus") -> str:
    """`count` finished matches of two players written into the store directly (one
    transaction: fast), the oldest of them the demo match of `DEMO`, begun an hour ago and
    played for 95 s; the others a minute each, newer and newer. Returns the demo's id."""
    begun = datetime.now(UTC) - timedelta(hours=1)
    with store.group(savepoints=False):
        demo = store.create_match(game, [NewSeat(DEMO[0]), NewSeat(DEMO[1])], seed=1)
        store.set_status(demo.id, MatchStatus.RUNNING, at=begun)
        store.store_result(demo.id, winner=1, reason="demo", scores={"scores": [17, 42]},
                           seats=[SeatOutcome(0, "loss"), SeatOutcome(1, "win")],
                           at=begun + timedelta(seconds=95))
        for i in range(count - 1):
            match = store.create_match(game, [NewSeat(f"filler-{i % 7}"),
                                              NewSeat(f"filler-{(i + 1) % 7}")], seed=i)
            store.set_status(match.id, MatchStatus.RUNNING, at=begun)
            store.store_result(match.id, winner=None if i % 5 == 0 else i % 2,
                               reason="filler", scores={"scores": [i % 50, 20]},
                               at=begun + timedelta(seconds=60))
    return demo.id
