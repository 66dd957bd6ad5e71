"""Hearth bots: the Kettle bot kit, the bundled ``hearth-random`` and ``hearth-greedy``
bots, and engine-level games between bots.

- ``Bot`` (``mulligan(state, choices)``, ``choose(state, choices, count_min, count_max)``
  for a mid-turn choice, ``act(state, options)``), ``Outcome``;
- ``BotSession`` (sans-I/O, on the Kettle codec), ``play`` (blocking sockets), ``run``
  (``python my_bot.py -h HOST -p PORT [-r GAME_ID:PASSWORD]``),
  ``bots.hearth.aio.play_async``;
- ``BUNDLED``, ``RandomBot``, ``GreedyBot``, ``load_bot`` (``name``, ``module:Class`` or
  ``file.py:Class``);
- ``play_game``: two bots on the engine alone, no codec, no socket.

>>> from bots.hearth import BUNDLED, GreedyBot, play_game
>>> sorted(BUNDLED)
['hearth-greedy', 'hearth-random']
"""

from bots.hearth.bot import Bot, Outcome
from bots.hearth.bundled import BUNDLED, GreedyBot, RandomBot, load_bot
from bots.hearth.kit import (
    BotFailed,
    BotSession,
    ConnectFailed,
    KitError,
    ServerClosed,
    ServerProtocolError,
    ServerRefused,
    ServerSilent,
    play,
    run,
)
from bots.hearth.local import IllegalBotAction, play_game
from bots.hearth.tree import EntityTree, TreeEntity

__all__ = [
    "BUNDLED",
    "Bot",
    "BotFailed",
    "BotSession",
    "ConnectFailed",
    "EntityTree",
    "GreedyBot",
    "IllegalBotAction",
    "KitError",
    "Outcome",
    "RandomBot",
    "ServerClosed",
    "ServerProtocolError",
    "ServerRefused",
    "ServerSilent",
    "TreeEntity",
    "load_bot",
    "play",
    "play_game",
    "run",
]
