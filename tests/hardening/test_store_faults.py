"""The store's disk faults, for real: a full disk, a filesystem turned read-only, `kill -9`.

Issue #14: the server reports the fault, refuses new matches, keeps every finished result;
after a `kill -9` during writes the file passes `PRAGMA integrity_check` and results match
events. A real server (TCP + HTTP) on a real SQLite file, players over TCP.

How each fault is made (we run as root: `chmod` would not stop a single write):

- Disk full: the database lives on a small tmpfs mounted for the test; a filler file takes
  every free block, so the next write SQLite makes returns ENOSPC (`SQLITE_FULL`, "database
  or disk is full"). The WAL is checkpointed and truncated first, so that the very next
  commit needs a new block (a WAL with room left would take a few more commits to hit the
  wall: the same failure, later). Deleting the filler frees the space. Where `mount` is not
  permitted, `PRAGMA max_page_count` is set on every connection the store's engine checks
  out (the database cannot grow; the same `SQLITE_FULL`), then raised again.
- Read-only: the database lives on an ext4 image on a loop device mounted with
  `errors=remount-ro`, and `mount -o remount,abort` makes ext4 do what it does after an I/O
  error: turn the filesystem read-only under the open descriptors (a plain `remount,ro` is
  refused while SQLite holds the file open for writing, so that is the only way a live
  filesystem goes read-only under a server). Writes then fail with `SQLITE_IOERR` on the
  open connections and `SQLITE_READONLY` on new ones; reads keep working. An aborted ext4
  cannot be remounted read-write while the server holds it: the recovery is a restart after
  `e2fsck` (the in-place recovery through the probe is shown by the disk-full test here and
  by `tests/server/api/test_store_failures.py`). Without loop devices, `PRAGMA query_only` on every
  checked-out connection stands in, and the probe recovers in place.
- `GAUNTLET_TEST_NO_MOUNT=1` forces both fallbacks (to test them where mounting works).
- `kill -9`: a `gauntlet serve` child process with several matches at once (players over
  TCP from this process, new matches started as others end), SIGKILLed while it writes;
  then the file is checked and the server restarted on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import server.recorder
from bots.blokus import RandomBot
from bots.blokus.aio import play_async
from protocols.base import ConnectionClosed, StreamEnd
from protocols.sc import messages as m
from server.runtime import GauntletServer
from server.store import Store
from server.store.packing import unpack
from tests.faults import fill_disk
from tests.server.api.conftest import AUTH, TOKEN, Running, config, gauntlet_serve, wait_status
from tests.server.sc_client import ScClient

WAIT = 60.0
BLOKUS = "swc_2027_blokus"


@pytest.fixture(autouse=True)
def quick_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.recorder, "PROBE_INTERVAL", 0.1)


# --- the faults ------------------------------------------------------------------------


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def _unmount(path: Path) -> None:
    if _run("umount", str(path)).returncode != 0:
        _run("umount", "-l", str(path))


class PageLimit:
    """The fallback: `PRAGMA max_page_count` (disk full) or `query_only` (read-only) on every
    connection the engine checks out, while `on`."""

    def __init__(self, store: Store, pragma: str) -> None:
        self.on = False
        self._engine = store.engine
        self._pragma = pragma
        self._limit = 0
        sa.event.listen(self._engine, "checkout", self._checkout)

    def _checkout(self, dbapi: Any, *args: Any) -> None:
        if self._pragma == "max_page_count":
            pages = self._limit if self.on else 1_073_741_823
            dbapi.execute(f"PRAGMA max_page_count={pages}")
        else:
            dbapi.execute(f"PRAGMA query_only={int(self.on)}")

    def start(self, db: Path) -> None:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            self._limit = conn.execute("PRAGMA page_count").fetchone()[0]
        self.on = True

    def remove(self) -> None:
        sa.event.remove(self._engine, "checkout", self._checkout)


@dataclass
class Disk:
    """A folder for the database and a way to break and mend it."""

    folder: Path
    real: bool
    kind: str  # "full" or "readonly"
    image: Path | None = None
    limit: PageLimit | None = None
    filler: Path | None = None
    log: list[str] = field(default_factory=list)

    @property
    def db(self) -> Path:
        return self.folder / "g.db"

    def attach(self, store: Store) -> None:
        if not self.real:
            self.limit = PageLimit(store, "max_page_count" if self.kind == "full"
                                   else "query_only")

    def detach(self) -> None:
        if self.limit is not None:
            self.limit.remove()
            self.limit = None

    def break_it(self) -> None:
        """Called on the loop, between two moves: the next commit fails."""
        if not self.real:
            assert self.limit is not None
            self.limit.start(self.db)
        elif self.kind == "full":
            with contextlib.closing(sqlite3.connect(self.db, timeout=10)) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            self.filler = fill_disk(self.folder)
            self.log.append(f"filled {self.filler.stat().st_size} bytes")
        else:
            done = _run("mount", "-o", "remount,abort", str(self.folder))
            assert done.returncode == 0, done.stderr
        self.log.append("broken")

    def mend(self) -> None:
        """Full: free the space. Read-only fallback: writable again. (A real read-only
        ext4 is mended by `remount_after_fsck` once the server is stopped.)"""
        if self.limit is not None:
            self.limit.on = False
        elif self.filler is not None:
            self.filler.unlink()
            self.filler = None

    def remount_after_fsck(self) -> None:
        assert self.image is not None
        _unmount(self.folder)
        fsck = _run("e2fsck", "-fy", str(self.image))
        assert fsck.returncode in (0, 1), fsck.stdout + fsck.stderr  # 1: errors corrected
        done = _run("mount", "-o", "loop,errors=remount-ro", str(self.image),
                    str(self.folder))
        assert done.returncode == 0, done.stderr


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Disk]:
    folder = tmp_path / "disk"
    folder.mkdir()
    real = os.environ.get("GAUNTLET_TEST_NO_MOUNT") is None and _run(
        "mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", str(folder)).returncode == 0
    try:
        yield Disk(folder, real, "full")
    finally:
        if real:
            _unmount(folder)


@pytest.fixture
def readonly_disk(tmp_path: Path) -> Iterator[Disk]:
    folder = tmp_path / "disk"
    folder.mkdir()
    image = tmp_path / "ext4.img"
    real = False
    if os.environ.get("GAUNTLET_TEST_NO_MOUNT") is None and shutil.which("mkfs.ext4") \
            and shutil.which("e2fsck"):
        with open(image, "wb") as f:
            f.truncate(64 << 20)
        real = (_run("mkfs.ext4", "-q", "-F", str(image)).returncode == 0
                and _run("mount", "-o", "loop,errors=remount-ro", str(image),
                         str(folder)).returncode == 0)
    try:
        yield Disk(folder, real, "readonly", image=image if real else None)
    finally:
        if real:
            _unmount(folder)


# --- a server on the disk, players, the file's checks ----------------------------------


@asynccontextmanager
async def serving(disk: Disk, tmp_path: Path) -> AsyncIterator[Running]:
    """A server on `disk.db` (its data folder stays off the broken disk)."""
    url = f"sqlite:///{disk.db}"
    store = Store(url)
    disk.attach(store)
    srv = GauntletServer(config(tmp_path), store=store, http_port=0, admin_token=TOKEN)
    await srv.start()
    client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{srv.http_port}", timeout=30)
    try:
        yield Running(srv, client, store, url)
    finally:
        await client.aclose()
        async with asyncio.timeout(WAIT):  # a failing store never hangs the shutdown
            await srv.close()
        disk.detach()
        store.close()


async def new_match(http: httpx.AsyncClient, seed: int) -> tuple[str, list[str]]:
    response = await http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seed": seed, "seats": [{"name": "a"}, {"name": "b"}]})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], [s["reservation"] for s in body["seats"]]


async def play_finished(running: Running, seed: int) -> dict[str, Any]:
    match_id, codes = await new_match(running.http, seed)
    outcomes = await asyncio.gather(
        *(play_async(RandomBot(seed=seed * 2 + k), "127.0.0.1", running.tcp_port, code)
          for k, code in enumerate(codes)))
    assert all(o is not None for o in outcomes)
    body = await wait_status(running.http, match_id, {"finished"})
    assert body["result"] is not None
    return body


async def play_sc(port: int, code: str, seed: int, on_move: Callable[[], None]) -> list[Any]:
    """Random legal moves until the room ends, `on_move()` before each; every message."""
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
                on_move()
                await client.send(m.RoomPacket(event.room_id, rng.choice(
                    list(state.legal_moves()))))
            elif isinstance(event, m.Left | ConnectionClosed | StreamEnd):
                break
    finally:
        await client.close()
    return client.received


async def sc_prepare(port: int) -> bytes:
    """An authenticated admin's `prepare`: what the server answers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b'<protocol><authenticate password="pw"/><prepare gameType="swc_2027_blokus">'
                 b'<slot displayName="a" canTimeout="true" reserved="true"/>'
                 b'<slot displayName="b" canTimeout="true" reserved="true"/></prepare>')
    received = b""
    try:
        async with asyncio.timeout(WAIT):
            while b"errorpacket" not in received and b"</prepared>" not in received:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                received += chunk
    finally:
        writer.close()
    return received


