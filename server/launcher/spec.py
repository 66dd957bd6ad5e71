"""What to run for a seat: `BotSpec`, resource limits and each protocol's connection flags.

A spec is plain data (it is registered once and launched for many matches); the host and
port are only known per match, so they are appended at launch time by the protocol's flag
function. The reservation is a secret and never goes into argv (every local user can read
any process's command line in /proc): the launcher hands it over in the bot's environment,
`GAUNTLET_RESERVATION` (`RESERVATION_ENV`), which only the bot's own user can read.

>>> spec = BotSpec("greedy", "blokus", ["python", "bot.py"], protocol="sc")
>>> spec.command("127.0.0.1", 13050)
['python', 'bot.py', '--host', '127.0.0.1', '--port', '13050']
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal

WireProtocol = Literal["sc", "kettle"]
"""The protocol a bot speaks; the names match `server.net.sniff`."""

ConnectionArgs = Callable[[str, int], list[str]]
"""(host, port) -> the arguments appended to the bot's argv."""

RESERVATION_ENV: Final = "GAUNTLET_RESERVATION"
"""The variable that carries a launched bot's reservation code (Kettle: GAME_ID:PASSWORD).
Unset when the bot is to join any open room. The bot kits read it when no
`-r/--reservation` flag is given (docs/bots.md)."""


def sc_connection_args(host: str, port: int) -> list[str]:
    """The official Software-Challenge start scripts' host and port flags.

    The third official flag, `--reservation`, is not passed: see `RESERVATION_ENV`.
    """
    return ["--host", host, "--port", str(port)]


def kettle_connection_args(host: str, port: int) -> list[str]:
    """Kettle has no official launcher, so we define it: the same long flags.

    One flag style for both protocols means a bot author learns one thing, and the
    Kettle kit parses them with the same argument parser as the Software-Challenge kit.
    """
    return sc_connection_args(host, port)


CONNECTION_ARGS: Final[Mapping[str, ConnectionArgs]] = MappingProxyType({
    "sc": sc_connection_args,
    "kettle": kettle_connection_args,
})

# What a bot inherits from the server's environment: enough to find programs, write temp
# files and decode text; never the server's secrets (GAUNTLET_*, database URLs, tokens).
INHERITED_ENV: Final = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR")


def minimal_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables of `INHERITED_ENV` and every `LC_*` locale variable from `base`.

    >>> minimal_env({"PATH": "/bin", "LC_ALL": "C.UTF-8", "GAUNTLET_ADMIN_PASSWORD": "x"})
    {'PATH': '/bin', 'LC_ALL': 'C.UTF-8'}
    """
    source = os.environ if base is None else base
    return {k: v for k, v in source.items() if k in INHERITED_ENV or k.startswith("LC_")}


@dataclass(frozen=True, slots=True)
class ResourceLimits:
    """Per-process limits set in the child before the bot's program is executed.

    `memory_bytes` is RLIMIT_AS (address space, not resident memory: a JVM reserves far
    more than it uses, so give Java bots `-Xmx` instead); `cpu_seconds` is RLIMIT_CPU
    (the bot gets SIGXCPU, one second later SIGKILL). Both count per process: a bot's
    children get limits of their own. None = no limit.
    """

    memory_bytes: int | None = None
    cpu_seconds: int | None = None

    def __post_init__(self) -> None:
        for name in ("memory_bytes", "cpu_seconds"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive or None, not {value}")


MiB: Final = 1 << 20
DEFAULT_BOT_MEMORY_MB: Final = 4096
DEFAULT_BOT_CPU_SECONDS: Final = 600
BOT_DEFAULTS: Final = ResourceLimits(memory_bytes=DEFAULT_BOT_MEMORY_MB * MiB,
                                     cpu_seconds=DEFAULT_BOT_CPU_SECONDS)
"""What a bot launched by the server gets unless its spec says otherwise: 4 GiB of
address space and 10 minutes of CPU time per process (a Blokus player thinks at most
2 s per move for at most 84 moves). `gauntlet serve` sets them from GAUNTLET_BOT_MEMORY_MB
and GAUNTLET_BOT_CPU_SECONDS (0 disables) through `set_default_limits`."""

_defaults: list[ResourceLimits] = [BOT_DEFAULTS]


def default_limits() -> ResourceLimits:
    """The limits of a bot whose spec names none.

    >>> default_limits().cpu_seconds
    600
    """
    return _defaults[0]


def set_default_limits(limits: ResourceLimits) -> None:
    """Replace the default limits (the server's settings; `ResourceLimits()`: none)."""
    _defaults[0] = limits


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A registered bot: what to execute, where, with which environment and protocol.

    `argv` is executed directly (no shell; `argv[0]` is looked up on the bot's PATH,
    relative paths are relative to `cwd`). `env` is merged over `minimal_env()`.
    """

    name: str
    game: str
    argv: Sequence[str]
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    protocol: WireProtocol = "sc"
    # None: the launcher's defaults at launch time (`default_limits()`).
    limits: ResourceLimits | None = None

    def __post_init__(self) -> None:
        # Frozen copies: a caller mutating its list later must not change a registered bot.
        object.__setattr__(self, "argv", tuple(self.argv))
        object.__setattr__(self, "env", MappingProxyType(dict(self.env)))
        if not self.argv:
            raise ValueError(f"bot {self.name!r}: argv is empty")
        if self.protocol not in CONNECTION_ARGS:
            raise ValueError(f"bot {self.name!r}: unknown protocol {self.protocol!r}")

    def command(self, host: str, port: int) -> list[str]:
        """The full argv for one match: the spec's argv plus the protocol's flags."""
        return [*self.argv, *CONNECTION_ARGS[self.protocol](host, port)]

    def environment(self, base: Mapping[str, str] | None = None,
                    reservation: str | None = None) -> dict[str, str]:
        """The child's environment: `minimal_env(base)` overlaid with the spec's `env`,
        and `RESERVATION_ENV` set to `reservation` (removed when None: a registered
        bot's own `env` must not make it take somebody else's seat).

        >>> BotSpec("b", "blokus", ["bot"]).environment({}, "code")
        {'GAUNTLET_RESERVATION': 'code'}
        """
        env = {**minimal_env(base), **self.env}
        env.pop(RESERVATION_ENV, None)
        if reservation is not None:
            env[RESERVATION_ENV] = reservation
        return env
