"""Every `GAUNTLET_*` environment variable, its type and its default: one settings class.

Where a value comes from, first match wins: a command-line option, the environment
(`GAUNTLET_<FIELD>`, an empty variable counts as unset), the default written here. The
commands read this once at start-up (`load_settings`) and build the runtime
`server.config.ServerConfig` from it; nothing else reads `GAUNTLET_*` variables.

>>> settings = load_settings(tcp_port=0)
>>> settings.tcp_port
0
>>> env_name("database_url")
'GAUNTLET_DATABASE_URL'
>>> DEFAULTS.tcp_port, DEFAULTS.http_port, DEFAULTS.database_url
(13050, 8000, 'sqlite:///./data/gauntlet.db')
>>> load_settings(soft_timeout=-1.0)
Traceback (most recent call last):
...
server.settings.SettingsError: --soft-timeout -1.0: Input should be greater than 0
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ENV_PREFIX = "GAUNTLET_"

Port = Annotated[int, Field(ge=0, le=65535)]
Seconds = Annotated[float, Field(gt=0)]


class Settings(BaseSettings):
    """What an operator can set without touching code; see the table in docs/server.md."""

    # extra="forbid": a misspelt keyword from our own code fails loudly. Unknown
    # GAUNTLET_* variables are never an error (tests use GAUNTLET_REGEN_GOLDEN, for one).
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_ignore_empty=True, extra="forbid", frozen=True,
    )

    # Loopback only unless told otherwise, as the official server (`local=true`).
    host: str = "127.0.0.1"
    tcp_port: Port = 13050
    http_port: Port = 8000
    # The official server's move clocks.
    soft_timeout: Seconds = 2.0
    hard_timeout: Seconds = 10.0
    # Hearth's clocks: each decision, and all decisions of one turn together.
    decision_timeout: Seconds = 10.0
    turn_timeout: Seconds = 75.0
    no_timeout: bool = False
    # The official code's default is not paused, although its docs say otherwise.
    paused: bool = False
    data_dir: Path = Path("data")
    database_url: str = "sqlite:///./data/gauntlet.db"
    save_replays: bool = False
    replay_dir: Path = Path("replays")
    gzip_replays: bool = False
    log_level: str = "INFO"
    # Secrets: unset means "generate one" (the admin password, stored under data_dir) or
    # "disabled" (the token, for the coming HTTP API). SecretStr keeps them out of reprs.
    admin_password: SecretStr | None = None
    admin_token: SecretStr | None = None
    # The ladder (docs/ladder.md): matches kept running (unset: one fewer than the cores),
    # and whether a first start runs it for every game with two registered bots.
    ladder_concurrency: Annotated[int, Field(ge=1, le=256)] | None = None
    ladder_autostart: bool = False
    # Seconds between two moves of a ladder match at least, for people watching (unset:
    # as fast as the bots; `make run`'s demo ladder: 0.2).
    ladder_min_move_time: Annotated[float, Field(ge=0, le=60)] | None = None
    # Scale-out (docs/scale.md): unset broker = everything in one process, as before. The
    # broker is Redis (Celery's transport); the Redis URL carries the spectators' pub/sub
    # (unset: the broker's). The visibility timeout must exceed the longest match: a job
    # not acknowledged by then (its worker died) is handed to another worker.
    broker_url: str | None = None
    redis_url: str | None = None
    visibility_timeout: Annotated[int, Field(ge=1)] = 3600
    max_queued: Annotated[int, Field(ge=1)] = 32

    # What the store keeps (docs/server.md, "Disk"): the events of ended matches for this
    # many days (0: for ever; results, seats and ratings are always kept), and matches that
    # ended without a move for this many minutes (0: for ever).
    event_retention_days: Annotated[float, Field(ge=0)] = 0
    unplayed_retention_minutes: Annotated[float, Field(ge=0)] = 60

    # Limits on what clients may hold (docs/reliability.md). The login timeout closes a
    # TCP connection that has joined nothing (nor authenticated) after that many seconds.
    max_connections: Annotated[int, Field(ge=1)] = 1000
    max_connections_per_address: Annotated[int, Field(ge=1)] = 64
    max_loopback_connections: Annotated[int, Field(ge=1)] = 512
    # Rooms opened by unauthenticated SC joins and Kettle queue_players, open at once.
    max_join_rooms: Annotated[int, Field(ge=1)] = 512
    max_join_rooms_per_address: Annotated[int, Field(ge=1)] = 256
    login_timeout: Seconds = 10.0
    http_max_body_bytes: Annotated[int, Field(ge=1024)] = 1 << 20
    max_websockets_per_address: Annotated[int, Field(ge=1)] = 32
    # HTTP: a request must be in within this many seconds of its first byte; at most this
    # many connections (WebSockets included) at once. Host names the HTTP API answers to
    # besides loopback, IP addresses and `host` (comma-separated; `*`: any).
    http_header_timeout: Seconds = 10.0
    http_max_connections: Annotated[int, Field(ge=8)] = 256
    allowed_hosts: str = ""
    # Bots the server launches: address space in MiB and CPU seconds per process (0: none).
    bot_memory_mb: Annotated[int, Field(ge=0)] = 4096
    bot_cpu_seconds: Annotated[int, Field(ge=0)] = 600

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError("should be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @property
    def pubsub_url(self) -> str | None:
        """Where the spectators' live frames of a cluster go: the Redis URL, else the
        broker's (None: one process)."""
        return self.redis_url or self.broker_url


# The defaults alone: model_construct() skips validation and so never reads the environment.
# Option defaults in --help and ServerConfig's field defaults come from here.
DEFAULTS = Settings.model_construct()


class SettingsError(ValueError):
    """Invalid settings; `str()` names each variable or option and says what is wrong."""


def env_name(field: str) -> str:
    """The environment variable of a settings field."""
    return ENV_PREFIX + field.upper()


def load_settings(**options: Any) -> Settings:
    """The settings: `options` (values given on the command line) over the environment.

    An option of None counts as not given, so commands can pass every option they have.
    """
    given = {name: value for name, value in options.items() if value is not None}
    try:
        return Settings(**given)
    except ValidationError as error:
        raise SettingsError(_describe(error, given)) from None


def _describe(error: ValidationError, given: dict[str, Any]) -> str:
    lines = []
    for problem in error.errors(include_url=False):
        field = str(problem["loc"][0]) if problem["loc"] else ""
        message = problem["msg"].removeprefix("Value error, ")
        if field in given:
            source = f"--{field.replace('_', '-')} {given[field]}"
        elif field in Settings.model_fields:
            # A secret's value is never echoed back.
            secret = field in ("admin_password", "admin_token")
            source = f"{env_name(field)}={'***' if secret else problem['input']}"
        else:
            source = field
        lines.append(f"{source}: {message}")
    return "; ".join(lines)
