"""DESIGN rule 5 when the store fails: a result that is not stored is never announced.

The database turns "read-only" mid-match: every INSERT/UPDATE/DELETE is refused with
SQLite's own error before the driver runs it (`tests.faults`; a chmod would not stop root,
and an open SQLite connection keeps writing through its descriptor anyway). Then no player
is told a result (SC: `<left/>` without `<result>`; Kettle: the connection closes without
`game_finished`), the API answers 503 to new matches and the lobby refuses joins, the
server keeps running, and every result stored before is intact. Once writes work again, a
probe notices, the aborted match is marked `aborted` and new matches are accepted.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import server.recorder
from bots.blokus import RandomBot
from bots.blokus.aio import play_async
from bots.hearth import RandomBot as HearthRandom
from protocols.base import NEED_DATA, ConnectionClosed, StreamEnd
from protocols.kettle import ClientConnection, GameFinished, Nack, QueuePlayer
from protocols.sc import messages as m
from server.store import Store
from tests.faults import checked_statements
from tests.server.api.conftest import AUTH, Running, wait_settled, wait_status
from tests.server.net.test_kettle_tcp import play_recorded
from tests.server.sc_client import ScClient

WAIT = 60.0


class ReadOnly:
    """Makes the store's writes fail like a read-only SQLite file while `on` (or `left` > 0:
    the next `left` writes of `only` statements fail, then writes work again)."""

    def __init__(self) -> None:
        self.on = False
        self.left = 0
        self.only = ("INSERT", "UPDATE", "DELETE")
        self.refused = 0

    def check(self, statement: str) -> None:
        text = statement.lstrip().upper()
        if not text.startswith(self.only):
            return
        if self.left > 0:
            self.left -= 1
        elif not self.on:
            return
        self.refused += 1
        raise sqlite3.OperationalError("attempt to write a readonly database")


@contextmanager
def read_only(store: Store) -> Iterator[ReadOnly]:
    switch = ReadOnly()
    with checked_statements(store.engine, switch.check):
        yield switch


@pytest.fixture(autouse=True)
def quick_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.recorder, "PROBE_INTERVAL", 0.1)


async def play_sc(port: int, code: str, seed: int, moves: list[int],
                  flip_after: int, switch: ReadOnly,
                  before_flip: Callable[[], Awaitable[Any]] | None = None) -> list[Any]:
    """Random legal moves until the room ends; the store turns read-only after
    `flip_after` moves of both players together (once `before_flip` is done). Returns
    every message received."""
    rng = random.Random(seed)
    client = await ScClient.connect(port)
    await client.send(m.JoinPrepared(code))
    state = None
    try:
        while True:
            event = await client.recv(WAIT)
            if isinstance(event, m.Memento):
                state = event.state
            elif isinstance(event, m.MoveRequest):
                assert state is not None
                moves[0] += 1
                if moves[0] == flip_after:
                    if before_flip is not None:
                        await before_flip()
                    switch.on = True
                await client.send(m.RoomPacket(event.room_id, rng.choice(
                    list(state.legal_moves()))))
            elif isinstance(event, m.Left | ConnectionClosed | StreamEnd):
                break
    finally:
        await client.close()
    return client.received


class FlippingRandom(HearthRandom):
    """A random Hearth bot that turns the store read-only at the `flip_after`-th action
    of both players together."""

    def __init__(self, seed: int, actions: list[int], flip_after: int,
                 switch: ReadOnly) -> None:
        super().__init__(seed)
        self.actions, self.flip_after, self.switch = actions, flip_after, switch

    def act(self, state: Any, options: Any) -> Any:
        self.actions[0] += 1
        if self.actions[0] == self.flip_after:
            self.switch.on = True
        return super().act(state, options)


async def created(running: Running, body: dict[str, Any]) -> dict[str, Any]:
    response = await running.http.post("/api/matches", headers=AUTH, json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def refused_everywhere(running: Running) -> None:
    """The API, SC and Kettle all refuse a new match, each in its own way; reads work."""
    http = running.http
    refused = await http.post("/api/matches", headers=AUTH, json={
        "game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}]})
    assert refused.status_code == 503, refused.text
    assert "store cannot write" in refused.json()["detail"]
    health = (await http.get("/api/health")).json()
    assert health["status"] == "store_failing" and "readonly" in health["store_error"]

    sc = await ScClient.connect(running.tcp_port)
    try:
        await sc.send(m.Join())
        answer = await sc.recv(WAIT)
        assert isinstance(answer, m.ErrorPacket), answer
        assert answer.message.startswith("sc.api.plugins.exceptions.GameRoomException: the "
                                         "match store cannot write"), answer.message
    finally:
        await sc.close()

    reader, writer = await asyncio.open_connection("127.0.0.1", running.tcp_port)
    conn = ClientConnection()
    writer.write(conn.send(QueuePlayer(account_name="late")))
    await writer.drain()
    try:
        async with asyncio.timeout(WAIT):
            while (event := conn.next_event()) is NEED_DATA:
                conn.receive_data(await reader.read(65536))
        assert isinstance(event, Nack), event
        # Kettle's own form: a reason code that says so (issue #24, point 14d).
        assert (event.reason, event.not_acknowledged_object) == (
            "store_failed", "kettle:types/queue_player"), event
        assert "store cannot write" in event.message
    finally:
        writer.close()


async def recovered(running: Running) -> None:
    async with asyncio.timeout(WAIT):
        while running.server.matches.store_error is not None:
            await asyncio.sleep(0.05)
    assert (await running.http.get("/api/health")).json()["status"] == "ok"


async def test_sc_result_not_stored_is_not_announced(running: Running) -> None:
    http = running.http
    port = running.tcp_port
    # A match finished before the failure: its result must survive untouched.
    first = await created(running, {"game": "swc_2027_blokus", "seed": 1,
                                     "seats": [{"name": "a"}, {"name": "b"}]})
    codes = [s["reservation"] for s in first["seats"]]
    await asyncio.gather(play_async(RandomBot(seed=1), "127.0.0.1", port, codes[0]),
                         play_async(RandomBot(seed=2), "127.0.0.1", port, codes[1]))
    before = await wait_settled(http, first["id"])
    assert before["result"] is not None

    with read_only(running.store) as switch:
        second = await created(running, {"game": "swc_2027_blokus", "seed": 2,
                                          "seats": [{"name": "c"}, {"name": "d"}]})
        codes = [s["reservation"] for s in second["seats"]]
        moves = [0]
        # The match's status is written with the writer's next batch (within 0.1 s):
        # the disk fails once it says running.
        def stored_running() -> Awaitable[Any]:
            return wait_status(http, second["id"], {"running"})

        received = await asyncio.gather(
            play_sc(port, codes[0], 3, moves, 6, switch, stored_running),
            play_sc(port, codes[1], 4, moves, 6, switch, stored_running))
        assert switch.refused > 0
        for messages in received:
            assert not any(isinstance(x, m.Result) for x in messages), messages[-3:]
            assert isinstance(messages[-1], m.Left), messages[-3:]
        room = [r for r in running.server.matches.tracked.values()
                if r.room.id == second["id"]]
        assert not room or room[0].room.aborted

        await refused_everywhere(running)
        again = (await http.get(f"/api/matches/{first['id']}")).json()
        assert again == before  # reads work, the stored result is intact
        stuck = (await http.get(f"/api/matches/{second['id']}")).json()
        assert stuck["result"] is None and stuck["status"] == "running"

        switch.on = False  # the disk is writable again
        await recovered(running)
    aborted = await wait_status(http, second["id"], {"aborted"})
    assert aborted["result"] is None
    assert (await http.get(f"/api/matches/{first['id']}")).json() == before
    third = await created(running, {"game": "swc_2027_blokus",
                                     "seats": [{"name": "e"}, {"name": "f"}]})
    assert third["status"] == "waiting"


async def test_a_brief_failure_is_retried_and_the_result_announced(running: Running) -> None:
    """Only the result's own writes fail, twice: the retry stores it, then it is told."""
    port = running.tcp_port
    with read_only(running.store) as switch:
        match = await created(running, {"game": "swc_2027_blokus", "seed": 4,
                                         "seats": [{"name": "a"}, {"name": "b"}]})
        codes = [s["reservation"] for s in match["seats"]]
        switch.only = ("INSERT INTO RESULTS",)
        switch.left = 2
        outcomes = await asyncio.gather(
            play_async(RandomBot(seed=5), "127.0.0.1", port, codes[0]),
            play_async(RandomBot(seed=6), "127.0.0.1", port, codes[1]))
        assert all(o is not None for o in outcomes)
        assert switch.refused == 2
    done = await wait_status(running.http, match["id"], {"finished"})
    assert done["result"] is not None
    assert running.server.matches.store_error is None


