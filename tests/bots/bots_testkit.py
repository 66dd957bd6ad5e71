"""Helpers for the bot tests: an in-process server, a raw admin, a fake server, CLI runs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from protocols.base import NEED_DATA
from protocols.sc import ClientConnection
from protocols.sc import messages as m
from server.config import ServerConfig
from server.runtime import GauntletServer

WAIT = 60.0  # upper bound for any network wait; no test asserts on elapsed time
PASSWORD = "bots-test-password"
ROOT = Path(__file__).resolve().parents[2]
GAUNTLET = [sys.executable, "-c", "from server.cli import app; app()"]


@contextlib.asynccontextmanager
async def running_server(tmp_path: Path, **options: object) -> AsyncIterator[GauntletServer]:
    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=tmp_path, **options)
    async with GauntletServer(config) as server:
        yield server


async def prepare(port: int, names: tuple[str, str] = ("a", "b")) -> m.Prepared:
    """A prepared game made through a throwaway admin connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = ClientConnection()
    writer.write(conn.send(m.Authenticate(PASSWORD))
                 + conn.send(m.Prepare(slots=tuple(m.Slot(n) for n in names))))
    try:
        async with asyncio.timeout(WAIT):
            while True:
                event = conn.next_event()
                if event is NEED_DATA:
                    data = await reader.read(65536)
                    assert data, "server closed the admin connection"
                    conn.receive_data(data)
                elif isinstance(event, m.Prepared):
                    return event
                else:
                    raise AssertionError(f"unexpected {event!r}")
    finally:
        writer.write(conn.send(m.Close()) + conn.close())
        writer.close()


async def run_cli(*args: str) -> tuple[int, str, str]:
    """`gauntlet ARGS` in a subprocess: (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = await asyncio.create_subprocess_exec(
        *GAUNTLET, *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        async with asyncio.timeout(WAIT):
            out, err = await process.communicate()
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@contextlib.asynccontextmanager
async def fake_server(script: bytes, *, close_after: bool = True) -> AsyncIterator[int]:
    """A TCP server that reads the client's join, writes `script`, then hangs up."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(WAIT):
                await reader.read(65536)
            writer.write(script)
            await writer.drain()
            if not close_after:
                await reader.read(65536)
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


def free_port() -> int:
    """A port nobody listens on (bound and released at once)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
