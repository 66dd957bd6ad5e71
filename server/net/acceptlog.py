"""One log line per `INTERVAL` when a listening socket cannot accept (out of file descriptors).

asyncio reports a failed `accept()` (EMFILE, ENFILE, ENOBUFS, ENOMEM) to the loop's
exception handler, with a traceback, and retries a second later; CPython 3.11 goes on
trying the rest of the backlog in the same tick, each try reported again and scheduling
its own retry (a listener closed before those retries run reports each of them, with a
traceback, too). With the file limit reached, that was 2 million log lines in 20 s. Here
those reports are counted and summed up in one line per interval and listener; every
other report goes to the handler that was there before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

INTERVAL = 10.0
_MESSAGE = "socket.accept() out of system resource"


class _AcceptThrottle:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.previous = loop.get_exception_handler()
        self.last: dict[str, float] = {}  # listener -> when its last line was written
        self.unreported: dict[str, int] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if message == _MESSAGE:
            where = _address(context.get("socket"))
        elif "._start_serving(" in message \
                and isinstance(context.get("exception"), ValueError | OSError):
            where = "a closed listener's retry"
        else:
            if self.previous is not None:
                self.previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        now = loop.time()
        missed = self.unreported.get(where, 0) + 1
        last = self.last.get(where)
        if last is not None and now - last < INTERVAL:
            self.unreported[where] = missed
            return
        self.last[where] = now
        self.unreported[where] = 0
        error = context.get("exception")
        log.error("%s: cannot accept connections (%s); %d failed accepts%s; retrying",
                  where, getattr(error, "strerror", None) or error, missed,
                  "" if last is None else f" in the last {now - last:.0f} s")


def _address(sock: Any) -> str:
    try:
        name = sock.getsockname()
    except Exception:
        return "listener"
    if isinstance(name, tuple) and len(name) >= 2:
        return f"{name[0]}:{name[1]}"
    return str(name)


def throttle_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Sum up `loop`'s accept failures (idempotent; other exceptions are untouched)."""
    if not isinstance(loop.get_exception_handler(), _AcceptThrottle):
        loop.set_exception_handler(_AcceptThrottle(loop))
