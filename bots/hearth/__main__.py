"""``python -m bots.hearth BOT [-h HOST] [-p PORT] [-r GAME_ID:PASSWORD] [--seed N]``.

Plays one game over Kettle with a bundled bot (``hearth-random``, ``hearth-greedy``) or
any ``module:Class`` / ``file.py:Class``; the exit code is ``run``'s.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bots.hearth.bundled import BUNDLED, load_bot
from bots.hearth.kit import add_connection_arguments, run_with


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, play one game, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bots.hearth", add_help=False,
                                     description="Play one Kettle game with a Hearth bot.")
    parser.add_argument("--help", action="help", help="show this help and exit")
    parser.add_argument("bot", help=f"{', '.join(sorted(BUNDLED))}, module:Class or file.py:Class")
    parser.add_argument("--seed", type=int, default=None, help="the bot's seed")
    parser.add_argument("--check", action="store_true",
                        help="load the bot and exit: 0 when it loads (the API's registration)")
    add_connection_arguments(parser)
    args = parser.parse_args(argv)
    try:
        bot = load_bot(args.bot, args.seed)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.check:
        return 0
    return run_with(bot, host=args.host, port=args.port, reservation=args.reservation,
                    idle_timeout=args.idle_timeout, verbose=args.verbose)


if __name__ == "__main__":
    sys.exit(main())
