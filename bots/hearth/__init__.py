"""Hearth bots: the bot interface (``Bot``), the bundled ``hearth-random`` and
``hearth-greedy`` bots, and engine-level games between bots (``play_game``).

>>> from bots.hearth import BUNDLED, GreedyBot, play_game
>>> sorted(BUNDLED)
['hearth-greedy', 'hearth-random']
"""

from bots.hearth.bot import Bot, Outcome
from bots.hearth.bundled import BUNDLED, GreedyBot, RandomBot, load_bot
from bots.hearth.local import IllegalBotAction, play_game

__all__ = [
    "BUNDLED",
    "Bot",
    "GreedyBot",
    "IllegalBotAction",
    "Outcome",
    "RandomBot",
    "load_bot",
    "play_game",
]
