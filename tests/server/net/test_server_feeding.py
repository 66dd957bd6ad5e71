"""Received bytes handed to the session in the transport's callback (`server.net.feeding`).

`run_eagerly` and `carry_on` must behave as a task would for the coroutine they run; a
session must handle chunks in the order they arrived even when one's handling waits (the
later ones wait behind it, with the socket's reading paused), and must get the bytes that
arrived before it took the reader over.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Hashable, Iterable
from typing import Any

import pytest

from server.net.feeding import FeedingReader, carry_on, run_eagerly
from server.net.session import READ_SIZE, Outgoing, Session
from server.rooms import Entry, Lobby, Room


class Outcome:
    def __init__(self) -> None:
        self.values: list[Any] = []
        self.errors: list[BaseException] = []

    def done(self, value: Any) -> None:
        self.values.append(value)

    def failed(self, error: BaseException) -> None:
        self.errors.append(error)


async def test_a_coroutine_that_never_waits_finishes_within_the_call() -> None:
    steps: list[str] = []

    async def quick() -> int:
        steps.append("ran")
        return 7

    outcome = Outcome()
    assert run_eagerly(quick(), outcome.done, outcome.failed) is None
    assert steps == ["ran"] and outcome.values == [7] and outcome.errors == []


async def test_a_coroutine_that_waits_carries_on_in_a_task() -> None:
    gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    steps: list[str] = []

    async def waits() -> int:
        steps.append("before")
        got = await gate
        await asyncio.sleep(0)  # a bare yield after a future
        steps.append("after")
        return got + 1

    outcome = Outcome()
    task = run_eagerly(waits(), outcome.done, outcome.failed)
    assert task is not None
    assert steps == ["before"] and outcome.values == []  # the part before the wait ran now
    gate.set_result(41)
    await task
    assert steps == ["before", "after"] and outcome.values == [42] and outcome.errors == []


async def test_errors_reach_the_coroutine_and_then_the_caller() -> None:
    loop = asyncio.get_running_loop()
    first: asyncio.Future[None] = loop.create_future()
    second: asyncio.Future[None] = loop.create_future()
    caught: list[str] = []

    async def fails() -> None:
        try:
            await first
        except KeyError:
            caught.append("first")  # the awaited future's error is raised at the await
        await second
        raise AssertionError("not reached")

    outcome = Outcome()
    task = run_eagerly(fails(), outcome.done, outcome.failed)
    assert task is not None
    first.set_exception(KeyError("x"))
    await asyncio.sleep(0)
    second.set_exception(ValueError("boom"))
    await task
    assert caught == ["first"] and outcome.values == []
    assert [type(e) for e in outcome.errors] == [ValueError]


async def test_cancelling_the_task_cancels_the_wait_and_the_coroutine() -> None:
    gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    cleaned: list[str] = []

    async def waits() -> None:
        try:
            await gate
        finally:
            cleaned.append("finally")

    outcome = Outcome()
    task = run_eagerly(waits(), outcome.done, outcome.failed)
    assert task is not None
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.wait([task])
    assert task.cancelled() and gate.cancelled() and cleaned == ["finally"]
    assert [type(e) for e in outcome.errors] == [asyncio.CancelledError]


async def test_carry_on_passes_a_cancellation_the_coroutine_survives() -> None:
    """A coroutine that catches the cancellation goes on, as under a task."""
    loop = asyncio.get_running_loop()
    gate: asyncio.Future[None] = loop.create_future()
    later: asyncio.Future[str] = loop.create_future()

    async def stubborn() -> str:
        try:
            await gate
        except asyncio.CancelledError:
            return await later
        return "not cancelled"

    coro = stubborn()
    waiting = coro.send(None)
    task = loop.create_task(carry_on(coro, waiting))
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.sleep(0)
    later.set_result("went on")
    assert await task == "went on"


class Recording(Session[str]):
    """A session that records what it handles; a chunk starting b"wait" waits for `gate`."""

    protocol = "test"

    def __init__(self, reader: FeedingReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer, Lobby(), login_timeout=None, write_timeout=0.5)
        self.handled: list[bytes] = []
        self.gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def _feed(self, data: bytes, arrived: float) -> bool:
        if not data:
            return False
        self.handled.append(data)
        if data.startswith(b"wait"):
            await self.gate
            self.handled.append(b"done " + data)
        return True

    def _encode(self, message: str, key: Hashable | None) -> bytes:
        return message.encode()

    def _room_messages(self, room: Room, entry: Entry, seat: int | None
                       ) -> Iterable[Outgoing[str]]:
        return ()

    def _goodbye_bytes(self, server_initiated: bool) -> bytes:
        return b""

    def _refusal_bytes(self, reason: str, detail: str) -> bytes:
        return b""


class Server:
    """A real TCP server running one `Recording` session per connection, as the listener
    does: the first bytes are read before the session takes the reader over."""

    def __init__(self, first_read: int = READ_SIZE, settle: float = 0.0) -> None:
        self.first_read = first_read
        self.settle = settle
        self.sessions: asyncio.Queue[Recording] = asyncio.Queue()
        self.ended: asyncio.Queue[Recording] = asyncio.Queue()

    async def handle(self, reader: FeedingReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(self.settle)  # let more bytes arrive before the hand-over
        first = await reader.read(self.first_read)
        session = Recording(reader, writer)
        self.sessions.put_nowait(session)
        await session.run(first, time.monotonic())
        self.ended.put_nowait(session)


@pytest.fixture
async def serve() -> AsyncIterator[Any]:
    servers: list[asyncio.Server] = []

    async def start(server: Server) -> int:
        loop = asyncio.get_running_loop()
        listening = await loop.create_server(
            lambda: asyncio.StreamReaderProtocol(FeedingReader(READ_SIZE),
                                                 server.handle),  # type: ignore[arg-type]
            "127.0.0.1", 0)
        servers.append(listening)
        return int(listening.sockets[0].getsockname()[1])

    yield start
    for listening in servers:
        listening.close()


async def connected(serve: Any, server: Server) -> asyncio.StreamWriter:
    """`server` started and a client connected to it (the client's writing side)."""
    _, writer = await asyncio.open_connection("127.0.0.1", await serve(server))
    return writer


async def until(condition: Any, what: str) -> None:
    try:
        async with asyncio.timeout(10):
            while not condition():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def test_chunks_behind_a_waiting_one_are_handled_after_it_in_order(serve: Any) -> None:
    server = Server()
    writer = await connected(serve, server)
    writer.write(b"first")
    session = await asyncio.wait_for(server.sessions.get(), 10)
    await until(lambda: session.handled == [b"first"], "first handled")
    writer.write(b"wait-1")
    await until(lambda: session.handled[-1:] == [b"wait-1"], "the waiting chunk")
    writer.write(b"second")
    await asyncio.sleep(0.1)
    writer.write(b"third")
    await asyncio.sleep(0.1)
    # Nothing after the waiting chunk is handled yet, and the socket is not being read.
    assert session.handled == [b"first", b"wait-1"]
    assert not session.writer.transport.is_reading()  # type: ignore[attr-defined]
    session.gate.set_result(None)
    await until(lambda: b"third" in b"".join(session.handled), "the rest")
    assert session.handled[:3] == [b"first", b"wait-1", b"done wait-1"]
    assert b"".join(session.handled[3:]) == b"secondthird"  # in order (maybe one chunk)
    assert session.writer.transport.is_reading()  # type: ignore[attr-defined]
    writer.write(b"fourth")
    await until(lambda: session.handled[-1:] == [b"fourth"], "read again")
    writer.close()
    assert await asyncio.wait_for(server.ended.get(), 10) is session


async def test_bytes_that_arrived_before_the_hand_over_are_handled(serve: Any) -> None:
    server = Server(first_read=5, settle=0.2)
    writer = await connected(serve, server)
    writer.write(b"first")
    await writer.drain()
    await asyncio.sleep(0.05)
    writer.write(b"second")  # both in the reader's buffer before the session starts
    session = await asyncio.wait_for(server.sessions.get(), 10)
    await until(lambda: b"second" in session.handled, "the buffered bytes")
    assert session.handled == [b"first", b"second"]
    writer.close()
    assert await asyncio.wait_for(server.ended.get(), 10) is session


async def test_a_stream_that_ended_before_the_hand_over_ends_the_session(serve: Any) -> None:
    server = Server(first_read=5, settle=0.2)
    writer = await connected(serve, server)
    writer.write(b"firstlast")
    writer.close()  # the end of the stream arrives before the session takes over
    session = await asyncio.wait_for(server.ended.get(), 10)
    assert session.handled == [b"first", b"last"]


async def test_a_client_that_stops_reading_is_dropped_after_the_write_timeout(
        serve: Any) -> None:
    """Writes go out at once while the socket takes them; once the transport has to buffer,
    the write waits for the socket (the next one waits its turn) and gives up after the
    session's write timeout, closing the connection."""
    server = Server()
    port = await serve(server)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and never read
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    try:
        await asyncio.get_running_loop().sock_sendall(sock, b"first")
        session = await asyncio.wait_for(server.sessions.get(), 10)
        assert await session._write("small") is not None  # the socket takes it at once
        assert not session._write_lock.locked()
        big = "x" * (8 << 20)  # more than the socket buffers hold: the transport keeps some
        started = time.monotonic()
        first, second = await asyncio.gather(session._write(big), session._write("next"))
        assert first is None and second is None  # the first timed out, the second was dropped
        assert 0.4 < time.monotonic() - started < 10
        assert session._closed
        assert await asyncio.wait_for(server.ended.get(), 10) is session
    finally:
        sock.close()
