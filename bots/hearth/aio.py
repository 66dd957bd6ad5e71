"""The kit's asyncio I/O layer: the same ``BotSession`` on asyncio streams.

For programs that run many bots in one process (a series runner, the benchmark). Each
protocol step (reading history, ``bot.act()``) runs in a thread of the bot's own, so a
thinking bot never holds up the event loop.

>>> import asyncio
>>> from bots.hearth import RandomBot
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

from bots.hearth.bot import Bot, Outcome
from bots.hearth.kit import (
    CONNECT_TIMEOUT,
    READ_SIZE,
    BotSession,
    ConnectFailed,
    Deck,
    KitError,
    ServerClosed,
    ServerSilent,
    os_reason,
)

__all__ = ["play_async"]


async def play_async(
    bot: Bot,
    host: str,
    port: int,
    reservation: str | tuple[str, str] | None = None,
    *,
    deck: Deck | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float | None = None,
) -> Outcome:
    """Play one game over TCP; the asyncio twin of ``bots.hearth.play``."""
    session = BotSession(bot, reservation=reservation, deck=deck)
    try:
        async with asyncio.timeout(connect_timeout):
            reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as error:
        reason = "timed out" if isinstance(error, TimeoutError) else os_reason(error)
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
        raise ServerClosed(f"connection to {host}:{port} lost: {os_reason(error)}") from None
    finally:
        thinker.shutdown(wait=False, cancel_futures=True)
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(2.0):
                await writer.wait_closed()
    assert session.outcome is not None
    return session.outcome