async def test_kettle_result_not_stored_is_not_announced(running: Running) -> None:
    port = running.tcp_port
    with read_only(running.store) as switch:
        # The switch flips at the players' sixth action together, not after a delay: a
        # random Hearth game can be over in less than 0.2 s.
        actions = [0]
        plays = [asyncio.create_task(play_recorded(
            FlippingRandom(s, actions, 6, switch), port)) for s in (1, 2)]
        async with asyncio.timeout(120):
            results = await asyncio.gather(*plays)
        for _session, raw in results:
            conn = ClientConnection()
            conn.receive_data(raw)
            conn.receive_data(b"")
            events = conn.events()
            assert events, "nothing received"
            assert not any(isinstance(e, GameFinished) for e in events), events[-3:]
        assert actions[0] >= 6 and switch.refused > 0
        await refused_everywhere(running)
        switch.on = False
        await recovered(running)


def test_stored_mementos_are_the_node_tree_rendering() -> None:
    """A Blokus match is stored as its moves; the replay's mementos rebuilt from them are
    byte-equal to the node tree's rendering of every state the match went through."""
    from types import SimpleNamespace

    from games.blokus import SkipMove, new_game
    from protocols.sc.codec import encode_server
    from protocols.sc.xmltree import render
    from server.games.blokus import record
    from server.games.blokus.replay import stored_packets

    rng = random.Random(7)
    state = new_game("PENTO_L")
    expected, events = [], []
    while True:
        expected.append(render(encode_server(m.Memento('r"1', state.clone())), 0))
        events.append(SimpleNamespace(seq=len(events), payload={"blokus": record(state, 0.1)}))
        if state.is_over:
            break
        moves = list(state.legal_moves())
        skips = [move for move in moves if isinstance(move, SkipMove)]
        state.apply(skips[0] if skips and rng.random() < 0.1 else rng.choice(moves))
    assert any(isinstance(e.payload["blokus"]["move"], list)
               and len(e.payload["blokus"]["move"]) == 1 for e in events)  # a skip too
    assert list(stored_packets('r"1', events)) == expected
    # A gap in the log cuts the replay there instead of inventing states.
    del events[5]
    assert list(stored_packets('r"1', events)) == expected[:5]