def check_file(db: Path) -> dict[str, str]:
    """The file's own checks, and results against events. Returns {match id: status}."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        statuses = dict(conn.execute("SELECT id, status FROM matches").fetchall())
        results = {r for (r,) in conn.execute("SELECT match_id FROM results")}
        # A result exactly for the finished matches (commit_result is one transaction).
        assert results == {i for i, s in statuses.items() if s == "finished"}
        logs: dict[str, list[tuple[int, str]]] = {}
        # An ended match's events are packed into one row (server.store.packing).
        for match_id, data in conn.execute(
                "SELECT match_id, data FROM match_logs WHERE data IS NOT NULL"):
            logs[match_id] = [(seq, kind) for seq, _, kind, _ in unpack(data)]
        for match_id, seq, kind in conn.execute(
                "SELECT match_id, seq, kind FROM match_events ORDER BY match_id, seq"):
            logs.setdefault(match_id, []).append((seq, kind))
    for match_id, log in logs.items():
        log.sort()
        seqs = [s for s, _ in log]
        assert seqs == list(range(len(seqs))), (match_id, seqs)  # no hole, no repeat
    for match_id in results:  # no result without its GameOver event
        kinds = [k for _, k in logs.get(match_id, [])]
        assert "result" in kinds, (match_id, kinds[-3:])
    return statuses


async def refused(running: Running, cause: str) -> None:
    """Reported (health), refused over HTTP and SC admin `prepare`."""
    error = running.server.matches.store_error
    assert error is not None and cause in error.lower(), error
    health = (await running.http.get("/api/health")).json()
    assert health["status"] == "store_failing" and health["store_error"] == error
    answer = await running.http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seats": [{"name": "x"}, {"name": "y"}]})
    assert answer.status_code == 503, answer.text
    assert "store cannot write" in answer.json()["detail"]
    packet = await sc_prepare(running.tcp_port)
    assert b"errorpacket" in packet and b"store cannot write" in packet, packet
    assert b"<prepared" not in packet


async def break_mid_match(running: Running, disk: Disk, seed: int
                          ) -> tuple[list[str], list[list[Any]]]:
    """Two matches at once; the disk breaks at the 6th move. Both end without a result."""
    matches = [await new_match(running.http, seed + k) for k in range(2)]
    moves = [0]

    def on_move() -> None:
        moves[0] += 1
        if moves[0] == 6:
            disk.break_it()

    received = await asyncio.gather(*(
        play_sc(running.tcp_port, code, seed * 10 + i, on_move)
        for i, (_, codes) in enumerate(matches) for code in codes))
    assert "broken" in disk.log
    for messages in received:  # nobody is told a result that was not stored
        assert not any(isinstance(x, m.Result) for x in messages), messages[-3:]
        assert isinstance(messages[-1], m.Left), messages[-3:]
    return [match_id for match_id, _ in matches], received


async def intact(running: Running, before: list[dict[str, Any]],
                 events: dict[str, str]) -> None:
    for body in before:
        again = (await running.http.get(f"/api/matches/{body['id']}")).json()
        assert again == body
        log = await running.http.get(f"/api/matches/{body['id']}/events")
        assert log.status_code == 200 and log.text == events[body["id"]]


# --- the tests -------------------------------------------------------------------------


async def test_disk_full(full_disk: Disk, tmp_path: Path,
                         caplog: pytest.LogCaptureFixture) -> None:
    disk = full_disk
    async with serving(disk, tmp_path) as running:
        http = running.http
        before = [await play_finished(running, seed) for seed in (1, 2)]
        await running.server.writer.flush()  # the `closed` event follows the result
        events = {b["id"]: (await http.get(f"/api/matches/{b['id']}/events")).text
                  for b in before}

        cut, _ = await break_mid_match(running, disk, 3)
        await refused(running, "full")
        assert any(r.levelname == "CRITICAL" and "STORE FAILING" in r.getMessage()
                   for r in caplog.records)
        await intact(running, before, events)
        for match_id in cut:
            body = (await http.get(f"/api/matches/{match_id}")).json()
            assert body["result"] is None and body["status"] != "finished"

        disk.mend()  # space again: the probe notices, the cut matches are marked aborted
        async with asyncio.timeout(WAIT):
            while running.server.matches.store_error is not None:
                await asyncio.sleep(0.05)
        assert (await http.get("/api/health")).json()["status"] == "ok"
        for match_id in cut:
            assert (await wait_status(http, match_id, {"aborted"}))["result"] is None
        after = await play_finished(running, 7)
        assert b"<prepared" in await sc_prepare(running.tcp_port)
        await intact(running, before, events)
    statuses = check_file(disk.db)
    assert {statuses[b["id"]] for b in [*before, after]} == {"finished"}
    assert {statuses[i] for i in cut} == {"aborted"}


async def test_read_only_filesystem(readonly_disk: Disk, tmp_path: Path,
                                    caplog: pytest.LogCaptureFixture) -> None:
    disk = readonly_disk
    async with serving(disk, tmp_path) as running:
        http = running.http
        before = [await play_finished(running, seed) for seed in (11, 12)]
        await running.server.writer.flush()  # the `closed` event follows the result
        events = {b["id"]: (await http.get(f"/api/matches/{b['id']}/events")).text
                  for b in before}

        cut, _ = await break_mid_match(running, disk, 13)
        # Open connections: "disk I/O error"; new ones: "attempt to write a readonly
        # database"; the fallback: "attempt to write a readonly database".
        cause = "disk i/o error" if disk.real else "readonly"
        error = running.server.matches.store_error
        assert error is not None and ("readonly" in error.lower() or cause in error.lower())
        await refused(running, "")
        assert any(r.levelname == "CRITICAL" and "STORE FAILING" in r.getMessage()
                   for r in caplog.records)
        await intact(running, before, events)  # reads still work on a read-only disk
        if not disk.real:
            disk.mend()
            async with asyncio.timeout(WAIT):
                while running.server.matches.store_error is not None:
                    await asyncio.sleep(0.05)
    if disk.real:
        # The server is stopped (cleanly: the shutdown did not hang on the failing store);
        # fsck, mount read-write, start again: the cut matches are aborted at the start.
        disk.remount_after_fsck()
    async with serving(disk, tmp_path) as running:
        http = running.http
        for match_id in cut:
            assert (await wait_status(http, match_id, {"aborted"}))["result"] is None
        await intact(running, before, events)
        after = await play_finished(running, 17)
        assert running.server.matches.store_error is None
    statuses = check_file(disk.db)
    assert {statuses[b["id"]] for b in [*before, after]} == {"finished"}
    assert {statuses[i] for i in cut} == {"aborted"}


# --- kill -9 ---------------------------------------------------------------------------


async def serve_child(tmp_path: Path) -> tuple[asyncio.subprocess.Process, int, int]:
    proc, line = await gauntlet_serve(tmp_path)
    found = re.search(r"listening on [\d.]+:(\d+) .*HTTP API on http://[\d.]+:(\d+)/api",
                      line)
    assert found, line
    return proc, int(found[1]), int(found[2])


def progress(db: Path) -> tuple[int, int, int]:
    """(results, events, running matches with 10 events or more) as committed so far."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as c:
        return (c.execute("SELECT count(*) FROM results").fetchone()[0],
                c.execute("SELECT (SELECT count(*) FROM match_events) + (SELECT "  # packed too
                          "coalesce(sum(events), 0) FROM match_logs)").fetchone()[0],
                c.execute("SELECT count(*) FROM matches WHERE status = 'running' AND "
                          "(SELECT count(*) FROM match_events e WHERE e.match_id = id) >= 10"
                          ).fetchone()[0])


