"""bots.driver: one error family and one pair of socket loops for both bot kits (issue #25).

The servers here are real loopback sockets that half-close (send FIN) and then read until
the bot hangs up, so a bot never meets a reset and every message is deterministic.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import bots.blokus
import bots.blokus.aio
import bots.blokus.kit
import bots.hearth
import bots.hearth.aio
import bots.hearth.kit
from bots import driver
from protocols import kettle
from protocols.sc import ServerConnection
from protocols.sc import messages as m

WAIT = 60.0  # upper bound for any network wait; nothing asserts on elapsed time
ROOT = Path(__file__).resolve().parents[2]
SHARED = ["KitError", "ConnectFailed", "ServerClosed", "ServerSilent", "ServerRefused",
          "ServerProtocolError", "BotFailed"]
CONSTANTS = ["DEFAULT_HOST", "DEFAULT_PORT", "READ_SIZE", "CONNECT_TIMEOUT", "HELLO_TIMEOUT",
             "WAIT_NOTICE", "WAITING"]


# --- one family of errors -----------------------------------------------------------


@pytest.mark.parametrize("name", SHARED)
def test_the_kits_share_each_error_class(name: str) -> None:
    shared = getattr(driver, name)
    for module in (bots.blokus, bots.blokus.kit, bots.blokus.aio, bots.hearth,
                   bots.hearth.kit, bots.hearth.aio):
        if hasattr(module, name):
            assert getattr(module, name) is shared, module.__name__
    assert bots.blokus.kit.ServerClosed is bots.hearth.kit.ServerClosed
    assert issubclass(shared, driver.KitError)


def test_one_except_catches_both_kits() -> None:
    with pytest.raises(bots.blokus.KitError):
        raise bots.hearth.ServerRefused("nack")


def test_the_kits_share_constants_and_helpers() -> None:
    for name in CONSTANTS:
        assert getattr(bots.blokus.kit, name) == getattr(bots.hearth.kit, name) \
            == getattr(driver, name)
    assert bots.blokus.kit._os_reason is driver.os_reason
    assert bots.hearth.kit.os_reason is driver.os_reason


def test_the_old_imports_still_work() -> None:
    from bots.blokus.aio import play_async  # noqa: F401
    from bots.blokus.kit import READ_SIZE, Bot, KitError, Outcome, _os_reason  # noqa: F401
    from bots.hearth.aio import play_async as hearth_play_async  # noqa: F401
    from bots.hearth.kit import os_reason, parse_reservation, run_with  # noqa: F401

    for module in (bots.blokus, bots.blokus.kit, bots.blokus.aio, bots.hearth,
                   bots.hearth.kit, bots.hearth.aio, driver):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"


def test_no_assert_statements_in_bots() -> None:
    asserts = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "bots").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Assert)
    ]
    assert asserts == []


# --- a server that closes before the result -----------------------------------------


@dataclass
class Closing:
    """What the half-closing server saw: the bytes the bot sent, and the bot hanging up."""

    port: int = 0
    received: bytearray = field(default_factory=bytearray)
    hung_up: asyncio.Event = field(default_factory=asyncio.Event)


@contextlib.asynccontextmanager
async def closing_server(script: bytes = b"") -> AsyncIterator[Closing]:
    """Accepts one bot, writes ``script``, sends FIN, then reads until the bot hangs up."""
    seen = Closing()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            writer.write(script)
            await writer.drain()
            writer.write_eof()
            async with asyncio.timeout(WAIT):
                while data := await reader.read(65536):
                    seen.received += data
        finally:
            seen.hung_up.set()
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    seen.port = server.sockets[0].getsockname()[1]
    async with server:
        yield seen


@dataclass(frozen=True)
class Kit:
    name: str
    bot: Callable[[], Any]
    play: Callable[..., Any]
    play_async: Callable[..., Any]
    joined: bytes  # what the server sends to seat the bot
    abort_mark: bytes  # what the bot sends when it gives up after joining
    aborts_unjoined: bool  # ...and before (Blokus always ends its XML document)


KITS = [
    Kit("blokus", lambda: bots.blokus.RandomBot(1), bots.blokus.kit.play,
        bots.blokus.aio.play_async, ServerConnection().send(m.Joined("r1")),
        b"<close/>\n</protocol>", True),
    Kit("hearth", lambda: bots.hearth.RandomBot(1), bots.hearth.kit.play,
        bots.hearth.aio.play_async, kettle.ServerConnection().send(kettle.GameJoined("g1", 1)),
        b"concede", False),
]
BEFORE_JOIN = "the server closed the connection before we could join"
BEFORE_END = "the server closed the connection before the game was over"


async def play_on(kit: Kit, mode: str, port: int) -> Any:
    if mode == "blocking":
        return await asyncio.to_thread(kit.play, kit.bot(), "127.0.0.1", port)
    return await kit.play_async(kit.bot(), "127.0.0.1", port)


@pytest.mark.parametrize("mode", ["blocking", "asyncio"])
@pytest.mark.parametrize("kit", KITS, ids=lambda kit: kit.name)
async def test_closed_before_join_is_server_closed(kit: Kit, mode: str) -> None:
    async with closing_server() as server:
        with pytest.raises(driver.ServerClosed) as caught:
            await play_on(kit, mode, server.port)
        async with asyncio.timeout(WAIT):
            await server.hung_up.wait()
    assert str(caught.value) == BEFORE_JOIN
    assert (kit.abort_mark in server.received) is kit.aborts_unjoined


@pytest.mark.parametrize("mode", ["blocking", "asyncio"])
@pytest.mark.parametrize("kit", KITS, ids=lambda kit: kit.name)
async def test_closed_after_join_is_server_closed(kit: Kit, mode: str) -> None:
    async with closing_server(kit.joined) as server:
        with pytest.raises(driver.ServerClosed) as caught:
            await play_on(kit, mode, server.port)
        async with asyncio.timeout(WAIT):
            await server.hung_up.wait()
    assert str(caught.value) == BEFORE_END
    assert type(caught.value) is bots.blokus.ServerClosed is bots.hearth.ServerClosed
    assert kit.abort_mark in server.received  # the kit still leaves politely


@pytest.mark.parametrize("kit", KITS, ids=lambda kit: kit.name)
async def test_run_with_exits_1_with_one_error_line(
    kit: Kit, capsys: pytest.CaptureFixture[str]
) -> None:
    run_with = {"blokus": bots.blokus.kit.run_with, "hearth": bots.hearth.kit.run_with}
    async with closing_server() as server:
        code = await asyncio.to_thread(run_with[kit.name], kit.bot(), port=server.port)
        async with asyncio.timeout(WAIT):
            await server.hung_up.wait()
    assert code == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"error: {BEFORE_JOIN}"


# --- a session that finishes without an outcome (the former hearth assert) ----------


class NoResult:
    """A session that stops at the first bytes it gets (even the end of file), with no
    outcome: what the Hearth loops used to ``assert`` away."""

    joined = started = False
    outcome: object | None = None

    def __init__(self) -> None:
        self.finished = False

    def start(self) -> bytes:
        return b"hello"

    def receive_data(self, data: bytes) -> bytes:
        self.finished = True
        return b""

    def abort(self) -> bytes:
        return b""


@pytest.mark.parametrize("mode", ["blocking", "asyncio"])
async def test_finished_without_outcome_raises_server_closed(mode: str) -> None:
    async with closing_server() as server:
        with pytest.raises(driver.ServerClosed, match=r"^the server ended the game without"):
            if mode == "blocking":
                await asyncio.to_thread(driver.drive, NoResult(), "127.0.0.1", server.port,
                                        listener="a test server")
            else:
                await driver.drive_async(NoResult(), "127.0.0.1", server.port, name="t")
        async with asyncio.timeout(WAIT):
            await server.hung_up.wait()
    assert bytes(server.received) == b"hello"


OPTIMIZED_SCRIPT = """
import asyncio, socket, sys, threading
import bots.blokus, bots.blokus.aio, bots.hearth, bots.hearth.aio
from bots import driver

