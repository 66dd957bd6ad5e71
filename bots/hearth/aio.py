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

from bots import driver
from bots.hearth.bot import Bot, Outcome
from bots.hearth.kit import CONNECT_TIMEOUT, BotSession, Deck

# Names this module used to import, still importable from it (the loop is bots.driver's).
from bots.hearth.kit import READ_SIZE as READ_SIZE
from bots.hearth.kit import ConnectFailed as ConnectFailed
from bots.hearth.kit import KitError as KitError
from bots.hearth.kit import ServerClosed as ServerClosed
from bots.hearth.kit import ServerSilent as ServerSilent
from bots.hearth.kit import os_reason as os_reason

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
    return await driver.drive_async(session, host, port, name=bot.name,
                                    connect_timeout=connect_timeout, idle_timeout=idle_timeout)
