"""The Blokus bots that come with Gauntlet (`bots.blokus`), as a server launches them, the
bot kit as `gauntlet play` and `gauntlet bot` run it, and the rules in English for
`gauntlet play`'s report of an illegal move."""

from __future__ import annotations

import sys
from pathlib import Path

from server.games.registry import BotKit, BundledBot, module_command


def bundled() -> tuple[BundledBot, ...]:
    """`random` and `greedy`: the bot kit's own command line, else `gauntlet bot`."""
    gauntlet = Path(sys.executable).with_name("gauntlet")
    found = []
    for name in ("random", "greedy"):
        argv = module_command("bots.blokus", name)
        if argv is None and gauntlet.exists():
            argv = (str(gauntlet), "bot", f"blokus-{name}")
        if argv is not None:
            found.append(BundledBot(name, argv))
    return tuple(found)


def kit() -> BotKit | None:
    """The Blokus bot kit (`bots.blokus`, over the Software-Challenge protocol), or None
    when it is not installed here."""
    try:
        from bots.blokus.aio import play_async
        from bots.blokus.bundled import BUNDLED, bot_factory
        from bots.blokus.kit import run_with
    except ImportError:
        return None
    return BotKit(module="bots.blokus", protocol="sc", prefix="blokus-",
                  names=tuple(BUNDLED), load=bot_factory, run=run_with, play_async=play_async)


_ENGLISH = {
    "WRONG_COLOR": "only your own colour may be moved",
    "WRONG_SHAPE": "the first move must place the given start piece",
    "DUPLICATE_SHAPE": "that piece has been placed already",
    "OUT_OF_BOUNDS": "the piece does not fit on the board",
    "OBSTRUCTED": "the piece would cover another piece",
    "TOUCHES_SAME_COLOR": "the piece touches its own colour along an edge",
    "NOT_ON_BORDER": "the first piece must touch the board's edge",
    "NO_SHARED_CORNER": "every piece must touch a piece of its colour at a corner",
    "SKIP_FIRST_TURN": "the first move must place a piece, not skip",
    "GAME_OVER": "the game is over already",
}


def explain(reason: str) -> str | None:
    """The rule a rule-violation reason text (the official German one) names, in English
    (None: no known rule).

    >>> explain("Regelverletzung von a: Der Spielstein passt nicht vollständig auf das "
    ...         "Spielfeld bei 'x'")
    'the piece does not fit on the board'
    """
    from games.blokus import Mistake

    for mistake in Mistake:
        if mistake.text in reason:
            return _ENGLISH.get(mistake.name)
    return None
