"""Matches read back from the store: after a restart on the same database, a match streams
its stored frames exactly as it streamed live (same messages, same seqs), hidden Hearth cards
stay hidden from neutral spectators of a match that never finished, and /ws/lobby lists the
stored matches a page at a time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from tests.server.api.conftest import TOKEN, start, stop
from tests.server.spectate.spectate_kit import blokus_match, finished, hearth_match, read


def ws(server: Any, path: str) -> str:
    return f"ws://127.0.0.1:{server.http_port}{path}"


def hands(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [card for side in state["players"] for card in side["hand"]]


async def test_a_blokus_match_replays_after_a_restart_with_the_live_frames(
        tmp_path: Path) -> None:
    server, client, store, _ = await start(tmp_path)
    try:
        room, _ = blokus_match(server.lobby, delay=0.002)
        live = await read(ws(server, f"/ws/matches/{room.id}?since=0"))  # while it is played
        await finished(room)
        late = await read(ws(server, f"/ws/matches/{room.id}"))  # a snapshot, from memory
        fields = len(room.game.state.fields())  # type: ignore[attr-defined]
    finally:
        await stop(server, client, store)
    assert live.close_code == 1000 and live.events[-1]["kind"] == "closed"

    server, client, store, _ = await start(tmp_path)  # a fresh server, the same database
    try:
        assert server.lobby.rooms == {}
        replay = await read(ws(server, f"/ws/matches/{room.id}?since=0"))
        assert replay.close_code == 1000
        assert replay.messages[1:] == live.messages[1:]  # every frame, byte for byte equal
        assert replay.seqs == live.seqs
        hello, live_hello = replay.messages[0], live.messages[0]
        assert hello["meta"] == live_hello["meta"]
        assert hello["full"] is True  # finished: nothing is hidden any more
        info = hello["match"]
        assert info["status"] == "finished" and info["live"] is False
        assert info["players"] == ["alpha", "beta"] and info["lastSeq"] == live.seqs[-1]
        assert info["result"] == live.events[-2]["result"]
        last = next(e for e in replay.events if e["kind"] == "result")["state"]
        assert 400 - last["board"].count(".") == fields

        # Without `since`: the snapshot a late spectator got from memory.
        snap = await read(ws(server, f"/ws/matches/{room.id}"))
        assert snap.messages[1] == late.messages[1] and snap.events == []
        assert snap.close_code == 1000

        # Resuming in the middle: no gap, no repeat.
        middle = live.seqs[len(live.seqs) // 2]
        tail = await read(ws(server, f"/ws/matches/{room.id}?since={middle}"))
        assert tail.messages[1:] == [e for e in live.events if e["seq"] >= middle]

        unknown = await read(ws(server, "/ws/matches/not-a-match"))
        assert unknown.close_code == 4004

        # The match list: the stored match, with its result.
        async with websockets.connect(ws(server, "/ws/lobby")) as lobby:
            first = json.loads(await lobby.recv())
        listed = {m["id"]: m for m in first["matches"]}
        assert listed[room.id]["status"] == "finished" and not listed[room.id]["live"]
        assert listed[room.id]["result"]["reason"] == info["result"]["reason"]
        assert listed[room.id]["result"]["winnerName"] == info["result"]["winnerName"]
        assert first["stored"]["total"] >= 1 and first["stored"]["offset"] == 0
    finally:
        await stop(server, client, store)


async def test_stored_hidden_cards_stay_hidden_until_the_match_is_finished(
        tmp_path: Path) -> None:
    server, client, store, _ = await start(tmp_path)
    try:
        room, _ = hearth_match(server.lobby, delay=0.02, seed=3)
        # Watch until a few turns were played, then the server goes down mid-match.
        await read(ws(server, f"/ws/matches/{room.id}?since=0"), limit=12)
        assert not room.closed
    finally:
        await stop(server, client, store)

    server, client, store, _ = await start(tmp_path)
    try:
        neutral = await read(ws(server, f"/ws/matches/{room.id}?since=0"))
        admin = await read(ws(server, f"/ws/matches/{room.id}?since=0"),
                           additional_headers={"Authorization": f"Bearer {TOKEN}"})
        snapshot = await read(ws(server, f"/ws/matches/{room.id}"))
        assert neutral.close_code == admin.close_code == snapshot.close_code == 1000
        assert neutral.messages[0]["match"]["status"] == "aborted"
        assert neutral.messages[0]["full"] is False and admin.messages[0]["full"] is True
        states = [e["state"] for e in neutral.events if e["kind"] == "state"]
        assert len(states) >= 10
        for state in [*states, snapshot.messages[1]["state"]]:
            assert state["full"] is False
            assert all(set(card) == {"entity"} for card in hands(state))
        admin_states = [e["state"] for e in admin.events if e["kind"] == "state"]
        assert [e["seq"] for e in admin.events] == neutral.seqs
        assert any("card" in card for state in admin_states for card in hands(state))
        # The full frames are stored, yet no neutral text names a card still in a hand.
        in_hands = {card["card"] for state in admin_states for card in hands(state)}
        shown = set()
        for state in states:
            for side in state["players"]:
                for thing in [side["hero"], side["heroPower"], side["weapon"], *side["board"]]:
                    if thing:
                        shown.add(thing["card"])
            shown |= {line["card"] for line in state["ticker"] if "card" in line}
        text = json.dumps(neutral.messages)
        assert not any(f'"{card}"' in text for card in in_hands - shown)
    finally:
        await stop(server, client, store)


async def test_the_lobby_pages_through_stored_matches(tmp_path: Path) -> None:
    server, client, store, _ = await start(tmp_path)
    try:
        rooms = [blokus_match(server.lobby, seed=i)[0] for i in range(3)]
        for room in rooms:
            await finished(room)
    finally:
        await stop(server, client, store)

    server, client, store, _ = await start(tmp_path)
    try:
        async with websockets.connect(ws(server, "/ws/lobby?limit=2")) as lobby:
            first = json.loads(await lobby.recv())
            assert first["stored"] == {"offset": 0, "limit": 2, "total": 3}
            await lobby.send(json.dumps({"type": "page", "offset": 2}))
            async with asyncio.timeout(10):
                page = json.loads(await lobby.recv())
        assert page["type"] == "page" and page["offset"] == 2 and page["total"] == 3
        ids = [m["id"] for m in first["matches"]] + [m["id"] for m in page["matches"]]
        assert ids == [r.id for r in reversed(rooms)]  # most recent first
    finally:
        await stop(server, client, store)


async def test_a_blokus_match_stored_without_frames_replays_from_its_mementos(
        tmp_path: Path) -> None:
    server, client, store, _ = await start(tmp_path)
    try:
        room, _ = blokus_match(server.lobby, seed=4)
        await finished(room)
        live = await read(ws(server, f"/ws/matches/{room.id}?since=0"))
    finally:
        await stop(server, client, store)
    # As a match stored before the frames were: its payloads without them.
    import sqlalchemy as sa

    from protocols.sc.messages import Memento
    from server.games.blokus import rebuild
    from server.net.replay import packet_bytes
    from server.store import Store
    from server.store.models import MatchEvent

    old = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}")
    assert old.unpack_match(room.id) > 0  # as rows again, the way they were stored then
    with old.engine.begin() as db:
        table = MatchEvent.__table__  # type: ignore[attr-defined]
        state = None
        rows = db.execute(sa.select(table.c.seq, table.c.payload).order_by(table.c.seq))
        for seq, payload in rows.all():
            stripped = {k: v for k, v in payload.items() if not k.startswith("spectate")}
            if "blokus" in stripped:  # stored as a move: as a memento, as it was then
                state = rebuild(state, stripped.pop("blokus"))
                stripped["xml"] = [packet_bytes(Memento(room.id, state)).decode()]
            db.execute(table.update().where(table.c.seq == seq).values(payload=stripped))
    old.close()

    server, client, store, _ = await start(tmp_path)
    try:
        assert all("spectate" not in e.payload for e in store.events_since(room.id, 0))
        replay = await read(ws(server, f"/ws/matches/{room.id}?since=0"))
        # The mementos say everything but how long each move was thought about.
        assert replay.close_code == 1000
        assert replay.messages[1:] == _without_think(live.messages[1:])
    finally:
        await stop(server, client, store)


def _without_think(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = json.loads(json.dumps(messages))
    for message in found:
        last = (message.get("state") or {}).get("last")
        if last:
            assert last.pop("thinkMs") >= 0
    return found
