"""The API node with a broker: POST /api/matches of registered bots goes to the workers (a
match with a reserved seat stays on the node), and a restarted API node leaves the matches
the workers play (or have queued) to them: each finishes once, as attempt 1.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from server.config import ServerConfig
from server.runtime import GauntletServer
from server.settings import load_settings
from server.store import MatchStatus, Store
from server.store.ladder import LadderStore
from tests.server.worker.conftest import Worker, worker_env
from tests.server.worker.test_cluster import GAME, _bots, _counts

pytestmark = pytest.mark.timeout(150)
TOKEN = "t0ken"


@pytest.fixture
def broker(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("GAUNTLET_BROKER_URL", redis_url)
    monkeypatch.setenv("GAUNTLET_REDIS_URL", redis_url)
    return redis_url


def _config(data: Path) -> ServerConfig:
    # The cluster's settings as `gauntlet serve` reads them (the broker fixture set them).
    return ServerConfig(tcp_port=0, admin_password="pw", data_dir=data, cluster=load_settings())


async def _post(api: GauntletServer, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{api.http_port}",
                                 headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        return await http.post("/api/matches", json=body, timeout=30)


async def _until(store: Store, match_id: str, done: Any, seconds: float = 90) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        match = await asyncio.to_thread(store.get_match, match_id)
        if match is not None and done(match):
            return match
        await asyncio.sleep(0.1)
    pytest.fail(f"match {match_id}: {match.status if match else 'missing'} after {seconds} s")


def _over(match: Any) -> bool:
    return match.status not in ("waiting", "running", "paused")


async def test_post_matches_of_registered_bots_go_to_the_workers(
        store: Store, pg_url: str, broker: str, tmp_path: Path) -> None:
    worker = Worker(worker_env(broker, pg_url, tmp_path / "data"), tmp_path / "w.log")
    names = [name for _id, name in _bots(store)]
    try:
        async with GauntletServer(_config(tmp_path / "api"), store=store, http_port=0,
                                  admin_token=TOKEN) as api:
            answer = await _post(api, {"game": GAME, "seed": 3,
                                       "seats": [{"bot": names[0]}, {"bot": names[1]}]})
            assert answer.status_code == 201, answer.text
            body = answer.json()
            match_id = body["id"]
            assert [s["bot"] for s in body["seats"]] == names
            assert all(s["reservation"] is None for s in body["seats"])
            assert match_id not in api.lobby.rooms  # not played here
            match = store.get_match(match_id)
            assert match is not None and match.options["dispatch"] == "worker"
            assert match.options["source"] == "api" and match.seed == 3

            # A reserved seat needs this node's TCP port: played here, as before.
            local = await _post(api, {"game": GAME, "seats": [{"name": "me"},
                                                              {"bot": names[1]}]})
            assert local.status_code == 201, local.text
            local_id = local.json()["id"]
            assert local_id in api.lobby.rooms and local.json()["seats"][0]["reservation"]
            assert "dispatch" not in (store.get_match(local_id).options or {})  # type: ignore[union-attr]

            # Unknown bots are refused as before (404), without queueing anything.
            missing = await _post(api, {"game": GAME, "seats": [{"bot": "nobody"},
                                                                {"bot": names[1]}]})
            assert missing.status_code == 404

            finished = await _until(store, match_id, _over)
            assert finished.status == "finished" and finished.attempt == 1
            assert f"match {match_id}: attempt 1" in (tmp_path / "w.log").read_text()
            results, events, last_seq, ends = _counts(store, match_id)
            assert (results, ends) == (1, 1) and events == (last_seq or 0) + 1
    finally:
        worker.stop()


async def test_a_restarted_api_node_leaves_the_workers_matches_to_them(
        store: Store, pg_url: str, broker: str, tmp_path: Path) -> None:
    worker = Worker(worker_env(broker, pg_url, tmp_path / "data"), tmp_path / "w.log")
    names = [name for _id, name in _bots(store)]
    seats = [{"bot": names[0]}, {"bot": names[1]}]
    try:
        api = GauntletServer(_config(tmp_path / "api"), store=store, http_port=0,
                             admin_token=TOKEN)
        await api.start()
        again = Store(pg_url)  # the restarted node: a new process on the same database
        try:
            ids = []
            for seed in (1, 2):  # one worker: the second waits in the queue
                answer = await _post(api, {"game": GAME, "seed": seed, "seats": seats})
                assert answer.status_code == 201, answer.text
                ids.append(answer.json()["id"])
            # The first is a ladder leg too (as the ladder dispatches them): the restarted
            # node's ladder follows it again and rates it once.
            ladder = LadderStore(store)
            ids_bots = [bot_id for bot_id, _name in _bots(store)]
            leg = ladder.add_round(GAME, ids_bots[0], ids_bots[1], 1)[0]
            assert leg.id is not None and ladder.claim(leg.id) is not None
            ladder.set_match(leg.id, ids[0])
            # The node's own match, left open by the "crash": aborted at the restart.
            local = store.create_match(GAME, seed=9, options={"source": "api"})
            store.set_status(local.id, MatchStatus.RUNNING)
            # The worker plays ids[0] (its game may be over already: bundled bots play one
            # in about 0.3 s, and a running status is stored with the events within 0.1 s);
            # ids[1] is queued or under way.
            await _until(store, ids[0], lambda m: (store.last_seq(m.id) or 0) > 3, 60)
            # The node "crashed" (it never closed) and starts again on the same database:
            # its start-up recover() runs while the worker plays ids[0] and ids[1] waits.
            async with GauntletServer(_config(tmp_path / "api2"), store=again, http_port=0,
                                      admin_token=TOKEN):
                assert again.get_match(local.id).status == "aborted"  # type: ignore[union-attr]
                for match_id in ids:
                    match = await _until(again, match_id, _over)
                    assert match.status == "finished" and match.attempt == 1, match_id
                    results, events, last_seq, ends = _counts(again, match_id)
                    assert (results, ends) == (1, 1) and events == (last_seq or 0) + 1
                    if match_id == ids[0]:  # the ladder settles its leg right after
                        await _until(again, match_id, lambda m: LadderStore(again)
                                     .is_rated(m.id), 10)
            assert LadderStore(store).is_rated(ids[0])
            assert LadderStore(store).counts(GAME).get("done") == 1
        finally:
            again.close()
            await api.close()
        log = (tmp_path / "w.log").read_text()
        assert all(log.count(f"match {m}: attempt 1\n") == 1 for m in ids), log[-2000:]
        with store.engine.connect() as conn:
            aborted = conn.execute(sa.text("SELECT count(*) FROM matches WHERE status = "
                                           "'aborted'")).scalar_one()
        assert aborted == 1  # the local one only
    finally:
        worker.stop()


def test_recover_keeps_dispatched_matches_only_with_a_broker(tmp_path: Path) -> None:
    from server.startup import abort_stale_waiting

    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    store.upgrade()
    try:
        def made(options: dict[str, Any], status: MatchStatus | None) -> str:
            match = store.create_match(GAME, options=options)
            if status is not None:
                store.set_status(match.id, status)
            return match.id

        worker = {"source": "api", "dispatch": "worker"}
        ids = {"local running": made({"source": "api"}, MatchStatus.RUNNING),
               "local waiting": made({"source": "api"}, None),
               "worker running": made(worker, MatchStatus.RUNNING),
               "worker queued": made(worker, None),
               "older worker": made({"source": "ladder", "cluster": True},
                                    MatchStatus.RUNNING)}
        aborted = store.recover(keep_dispatched=True) + abort_stale_waiting(
            store, keep_dispatched=True)
        assert sorted(aborted) == sorted([ids["local running"], ids["local waiting"]])
        assert store.get_match(ids["worker queued"]).status == "waiting"  # type: ignore[union-attr]
        # Without a broker: everything open is aborted, as ever.
        aborted = store.recover(keep_dispatched=False) + abort_stale_waiting(
            store, keep_dispatched=False)
        assert sorted(aborted) == sorted([ids["worker running"], ids["worker queued"],
                                          ids["older worker"]])
    finally:
        store.close()
