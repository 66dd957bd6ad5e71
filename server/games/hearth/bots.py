"""The Hearth bots that come with Gauntlet (`bots.hearth`), as a server launches them."""

from __future__ import annotations

from server.games.registry import BundledBot, module_command


def bundled() -> tuple[BundledBot, ...]:
    """`hearth-random` and `hearth-greedy`, when the bot kit is installed."""
    found = []
    for name in ("hearth-random", "hearth-greedy"):
        argv = module_command("bots.hearth", name)
        if argv is not None:
            found.append(BundledBot(name, argv))
    return tuple(found)
