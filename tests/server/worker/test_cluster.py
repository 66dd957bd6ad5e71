"""The cluster for real: Redis, PostgreSQL, two `gauntlet worker` subprocesses.

Matches of Blokus bots (random ones that think 15 ms a move, so that a game lasts long
enough to be cut) are dispatched as the ladder dispatches them; one worker is SIGKILLed
(with its bots) in the middle of a match. Every match must end exactly once
(one result row), with its event log complete and of one attempt (seqs 0..n without a gap,
the last one the result), the killed match replayed as attempt 2. A spectator of the API
node sees a match played on a worker live, over the same WebSocket as a local match.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.settings import load_settings
from server.spectate.frames import NEUTRAL_KEY as FRAME
from server.store import Store
from server.worker.attempts import AttemptStore, Superseded, begin_attempt
from server.worker.dispatch import Dispatcher
from tests.server.worker.conftest import VISIBILITY, Worker, worker_env

pytestmark = pytest.mark.timeout(150)
GAME = "swc_2027_blokus"


def _bots(store: Store) -> list[tuple[int, str]]:
    bots = store.list_bots(game=GAME)
    return [(b.id, b.name) for b in bots if b.id is not None][:2]


def _counts(store: Store, match_id: str) -> tuple[int, int, int | None, int]:
    """(results, events, last seq, result events) of a match."""
    with store.engine.connect() as conn:
        results = conn.execute(sa.text("SELECT count(*) FROM results WHERE match_id = :m"),
                               {"m": match_id}).scalar_one()
    events = store.events_since(match_id)  # rows and the packed log (ended matches)
    ends = sum(1 for e in events if e.kind == "result")
    return (int(results), len(events), events[-1].seq if events else None, ends)


def _playing(log: Path) -> str | None:
    """The match a worker's log says it is playing now (None: idle)."""
    started = re.findall(r"match (\S+): attempt \d+$", log.read_text(), re.MULTILINE)
    if not started:
        return None
    last = started[-1]
    return None if f"match {last}: attempt 1, " in log.read_text() else last


def test_a_superseded_attempt_writes_nothing(store: Store, pg_url: str) -> None:
    match = store.create_match(GAME, seed=1, attempt=0)
    assert begin_attempt(store, match.id) == 1
    first = AttemptStore(pg_url, match.id, 1)
    from server.store import NewEvent

    first.append_events([NewEvent(match.id, 0, "welcome", {})])
    assert begin_attempt(store, match.id) == 2  # the worker of attempt 1 "died"
    assert store.last_seq(match.id) is None  # attempt 1's events are gone
    with pytest.raises(Superseded):
        first.append_events([NewEvent(match.id, 1, "state", {})])
    with pytest.raises(Superseded):
        first.store_result(match.id, winner=0, reason="late")
    second = AttemptStore(pg_url, match.id, 2)
    second.store_result(match.id, winner=1, reason="regular")
    assert begin_attempt(store, match.id) is None  # over: a redelivered job plays nothing
    assert store.get_result(match.id) is not None
    first.close()
    second.close()


async def test_every_match_ends_once_when_a_worker_is_killed(
        store: Store, pg_url: str, redis_url: str, tmp_path: Path) -> None:
    env = worker_env(redis_url, pg_url, tmp_path / "data")
    workers = [Worker(env, tmp_path / f"worker-{i}.log") for i in range(2)]
    settings = load_settings(broker_url=redis_url, database_url=pg_url,
                             visibility_timeout=VISIBILITY)
    dispatcher = Dispatcher(settings, store)
    try:
        slow = str(Path(__file__).with_name("slow_bot.py")) + ":SlowRandom"
        bots = [(store.create_bot(f"slow-{i}", GAME, [sys.executable, "-m", "bots.blokus",
                                                        slow]).id, f"slow-{i}")
                for i in range(2)]
        ids = [await dispatcher.submit(GAME, bots if i % 2 else bots[::-1], seed=i)
               for i in range(4)]
        # Wait until the first worker is in the middle of a match (its log names the
        # attempt it plays, and the store holds some of its events), then kill it.
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            playing = _playing(workers[0].log)
            if playing is not None and (store.last_seq(playing) or 0) > 10:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the first worker never got into a match")
        workers[0].kill()
        statuses = await asyncio.wait_for(
            asyncio.gather(*(dispatcher.wait(m) for m in ids)), 100)
        assert statuses == ["finished"] * len(ids)
        attempts = {}
        for match_id in ids:
            results, events, last_seq, ends = _counts(store, match_id)
            assert results == 1, match_id
            assert last_seq is not None and events == last_seq + 1, (match_id, events)
            assert ends == 1, match_id
            attempts[match_id] = store.get_match(match_id).attempt  # type: ignore[union-attr]
        assert sorted(attempts.values()) == [1] * (len(ids) - 1) + [2], attempts
    finally:
        dispatcher.close()
        for worker in workers:
            worker.stop()


async def test_a_spectator_of_the_api_node_sees_a_worker_match_live(
        store: Store, pg_url: str, redis_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import websockets

    from server.config import ServerConfig
    from server.runtime import GauntletServer

    monkeypatch.setenv("GAUNTLET_REDIS_URL", redis_url)
    worker = Worker(worker_env(redis_url, pg_url, tmp_path / "data"), tmp_path / "w.log")
    settings = load_settings(broker_url=redis_url, database_url=pg_url)
    dispatcher = Dispatcher(settings, store)
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "api",
                          cluster=load_settings(redis_url=redis_url))
    try:
        async with GauntletServer(config, store=store, http_port=0,
                                  admin_token="t0ken") as api:
            hub = api._http.app.state.spectate  # type: ignore[union-attr]
            await asyncio.wait_for(hub.follower.subscribed.wait(), 10)
            base = f"ws://127.0.0.1:{api.http_port}"
            async with websockets.connect(f"{base}/ws/lobby") as lobby:
                json.loads(await lobby.recv())  # the list
                match_id = await dispatcher.submit(GAME, _bots(store), seed=7)
                while True:  # the lobby says the worker's match was created
                    event = json.loads(await asyncio.wait_for(lobby.recv(), 30))
                    if event.get("match", {}).get("id") == match_id:
                        break
            async with websockets.connect(f"{base}/ws/matches/{match_id}?since=0") as ws:
                hello = json.loads(await ws.recv())
                assert hello["type"] == "hello" and hello["match"]["id"] == match_id
                seqs, kinds = [], []
                async for text in ws:
                    frame = json.loads(text)
                    seqs.append(frame["seq"])
                    kinds.append(frame.get("kind"))
                assert ws.close_code == 1000
            # Read as soon as the live stream closed: the store holds every frame it sent,
            # under the same seqs, the result and the final `closed` one included.
            stored = store.events_since(match_id)
            assert seqs == sorted(seqs) and len(seqs) > 10
            assert kinds[-2:] == ["result", "closed"]
            # (a Blokus state is stored as its move: its frame is rebuilt from the moves)
            from server.games.blokus import PLUGIN
            from server.spectate.stored import stored_frames

            frames = stored_frames(match_id, stored, PLUGIN.spectating)
            assert seqs == [f.seq for f in frames]
            result = next(e for e in stored if e.kind == "result")
            assert result.seq == seqs[-2] and result.payload[FRAME]["kind"] == "result"
            assert await dispatcher.wait(match_id) == "finished"
    finally:
        dispatcher.close()
        worker.stop()