class HeldBot(RandomBot):
    """Plays `moves` moves, then holds its next answer until `go` is set: its match is
    under way at the kill, however long the test takes to get there."""

    def __init__(self, seed: int, moves: int, go: threading.Event) -> None:
        super().__init__(seed)
        self.moves, self.go = moves, go

    def move(self, state: Any) -> Any:
        if self.moves == 0:
            self.go.wait(10 * WAIT)
        self.moves -= 1
        return super().move(state)


def under_way(db: Path, ids: list[str]) -> int:
    """How many of `ids` are committed as running with 10 events or more."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as c:
        return sum(c.execute("SELECT count(*) FROM matches WHERE id = ? AND status = 'running' "
                             "AND (SELECT count(*) FROM match_events e WHERE e.match_id = id)"
                             " >= 10", (i,)).fetchone()[0] for i in ids)


async def test_kill_9_while_writing(tmp_path: Path) -> None:
    """Four matches at a time (a new one as one ends), SIGKILL once 3 results are stored,
    2 matches are under way and events are still being committed."""
    proc, tcp, port = await serve_child(tmp_path)
    db = tmp_path / "g.db"
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30)
    announced: set[str] = set()  # matches whose players were told a result
    started: list[str] = []
    go, held_ids = threading.Event(), list[str]()

    async def held(seed: int) -> None:
        """Two matches that cannot end before the kill (no clock, their bots hold after
        6 moves each, 10 events or more stored): a random game would end on its own
        between the check and the kill on a slow machine."""
        response = await http.post("/api/matches", headers=AUTH, json={
            "game": BLOKUS, "seed": seed, "seats": [{"name": "a"}, {"name": "b"}],
            "clocks": {"enabled": False}})
        assert response.status_code == 201, response.text
        held_ids.append(response.json()["id"])
        await asyncio.gather(
            *(play_async(HeldBot(seed * 2 + k, 6, go), "127.0.0.1", tcp, s["reservation"])
              for k, s in enumerate(response.json()["seats"])), return_exceptions=True)

    async def one(seed: int) -> None:
        match_id, codes = await new_match(http, seed)
        started.append(match_id)
        outcomes = await asyncio.gather(
            *(play_async(RandomBot(seed=seed * 2 + k), "127.0.0.1", tcp, code)
              for k, code in enumerate(codes)), return_exceptions=True)
        if all(not isinstance(o, BaseException) for o in outcomes):
            announced.add(match_id)

    async def lane(first: int) -> None:
        seed = first
        while True:
            with contextlib.suppress(Exception):
                await one(seed)
            seed += 4

    lanes = [asyncio.create_task(lane(k)) for k in range(4)]
    lanes += [asyncio.create_task(held(1000 + k)) for k in range(2)]
    try:
        async with asyncio.timeout(120):
            while True:
                results, count, _ = await asyncio.to_thread(progress, db)
                if results >= 3 and await asyncio.to_thread(under_way, db, held_ids) == 2:
                    break
                await asyncio.sleep(0.05)
            # Still writing: more events committed since the third result.
            while (await asyncio.to_thread(progress, db))[1] <= count:
                await asyncio.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        assert await proc.wait() == -signal.SIGKILL
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        go.set()
        for task in lanes:
            task.cancel()
        await asyncio.gather(*lanes, return_exceptions=True)
        await http.aclose()

    statuses = check_file(db)
    finished = {i for i, s in statuses.items() if s == "finished"}
    assert len(finished) >= 3
    assert announced <= finished  # rule 5: told only once stored
    killed = {i for i, s in statuses.items() if s in ("running", "waiting", "paused")}
    cut = {i for i in killed if statuses[i] == "running"}
    assert len(cut) >= 2 and set(held_ids) <= cut, statuses  # the kill did cut matches short
    with contextlib.closing(sqlite3.connect(db)) as conn:
        stored = {r[0]: r[1:] for r in conn.execute(
            "SELECT match_id, winner, reason, scores FROM results")}

    proc, tcp, port = await serve_child(tmp_path)  # the next start
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            for match_id in killed:
                body = (await http.get(f"/api/matches/{match_id}")).json()
                assert body["status"] == "aborted" and body["result"] is None, body
            for match_id in finished:
                body = (await http.get(f"/api/matches/{match_id}")).json()
                assert body["status"] == "finished" and body["result"] is not None
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(WAIT):
            assert await proc.wait() == 0
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert stored == {r[0]: r[1:] for r in conn.execute(
            "SELECT match_id, winner, reason, scores FROM results")}
    after = check_file(db)
    assert {i for i in killed if after[i] != "aborted"} == set()
