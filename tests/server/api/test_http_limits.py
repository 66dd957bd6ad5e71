"""HTTP connections that never finish a request are closed; the connections open at once are
capped; out of file descriptors, the server logs a line now and then, not per failed
accept, and recovers (issue 24, point 8). Real sockets, a real `gauntlet serve`."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import resource
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from server.config import Limits
from server.runtime import GauntletServer
from server.store import Store
from tests.server.api.conftest import REPO, TOKEN, config

GAUNTLET = str(Path(sys.executable).parent / "gauntlet")
PARTIAL = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture
async def server(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[GauntletServer]:
    limits: Limits = request.param
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    served = GauntletServer(dataclasses.replace(config(tmp_path), limits=limits), store=store,
                            http_port=0, admin_token=TOKEN)
    await served.start()
    try:
        yield served
    finally:
        await served.close()
        store.close()


async def _until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    return await reader.read()


async def _health(port: int) -> int:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        return (await client.get("/api/health")).status_code


@pytest.mark.parametrize("server", [Limits(http_header_timeout_seconds=1.0)], indirect=True)
async def test_a_request_that_never_ends_is_closed(server: GauntletServer) -> None:
    port = server.http_port
    opened = [await asyncio.open_connection("127.0.0.1", port) for _ in range(5)]
    for _reader, writer in opened[:3]:
        writer.write(PARTIAL)  # headers begun, never ended (slowloris)
    # [3]: says nothing at all. [4]: one request, then the next one begun and left.
    keep_reader, keep_writer = opened[4]
    keep_writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = await keep_reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    length = int(re.search(rb"content-length: (\d+)", head.lower())[1])  # type: ignore[index]
    await keep_reader.readexactly(length)
    keep_writer.write(b"GET /api/heal")
    async with asyncio.timeout(60):
        said = await asyncio.gather(*(_until_closed(r) for r, _w in opened))
    assert all(s.startswith(b"HTTP/1.1 408") for s in said[:4]), said
    assert said[4].startswith(b"HTTP/1.1 408")
    for _r, writer in opened:
        writer.close()
    assert await _health(port) == 200


@pytest.mark.parametrize("server", [Limits(http_header_timeout_seconds=120.0,
                                           http_max_connections=16)], indirect=True)
async def test_past_the_cap_the_oldest_waiting_connection_goes(server: GauntletServer) -> None:
    port = server.http_port
    idle = []
    for _ in range(40):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(PARTIAL)
        idle.append((reader, writer))
    # Long before any request deadline, the server has closed all but the newest ones.
    async with asyncio.timeout(30):
        closed = 0
        for reader, _writer in idle[:24]:
            await _until_closed(reader)
            closed += 1
    assert closed == 24
    assert await _health(port) == 200  # a request gets through, the cap reached
    still = [r for r, _w in idle[24:] if not r.at_eof()]
    assert still  # the newest ones were left alone
    for _r, writer in idle:
        writer.close()


@pytest.mark.timeout(240)
async def test_out_of_file_descriptors_a_line_now_and_then_then_recovery(
        tmp_path: Path) -> None:
    """1,024 descriptors took down the API and the bot port, with 100,000 log lines a
    second; here 256 and 400 slow connections on each port."""
    env = {**os.environ, "GAUNTLET_ADMIN_TOKEN": TOKEN, "GAUNTLET_ADMIN_PASSWORD": "pw",
           "GAUNTLET_HTTP_MAX_CONNECTIONS": "2000",  # not the cap: the file limit
           "GAUNTLET_HTTP_HEADER_TIMEOUT": "3", "GAUNTLET_LOGIN_TIMEOUT": "3"}
    log = tmp_path / "serve.log"

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    with log.open("wb") as sink:
        proc = await asyncio.create_subprocess_exec(
            GAUNTLET, "serve", "--tcp-port", "0", "--http-port", "0",
            "--db", f"sqlite:///{tmp_path / 'g.db'}", "--data-dir", str(tmp_path / "data"),
            "--log-level", "INFO", stdout=asyncio.subprocess.PIPE, stderr=sink, env=env,
            cwd=REPO, preexec_fn=few_files)
    assert proc.stdout is not None
    held: list[asyncio.StreamWriter] = []
    try:
        async with asyncio.timeout(60):
            line = (await proc.stdout.readline()).decode()
        found = re.search(r"HTTP API on http://([\d.]+):(\d+)/api", line)
        assert found, line
        http_port = int(found[2])
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{http_port}",
                                     timeout=30) as client:
            tcp_port = (await client.get("/api/health")).json()["tcp_port"]
        for port, first in ((http_port, PARTIAL), (tcp_port, b"<proto")):
            for _ in range(400):
                _reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(first)
                held.append(writer)

        def failures() -> list[str]:
            text = log.read_text(errors="replace")
            return [ln for ln in text.splitlines()
                    if "accept" in ln.lower() or "too many open files" in ln.lower()]

        async with asyncio.timeout(60):
            while not failures():
                await asyncio.sleep(0.2)
        # The held connections time out, the queued ones get their turn and time out too.
        async with asyncio.timeout(120):
            while True:
                try:
                    if await _health(http_port) == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.5)
        reader, writer = await asyncio.open_connection("127.0.0.1", tcp_port)
        writer.write(b'<protocol><authenticate password="wrong"/>')
        async with asyncio.timeout(60):
            answer = await reader.readuntil(b"</errorpacket>")
        assert b"Failed to authenticate" in answer
        writer.close()
        lines = failures()
        assert 1 <= len(lines) <= 20, "\n".join(lines[:20])
    finally:
        for writer in held:
            writer.close()
        if proc.returncode is None:
            proc.terminate()
        async with asyncio.timeout(30):
            await proc.wait()
