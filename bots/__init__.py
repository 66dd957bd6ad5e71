"""Bundled bots that speak the real protocols over TCP."""

import os

RESERVATION_ENV = "GAUNTLET_RESERVATION"
"""Where a bot launched by the server finds its reservation code (Kettle: GAME_ID:PASSWORD):
the server never puts it on the command line, which every local user can read.
The same name as `server.launcher.RESERVATION_ENV`; the kits take no server import."""


def reservation_from_env() -> str | None:
    """The launcher's reservation code, or None (unset or empty: join any open room)."""
    return os.environ.get(RESERVATION_ENV) or None
