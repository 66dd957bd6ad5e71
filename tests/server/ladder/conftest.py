"""A real server with the ladder (in process, or `gauntlet serve` as a subprocess), and the
checks that a ladder's stored state is consistent: every result rated exactly once."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from server.config import ServerConfig
from server.ladder import LadderOptions
from server.runtime import GauntletServer
from server.store import Store
from server.store.engine import make_engine
from server.store.packing import unpack

TOKEN = "ladder-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
REPO = Path(__file__).resolve().parents[3]
API_BOTS = REPO / "tests" / "server" / "api" / "bots"
BLOKUS = "swc_2027_blokus"
HEARTH = "hearth"


@dataclass
class Running:
    server: GauntletServer
    http: httpx.AsyncClient
    store: Store


def fast_config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path / "data",
                        soft_timeout=5.0, hard_timeout=10.0)


@asynccontextmanager
async def serving(tmp_path: Path,
                  ladder: LadderOptions | None = None) -> AsyncIterator[Running]:
    """A server with an SQLite file store (so a ladder and tests) over the bundled bots,
    HTTP on port 0, and a client of it."""
    store = Store(f"sqlite:///{tmp_path / 'gauntlet.db'}")
    server = GauntletServer(fast_config(tmp_path), store=store, http_port=0, admin_token=TOKEN,
                            ladder=ladder or LadderOptions(concurrency=2))
    await server.start()
    client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.http_port}", timeout=30)
    try:
        yield Running(server, client, store)
    finally:
        await client.aclose()
        await server.close()
        store.close()


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    async with serving(tmp_path) as found:
        yield found


async def wait_until(check: Callable[[], Any], timeout: float, what: str,
                     every: float = 0.5) -> Any:
    """Poll an async or plain check until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(every)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def gauntlet_env(tmp_path: Path, http_port: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    env.update({
        "GAUNTLET_DATABASE_URL": f"sqlite:///{tmp_path / 'gauntlet.db'}",
        "GAUNTLET_DATA_DIR": str(tmp_path / "data"),
        "GAUNTLET_TCP_PORT": "0", "GAUNTLET_HTTP_PORT": str(http_port),
        "GAUNTLET_ADMIN_TOKEN": TOKEN, "GAUNTLET_LADDER_AUTOSTART": "true",
        "GAUNTLET_LADDER_CONCURRENCY": "2", "GAUNTLET_LOG_LEVEL": "WARNING",
        **extra,
    })
    return env


def serve(argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)


def gauntlet() -> str:
    return str(Path(sys.executable).with_name("gauntlet"))


def consistency(db_url: str) -> dict[str, int]:
    """The ladder's books balance: each finished match rated once, by both its bots, and
    every rating's game count equals its history rows. Returns the counts checked."""
    engine = make_engine(db_url)  # emits BEGIN itself: one snapshot for every query
    try:
        with engine.connect() as c, c.begin():
            def one(sql: str) -> int:
                return int(c.execute(sa.text(sql)).scalar_one())

            finished = one("SELECT count(*) FROM matches WHERE status = 'finished'")
            results = one("SELECT count(*) FROM results")
            rated = one("SELECT count(DISTINCT match_id) FROM ladder_rating_history")
            rows = one("SELECT count(*) FROM ladder_rating_history")
            games = one("SELECT coalesce(sum(games), 0) FROM ladder_ratings")
            result_events = one("SELECT count(*) FROM match_events e JOIN matches m "
                                "ON m.id = e.match_id WHERE e.kind = 'result' "
                                "AND m.status = 'finished'")
            # An ended match's events are packed into one row (server.store.packing).
            for data in c.execute(sa.text(
                    "SELECT l.data FROM match_logs l JOIN matches m ON m.id = l.match_id "
                    "WHERE m.status = 'finished' AND l.data IS NOT NULL")).scalars():
                result_events += sum(1 for e in unpack(data) if e[2] == "result")
            # A result committed just before a stop is rated at the next start (its leg
            # stays `playing`); any other finished match must be rated.
            unrated = one("SELECT count(*) FROM matches m WHERE m.status = 'finished' AND "
                          "NOT EXISTS (SELECT 1 FROM ladder_rating_history h "
                          "WHERE h.match_id = m.id) AND NOT EXISTS (SELECT 1 FROM "
                          "ladder_pairings p WHERE p.match_id = m.id AND "
                          "p.status = 'playing')")
            pending = one("SELECT count(*) FROM matches m WHERE m.status = 'finished' AND "
                          "NOT EXISTS (SELECT 1 FROM ladder_rating_history h "
                          "WHERE h.match_id = m.id)")
            not_finished = one("SELECT count(*) FROM ladder_rating_history h JOIN matches m "
                               "ON m.id = h.match_id WHERE m.status != 'finished'")
            done = one("SELECT count(*) FROM ladder_pairings WHERE status = 'done'")
            done_rated = one("SELECT count(*) FROM ladder_pairings p WHERE status = 'done' "
                             "AND EXISTS (SELECT 1 FROM ladder_rating_history h "
                             "WHERE h.match_id = p.match_id)")
            aborted = one("SELECT count(*) FROM matches WHERE status = 'aborted'")
    finally:
        engine.dispose()
    assert finished == results == result_events, (finished, results, result_events)
    assert unrated == 0 and not_finished == 0, (unrated, not_finished)
    assert rated == finished - pending
    assert rows == 2 * rated == games, (rows, rated, games)
    assert done == done_rated == rated, (done, done_rated, rated)
    return {"finished": finished, "rated": rated, "aborted": aborted, "pending": pending}
