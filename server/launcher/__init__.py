"""Bots the server runs: child processes with bounded logs, limits and failure categories.

Independent of rooms and protocols: a room (or `gauntlet play`, or the ladder) launches a
`BotSpec` for a seat, tells the `BotProcess` when the seat connected and when the match
ended, reads its `failure`, and stops it; for its stderr per move it also tells it when
each decision is asked and answered (`moves`, `usage`). See `process` for the why of each
mechanism, `reaping` for how a bot's strays are ended (and a dead server's bots by the
next one).
"""

from server.launcher.failures import FailureCategory, SeatFailure
from server.launcher.log import BoundedLog, SeatLog
from server.launcher.process import (
    DEFAULT_GRACE,
    DEFAULT_LOG_LIMIT,
    BotProcess,
    kill_all,
    launch,
    live_processes,
)
from server.launcher.reaping import MARK_ENV, reap_orphans
from server.launcher.spec import (
    BOT_DEFAULTS,
    CONNECTION_ARGS,
    RESERVATION_ENV,
    BotSpec,
    ConnectionArgs,
    ResourceLimits,
    WireProtocol,
    default_limits,
    kettle_connection_args,
    minimal_env,
    sc_connection_args,
    set_default_limits,
)

__all__ = [
    "BOT_DEFAULTS",
    "CONNECTION_ARGS",
    "DEFAULT_GRACE",
    "DEFAULT_LOG_LIMIT",
    "MARK_ENV",
    "RESERVATION_ENV",
    "BotProcess",
    "BotSpec",
    "BoundedLog",
    "ConnectionArgs",
    "FailureCategory",
    "ResourceLimits",
    "SeatFailure",
    "SeatLog",
    "WireProtocol",
    "default_limits",
    "kettle_connection_args",
    "kill_all",
    "launch",
    "live_processes",
    "minimal_env",
    "reap_orphans",
    "sc_connection_args",
    "set_default_limits",
]
