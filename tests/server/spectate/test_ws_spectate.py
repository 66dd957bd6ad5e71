"""WS /ws/matches/{id}: snapshot then events in order, resume with `since`, slow spectators
dropped without slowing the match, finished matches replayed then closed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.rooms.events import StateChanged
from server.spectate.hub import TOO_SLOW
from tests.server.spectate.spectate_kit import (
    TOKEN,
    blokus_match,
    finished,
    hearth_match,
    read,
    site,
)


async def test_a_live_blokus_match_streams_a_snapshot_then_every_event_in_order() -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.002)
        stream = await read(s.url(f"/ws/matches/{room.id}"))
        assert stream.close_code == 1000
        hello, snapshot = stream.messages[:2]
        assert hello["type"] == "hello" and hello["match"]["game"] == "swc_2027_blokus"
        assert set(hello["meta"]["shapes"]) >= {"MONO", "PENTO_X"}
        assert snapshot["type"] == "snapshot" and len(snapshot["state"]["board"]) == 400
        seqs = stream.seqs
        assert seqs == sorted(set(seqs)) and seqs[0] > snapshot["seq"]
        kinds = [e["kind"] for e in stream.events]
        assert kinds[-2:] == ["result", "closed"] and kinds.count("state") > 20
        result = stream.events[-2]["result"]
        assert result["reason"] == room.result.reason if room.result else False
        boards = [e["state"]["board"] for e in stream.events if e["kind"] == "state"]
        filled = [400 - b.count(".") for b in boards]
        assert filled == sorted(filled) and filled[-1] > 0


async def test_since_resumes_without_a_gap_or_a_repeat() -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.005)
        url = s.url(f"/ws/matches/{room.id}")
        first = await read(url + "?since=0", limit=7)
        assert len(first.events) == 7
        rest = await read(url + f"?since={first.seqs[-1] + 1}")
        assert rest.close_code == 1000
        assert all(m["type"] != "snapshot" for m in rest.messages)
        await finished(room)
        whole = await read(url + "?since=0")
        assert first.seqs + rest.seqs == whole.seqs
        assert [e["kind"] for e in first.events + rest.events] == \
            [e["kind"] for e in whole.events]
        # The seqs are the room log's (the store's numbering too).
        observed = [e.seq for e in room.log.entries if e.observers]
        assert whole.seqs == observed


async def test_a_finished_match_streams_its_events_and_closes() -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby)
        await finished(room)
        stream = await read(s.url(f"/ws/matches/{room.id}?since=0"))
        assert stream.close_code == 1000
        assert stream.messages[0]["match"]["status"] == "finished"
        assert stream.events[-1]["kind"] == "closed"
        late = await read(s.url(f"/ws/matches/{room.id}"))  # no since: the final state
        assert late.messages[1]["type"] == "snapshot"
        assert late.messages[1]["result"]["reason"] == room.result.reason if room.result \
            else False
        assert late.events == [] and late.close_code == 1000


async def test_an_unknown_match_is_refused() -> None:
    async with site() as s:
        stream = await read(s.url("/ws/matches/nope"))
        assert stream.close_code == 4004


async def test_a_slow_spectator_is_dropped_and_the_match_does_not_wait() -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby)
        feed = s.hub.feed(room.id)
        assert feed is not None
        stuck, _first = feed.attach(False, None, size=4)  # a spectator that never reads
        fine, _ = feed.attach(False, None, size=10_000)
        await finished(room)
        assert stuck.dropped is not None and stuck.dropped.code == TOO_SLOW
        assert "since=0" in stuck.dropped.reason
        assert stuck not in feed.watchers
        assert room.result is not None and room.result.regular
        assert fine.dropped is None and fine.queue.qsize() > 4


async def test_a_slow_websocket_is_closed_with_4008_and_resumes_with_since() -> None:
    async with site() as s:
        s.hub.queue_size = 3
        room, _ = blokus_match(s.lobby, delay=0.002)
        url = s.url(f"/ws/matches/{room.id}?since=0")
        import websockets

        async with websockets.connect(url) as ws:
            hello = await ws.recv()
            assert "hello" in hello
            # Loopback buffers absorb a whole match, so a client that stops reading does
            # not back up by itself: offer its watcher (queue of 3) a burst at once.
            feed = s.hub.feed(room.id)
            assert feed is not None
            watcher = next(iter(feed.watchers))
            for _ in range(10):
                watcher.offer(10_000, "{}")
            try:
                async with asyncio.timeout(10):
                    while True:
                        await ws.recv()
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == TOO_SLOW
                assert "since=" in closed.rcvd.reason
        await finished(room)
        assert room.result is not None and room.result.regular


async def test_each_blokus_move_carries_the_think_time_of_its_seat() -> None:
    async with site() as s:
        room, _ = blokus_match(s.lobby, delay=0.02)
        stream = await read(s.url(f"/ws/matches/{room.id}?since=0"))
        states = [e["state"] for e in stream.events if e["kind"] == "state"]
        moves = [st["last"] for st in states if st["last"] is not None]
        assert len(moves) > 20
        # From the request being written to the answer's arrival: at least the bot's sleep.
        assert all(m["thinkMs"] >= 15 for m in moves), [m["thinkMs"] for m in moves][:10]
        assert all(m["thinkMs"] < 5_000 for m in moves)
        assert states[0]["last"] is None  # the first state: no move, no think time
        # The room's own figure, on the StateChanged entry the frame was rendered from.
        thinks = [e.event.think for e in room.log.entries
                  if isinstance(e.event, StateChanged) and e.observers
                  and e.event.think is not None]
        assert [round(t * 1000) for t in thinks] == [m["thinkMs"] for m in moves]
        # A late spectator gets the last move's think time in its snapshot.
        late = await read(s.url(f"/ws/matches/{room.id}"))
        assert late.messages[1]["state"]["last"]["thinkMs"] == moves[-1]["thinkMs"]


def _add_secret(engine: Any, player: int, name: str) -> int:
    """A synthetic secret (the card set has none): an entity in the SECRET zone."""
    from games.hearth.carddb import EMPTY_SCRIPT, Card
    from games.hearth.entity import Entity
    from games.hearth.enums import CONTROLLER, T_SPELL, ZONE, GameTag
    from server.games.hearth.spectate import Z_SECRET

    card = Card(id=f"TEST_{name.upper()}", dbf_id=0, name=name, type=T_SPELL, card_class=0,
                cost=3, atk=0, health=0, durability=0, race=0, rarity=0, collectible=False,
                hero_power=None, tags={int(GameTag.SECRET): 1}, text="Secret: a test.",
                script=EMPTY_SCRIPT)
    entity_id = max(*engine.ents, 9_999) + 1  # far above the ids the engine hands out
    engine.ents[entity_id] = Entity(entity_id, card, {ZONE: Z_SECRET, CONTROLLER: player})
    return entity_id


def test_the_hearth_renderer_hides_secrets_from_a_neutral_spectator() -> None:
    from server.games.hearth import HearthGame
    from server.games.hearth.spectate import HearthRenderer

    game = HearthGame(seed=3)
    renderer = HearthRenderer(game, ["a", "b"])
    assert [p["secrets"] for p in renderer.state(None, False)["players"]] == [[], []]
    first = _add_secret(game.state, 2, "Ice Block")
    second = _add_secret(game.state, 2, "Vaporize")
    neutral = renderer.state(None, False)["players"]
    assert neutral[0]["secrets"] == []
    assert neutral[1]["secrets"] == [{"entity": first, "hidden": True},
                                     {"entity": second, "hidden": True}]
    assert "Ice Block" not in json.dumps(neutral) and "TEST_" not in json.dumps(neutral)
    full = renderer.state(None, True)["players"]
    assert [(x["entity"], x["name"], x["card"]) for x in full[1]["secrets"]] == [
        (first, "Ice Block", "TEST_ICE BLOCK"), (second, "Vaporize", "TEST_VAPORIZE")]


async def test_a_live_hearth_match_shows_secrets_to_the_admin_only() -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.05, seed=4)
        async with asyncio.timeout(30):
            while not room.started:
                await asyncio.sleep(0.01)
        engine = room.game.state  # type: ignore[attr-defined]
        mine = _add_secret(engine, 1, "Counterspell")
        url = s.url(f"/ws/matches/{room.id}")
        neutral, admin = await asyncio.gather(read(url, limit=3),
                                              read(url, limit=3, additional_headers={
                                                  "Authorization": f"Bearer {TOKEN}"}))
        neutral_states = [e["state"] for e in neutral.events if e["kind"] == "state"]
        admin_states = [e["state"] for e in admin.events if e["kind"] == "state"]
        assert neutral_states and admin_states
        for state in neutral_states:
            assert state["players"][0]["secrets"] == [{"entity": mine, "hidden": True}]
            assert state["players"][1]["secrets"] == []
        assert "Counterspell" not in json.dumps(neutral.messages)
        for state in admin_states:
            assert [x["name"] for x in state["players"][0]["secrets"]] == ["Counterspell"]
        await finished(room)
        # Over: every spectator sees the secret.
        after = await read(url + "?since=0")
        result = next(e for e in after.events if e["kind"] == "result")
        assert result["state"]["players"][0]["secrets"][0]["name"] == "Counterspell"


def test_a_weapon_is_shown_with_its_attack_and_durability() -> None:
    from games.hearth.carddb import load_cards
    from games.hearth.entity import Entity
    from games.hearth.enums import ATK, CONTROLLER, DAMAGE, DURABILITY, Z_PLAY, ZONE
    from server.games.hearth import HearthGame
    from server.games.hearth.spectate import HearthRenderer

    game = HearthGame(seed=3)
    engine = game.state
    renderer = HearthRenderer(game, ["a", "b"])
    axe = max(*engine.ents, 9_999) + 1
    engine.ents[axe] = Entity(axe, load_cards()["CS2_106"],
                              {ZONE: Z_PLAY, CONTROLLER: 1, ATK: 4, DAMAGE: 1})
    engine.weapon[1] = axe
    for full in (False, True):
        weapon = renderer.state(None, full)["players"][0]["weapon"]
        assert (weapon["name"], weapon["atk"], weapon["durability"]) == ("Fiery War Axe", 4, 1)
        assert engine.ents[axe][DURABILITY] == 2
