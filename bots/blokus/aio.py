"""The kit's asyncio I/O layer: the same ``BotSession`` on asyncio streams.

Used by ``gauntlet play`` and the benchmark to run many bots in one process. Each bot's
protocol step (parsing the memento, ``bot.move()``) runs in a thread of its own, so that a
thinking bot never holds up the event loop: an in-process server and the other bots keep
reading their sockets, and nobody's move is stamped late because a neighbour was
thinking. Threads share the GIL, so CPU-hungry bots still share the cores: play them one
game at a time (``gauntlet play`` does so by default for non-bundled bots) or in their own
processes with ``bots.blokus.run``.

>>> import asyncio
>>> from bots.blokus import RandomBot, ConnectFailed
>>> async def nobody_home():
...     try:
...         await play_async(RandomBot(1), "127.0.0.1", 1)
...     except ConnectFailed as error:
...         return "cannot connect" in str(error)
>>> asyncio.run(nobody_home())
True
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from concurrent.futures import ThreadPoolExecutor

from bots.blokus.kit import (
    CONNECT_TIMEOUT,
    READ_SIZE,
    Bot,
    BotSession,
    ConnectFailed,
    KitError,
    Outcome,
    ServerClosed,
    ServerSilent,
    _os_reason,
)

__all__ = ["play_async"]


async def play_async(
    bot: Bot,
    host: str,
    port: int,
    reservation: str | None = None,
    *,
    room_id: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float | None = None,
) -> Outcome:
    """Play one game over TCP; the asyncio twin of ``bots.blokus.play``."""
    session = BotSession(bot, reservation=reservation, room_id=room_id)
    try:
        async with asyncio.timeout(connect_timeout):
            reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as error:
        reason = "timed out" if isinstance(error, TimeoutError) else _os_reason(error)
        raise ConnectFailed(f"cannot connect to {host}:{port}: {reason}") from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    loop = asyncio.get_running_loop()
    thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bot-{bot.name}")
    try:
        writer.write(session.start())
        await writer.drain()
        while not session.finished:
            try:
                async with asyncio.timeout(idle_timeout):
                    data = await reader.read(READ_SIZE)
            except TimeoutError:
                raise ServerSilent(
                    f"no message from {host}:{port} for {idle_timeout} s; giving up"
                ) from None
            reply = await loop.run_in_executor(thinker, session.receive_data, data)
            if reply:
                writer.write(reply)
                await writer.drain()
    except KitError:
        with contextlib.suppress(OSError, RuntimeError):
            writer.write(session.abort())
        raise
    except OSError as error:
        raise ServerClosed(f"connection to {host}:{port} lost: {_os_reason(error)}") from None
    finally:
        thinker.shutdown(wait=False, cancel_futures=True)
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(2.0):
                await writer.wait_closed()
    if session.outcome is None:
        raise ServerClosed("the server ended the game without a result")
    return session.outcome
