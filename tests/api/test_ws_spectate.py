"""WS /ws/matches/{id}: snapshot then events in order, resume with `since`, slow spectators
dropped without slowing the match, finished matches replayed then closed."""

from __future__ import annotations

import asyncio

from server.spectate.hub import TOO_SLOW
from tests.api.spectate_kit import blokus_match, finished, read, site


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
