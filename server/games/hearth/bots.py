"""The Hearth bots that come with Gauntlet (`bots.hearth`), as a server launches them, and
the bot kit as `gauntlet play` and `gauntlet bot` run it."""

from __future__ import annotations

from typing import Any

from server.games.registry import BotKit, BundledBot, module_command


def bundled() -> tuple[BundledBot, ...]:
    """`hearth-random` and `hearth-greedy`, when the bot kit is installed."""
    found = []
    for name in ("hearth-random", "hearth-greedy"):
        argv = module_command("bots.hearth", name)
        if argv is not None:
            found.append(BundledBot(name, argv))
    return tuple(found)


def kit() -> BotKit | None:
    """The Hearth bot kit (`bots.hearth`, over Kettle), or None when it is not installed.
    Its bundled bots keep their prefix (`hearth-random`); a reservation is
    `GAME_ID:PASSWORD`."""
    try:
        from bots.hearth.aio import play_async
        from bots.hearth.bundled import BUNDLED, bot_factory
        from bots.hearth.kit import parse_reservation, run_with
    except ImportError:
        return None

    def run(bot: Any, *, room_id: str | None = None, **options: Any) -> int:
        # Kettle joins a game by its reservation alone: there is no room to name.
        return run_with(bot, **options)

    return BotKit(module="bots.hearth", protocol="kettle", prefix="hearth-",
                  names=tuple(BUNDLED), load=bot_factory, run=run, play_async=play_async,
                  check_reservation=parse_reservation)
