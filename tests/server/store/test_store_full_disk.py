"""Issue #24 point 12: on a full disk the store's health probe must not declare the store
healthy until a match's writes fit again.

The probe used to rewrite a row with its own value: a page or two appended to the WAL. On
a disk with a few KB left (or a WAL with room left from earlier transactions) that
succeeds, so the server declared `STORE WRITES AGAIN` within 2 s while nothing a match
writes could be stored, accepted 7 more matches and threw them away. Now the probe writes
what a match writes (`Store.probe`: 1 MiB of new pages, checkpointed into the database
file) and the server refuses new matches until that works.

A real full filesystem: the database lives on a small tmpfs mounted for the test, a filler
file takes every free block. Where `mount` is not permitted (not root) the test is skipped,
saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import server.recorder
from bots.blokus import RandomBot
from bots.blokus.aio import play_async
from bots.blokus.kit import ServerClosed
from server.runtime import GauntletServer
from server.store import NewEvent, NewSeat, Store, migrate
from tests.faults import fill_disk
from tests.server.api.conftest import AUTH, TOKEN, config, wait_status

WAIT = 60.0
BLOKUS = "swc_2027_blokus"


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 32 MiB tmpfs, mounted for the test."""
    folder = tmp_path / "disk"
    folder.mkdir()
    done = _run("mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(folder))
    if done.returncode != 0:
        pytest.skip(f"a real full disk needs `mount -t tmpfs` (root): {done.stderr.strip()}")
    try:
        yield folder
    finally:
        if _run("umount", str(folder)).returncode != 0:
            _run("umount", "-l", str(folder))


@pytest.fixture(autouse=True)
def quick_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.recorder, "PROBE_INTERVAL", 0.1)


async def create(http: httpx.AsyncClient, seed: int) -> tuple[int, dict[str, Any]]:
    response = await http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seed": seed, "seats": [{"name": "a"}, {"name": "b"}]})
    return response.status_code, response.json()


async def play(port: int, body: dict[str, Any], seed: int) -> list[Any]:
    """Both seats with random bots; each one's outcome, or the error it ended with."""
    return list(await asyncio.gather(*(
        play_async(RandomBot(seed=seed * 2 + k), "127.0.0.1", port, seat["reservation"],
                   idle_timeout=WAIT) for k, seat in enumerate(body["seats"])),
        return_exceptions=True))


def probes_failed(caplog: pytest.LogCaptureFixture) -> int:
    return sum(1 for r in caplog.records if r.getMessage().startswith("store still failing"))


async def test_the_probe_fails_until_a_match_fits_on_the_disk(
        disk: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    db = disk / "g.db"
    store = Store(f"sqlite:///{db}")
    srv = GauntletServer(config(tmp_path), store=store, http_port=0, admin_token=TOKEN)
    await srv.start()
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{srv.http_port}", timeout=30)
    try:
        status, body = await create(http, 1)
        assert status == 201
        await play(srv.tcp_port, body, 1)
        before = await wait_status(http, body["id"], {"finished"})

        # Full: the WAL checkpointed and truncated (the next commit needs new blocks), every
        # free block taken. A match then fails to store and is not announced.
        status, body = await create(http, 2)
        assert status == 201
        with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        filler = fill_disk(disk, b"\xa5")
        outcomes = await play(srv.tcp_port, body, 2)
        assert all(isinstance(o, ServerClosed) for o in outcomes), outcomes  # no result
        assert srv.matches.store_error is not None
        assert "full" in srv.matches.store_error.lower(), srv.matches.store_error

        # 64 KiB free: a row rewritten with its own value fits, a match does not. The probe
        # keeps failing and the server keeps refusing new matches.
        os.truncate(filler, filler.stat().st_size - 65536)
        seen = probes_failed(caplog)
        deadline = time.monotonic() + WAIT
        while probes_failed(caplog) < seen + 3 and srv.matches.store_error is not None:
            assert time.monotonic() < deadline, "the probe did not run"
            await asyncio.sleep(0.05)
        assert srv.matches.store_error is not None, "declared healthy on a full disk"
        assert not any("STORE WRITES AGAIN" in r.getMessage() for r in caplog.records)
        status, refused = await create(http, 3)
        assert status == 503 and "store cannot write" in refused["detail"], refused
        health = (await http.get("/api/health")).json()
        assert health["status"] == "store_failing"

        # Space again: the probe succeeds, the cut match is marked aborted, and matches are
        # accepted and stored to the end.
        filler.unlink()
        async with asyncio.timeout(WAIT):
            while srv.matches.store_error is not None:
                await asyncio.sleep(0.05)
        assert (await wait_status(http, body["id"], {"aborted"}))["result"] is None
        status, again = await create(http, 4)
        assert status == 201
        assert not any(isinstance(o, Exception) for o in await play(srv.tcp_port, again, 4))
        after = await wait_status(http, again["id"], {"finished"})
        assert after["result"] is not None
        assert (await http.get(f"/api/matches/{before['id']}")).json() == before
    finally:
        await http.aclose()
        async with asyncio.timeout(WAIT):
            await srv.close()
        store.close()


def test_the_probe_fails_on_a_full_disk_whose_wal_has_room(disk: Path) -> None:
    """100 % full, but the WAL keeps the room of an earlier transaction: a commit only
    appends to it, so a row rewritten with its own value succeeds. The probe's pages must
    reach the database file, which cannot grow: it fails until there is space."""
    db = disk / "g.db"
    url = f"sqlite:///{db}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        match = store.create_match(BLOKUS, [NewSeat("a"), NewSeat("b")])
        store.append_events([NewEvent(match.id, i, "state", {"pad": os.urandom(3000).hex()})
                             for i in range(400)])  # a WAL of about 3 MB
        with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn:
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and (disk / "g.db-wal").stat().st_size > 2 << 20
        filler = fill_disk(disk, b"\xa5")
        assert os.statvfs(disk).f_bavail == 0
        with store.engine.begin() as conn:  # what the probe used to do
            conn.execute(sa.text("UPDATE matches SET status = status"))
        for _ in range(3):
            with pytest.raises((sa.exc.OperationalError, sqlite3.OperationalError),
                               match="database or disk is full"):
                store.probe()
        filler.unlink()
        store.probe()
        store.probe()
    finally:
        store.close()
