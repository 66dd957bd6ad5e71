"""``python -m bots.blokus BOT [--seed N] [-h HOST] [-p PORT] [-r CODE]``: one game.

Plays one Software-Challenge game with a bundled bot (``random``, ``greedy``) or any
``module:Class`` / ``file.py:Class``; the exit code is ``run``'s. ``gauntlet play`` runs
every seat of a series this way, as a child process that can be stopped whatever the
bot does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bots.blokus.bundled import BUNDLED, BotLoadError, load_bot
from bots.blokus.kit import add_connection_arguments, run_with


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, play one game, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bots.blokus", add_help=False,
                                     description="Play one Blokus game with a bot.")
    parser.add_argument("--help", action="help", help="show this help and exit")
    parser.add_argument("bot", help=f"{', '.join(sorted(BUNDLED))}, module:Class or file.py:Class")
    parser.add_argument("--seed", type=int, default=None, help="the bot's seed")
    parser.add_argument("--check", action="store_true",
                        help="load the bot and exit: 0 when it loads (the API's registration)")
    add_connection_arguments(parser)
    args = parser.parse_args(argv)
    try:
        bot = load_bot(args.bot, args.seed)
    except BotLoadError as error:
        print(error.user_traceback, end="", file=sys.stderr)
        print(f"error: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.check:
        return 0
    return run_with(bot, host=args.host, port=args.port, reservation=args.reservation,
                    room_id=args.room, idle_timeout=args.idle_timeout, verbose=args.verbose)


if __name__ == "__main__":
    sys.exit(main())
