"""Blokus bots: the bot kit (``Bot``, ``run``) and the bundled ``random`` and ``greedy`` bots.

>>> from bots.blokus import Bot, run, RandomBot, GreedyBot
>>> sorted(BUNDLED)
['greedy', 'random']
"""

from bots.blokus.bundled import BUNDLED, GreedyBot, RandomBot, load_bot
from bots.blokus.kit import (
    Bot,
    BotFailed,
    BotSession,
    ConnectFailed,
    KitError,
    Outcome,
    ServerClosed,
    ServerProtocolError,
    ServerRefused,
    ServerSilent,
    play,
    run,
)

__all__ = [
    "BUNDLED",
    "Bot",
    "BotFailed",
    "BotSession",
    "ConnectFailed",
    "GreedyBot",
    "KitError",
    "Outcome",
    "RandomBot",
    "ServerClosed",
    "ServerProtocolError",
    "ServerRefused",
    "ServerSilent",
    "load_bot",
    "play",
    "run",
]
