"""The Blokus bots that come with Gauntlet (`bots.blokus`), as a server launches them."""

from __future__ import annotations

import sys
from pathlib import Path

from server.games.registry import BundledBot, module_command


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
