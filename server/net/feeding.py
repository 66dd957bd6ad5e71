"""Received bytes handed to their session as the transport delivers them, no reader task.

With `asyncio.StreamReader` every message costs a wake-up: the transport's callback buffers
the bytes and resolves a future, and the session's reader task runs in a later loop turn
to read them back. A match server's hot path is one small message per move, so that
hand-over was a fixed cost on every move. `FeedingReader` buffers like a `StreamReader`
until a session takes it over (`attach`: the listener reads the first bytes to tell the
protocol first); from then on each chunk goes straight to the session's sink, called from
the transport's own callback.

The session handles a chunk right there when it can (`run_eagerly`): almost always its
handling never waits (a move goes into its room's inbox), and it is done within the call.
When it does wait (a full socket, a write lock held by another writer, a deliberate yield)
`carry_on` finishes it in a task of its own, as a task started eagerly would
(`asyncio.eager_task_factory`, which Python has from 3.12 on).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, SupportsIndex, TypeVar

T = TypeVar("T")

Sink = Callable[[bytes | BaseException], None]
"""Gets each received chunk; b"" at the end of the stream, the exception if it failed."""


class FeedingReader(asyncio.StreamReader):
    """A `StreamReader` whose bytes go to a sink once one is attached."""

    _sink: Sink | None = None
    # StreamReader's own (typeshed leaves them out): what arrived since the last read, its
    # transport and whether it paused that.
    _buffer: bytearray
    _transport: asyncio.Transport | None
    _paused: bool

    def attach(self, sink: Sink) -> None:
        """From now on every chunk goes to `sink`, starting with what is buffered."""
        self._sink = sink
        buffered = bytes(self._buffer)
        self._buffer.clear()
        self._maybe_resume_transport()  # type: ignore[attr-defined]
        if buffered:
            sink(buffered)
        failure = self.exception()
        if failure is not None:
            sink(failure)
        elif self.at_eof():
            sink(b"")

    def pause(self) -> None:
        """Stop reading from the socket (the sink is busy) until `resume`."""
        if not self._paused and self._transport is not None:
            self._paused = True
            self._transport.pause_reading()

    def resume(self) -> None:
        if self._paused and self._transport is not None:
            self._paused = False
            self._transport.resume_reading()

    def detach(self) -> None:
        """Nothing more goes to the sink (the session has ended)."""
        self._sink = _ignore

    def feed_data(self, data: Iterable[SupportsIndex]) -> None:
        if self._sink is None:
            super().feed_data(data)
        else:
            self._sink(bytes(data))  # the transport's chunk: bytes already, not copied

    def feed_eof(self) -> None:
        super().feed_eof()
        if self._sink is not None:
            self._sink(b"")

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)
        if self._sink is not None:
            self._sink(exc)


def _ignore(_: bytes | BaseException) -> None:
    return None


def run_eagerly(coro: Coroutine[Any, Any, T], done: Callable[[T], None],
                failed: Callable[[BaseException], None]) -> asyncio.Task[None] | None:
    """Run `coro` now, in this call, up to its end or its first wait; `done` gets its value
    and `failed` what it raised. When it waits, the rest runs in the returned task (None:
    it finished here)."""
    try:
        waiting = coro.send(None)
    except StopIteration as stop:
        done(stop.value)
        return None
    except BaseException as exc:  # handed to `failed`, which decides
        failed(exc)
        return None

    async def rest() -> None:
        try:
            value = await carry_on(coro, waiting)
        except BaseException as exc:
            failed(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        done(value)

    return asyncio.get_running_loop().create_task(rest())


async def carry_on(coro: Coroutine[Any, Any, T], waiting: Any) -> T:
    """Finish `coro` in the current task from where it stopped outside any task: it yielded
    `waiting`, the future it waits for (None: a bare yield, `asyncio.sleep(0)`). A
    cancellation is passed on to that future and thrown into `coro`, as a task does."""
    while True:
        try:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                waiting._asyncio_future_blocking = False  # as a task does before it waits
                await asyncio.wait((waiting,))  # its outcome is read by `coro` itself
        except asyncio.CancelledError as cancelled:
            if waiting is not None:
                waiting.cancel()
            try:
                waiting = coro.throw(cancelled)
            except StopIteration as stop:
                return stop.value
            continue
        try:
            waiting = coro.send(None)
        except StopIteration as stop:
            return stop.value