assert False, "asserts are stripped under -O"
listener = socket.create_server(("127.0.0.1", 0))
port = listener.getsockname()[1]

def serve():
    while True:
        conn, _ = listener.accept()
        with conn:
            if conn.recv(1) == b"":  # the stop signal below: a connection closed at once
                return
            conn.shutdown(socket.SHUT_WR)
            while conn.recv(65536):
                pass

thread = threading.Thread(target=serve)
thread.start()

class NoResult:
    joined = started = finished = False
    outcome = None
    def start(self): return b"hello"
    def receive_data(self, data):
        self.finished = True
        return b""
    def abort(self): return b""

attempts = [
    ("drive", lambda: driver.drive(NoResult(), "127.0.0.1", port, listener="x")),
    ("drive_async", lambda: asyncio.run(driver.drive_async(NoResult(), "127.0.0.1", port,
                                                            name="x"))),
    ("hearth.play", lambda: bots.hearth.play(bots.hearth.RandomBot(1), "127.0.0.1", port)),
    ("hearth.play_async", lambda: asyncio.run(
        bots.hearth.aio.play_async(bots.hearth.RandomBot(1), "127.0.0.1", port))),
    ("blokus.play", lambda: bots.blokus.play(bots.blokus.RandomBot(1), "127.0.0.1", port)),
]
for name, attempt in attempts:
    try:
        result = attempt()
    except driver.KitError as error:
        print(name, type(error).__name__)
    else:
        print(name, "returned", result)
socket.create_connection(("127.0.0.1", port)).close()
thread.join()
print("optimize", sys.flags.optimize)
"""


def test_python_O_still_raises() -> None:
    done = subprocess.run([sys.executable, "-O", "-c", OPTIMIZED_SCRIPT], cwd=ROOT,
                          capture_output=True, text=True, timeout=WAIT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "drive ServerClosed",
        "drive_async ServerClosed",
        "hearth.play ServerClosed",
        "hearth.play_async ServerClosed",
        "blokus.play ServerClosed",
        "optimize 1",
    ]
