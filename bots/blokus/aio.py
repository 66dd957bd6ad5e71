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

from bots import driver
from bots.blokus.kit import CONNECT_TIMEOUT, Bot, BotSession, Outcome

# Names this module used to import, still importable from it (the loop is bots.driver's).
from bots.blokus.kit import READ_SIZE as READ_SIZE
from bots.blokus.kit import ConnectFailed as ConnectFailed
from bots.blokus.kit import KitError as KitError
from bots.blokus.kit import ServerClosed as ServerClosed
from bots.blokus.kit import ServerSilent as ServerSilent
from bots.blokus.kit import _os_reason as _os_reason

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
    return await driver.drive_async(session, host, port, name=bot.name,
                                    connect_timeout=connect_timeout, idle_timeout=idle_timeout)
