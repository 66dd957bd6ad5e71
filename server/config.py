"""The runtime configuration a `GauntletServer` receives, and the admin password lookup.

`ServerConfig` is built by the commands from `server.settings.Settings` (defaults and
`GAUNTLET_*` variables) plus their command-line options; in-process users (bots' tests,
benchmarks) build it directly. Its field defaults are the settings' defaults.

>>> cfg = ServerConfig(tcp_port=0, data_dir=Path("/tmp/gauntlet-doctest"))
>>> cfg.host, cfg.soft_timeout, cfg.hard_timeout, cfg.paused
('127.0.0.1', 2.0, 10.0, False)
>>> ServerConfig.from_settings(load_settings(tcp_port=0), seed=3).seed
3
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, overload

from server.settings import DEFAULTS, Settings, env_name, load_settings

log = logging.getLogger(__name__)

PASSWORD_ENV = env_name("admin_password")
PASSWORD_FILE = "admin-password"


@dataclass(frozen=True)
class Limits:
    """Caps on what one client or the whole server may hold (the official server has none)."""

    max_connections: int = 1000
    max_rooms: int = 1000
    # Outgoing messages queued for one observer; when full the observer is dropped.
    observer_queue: int = 512
    # A player whose socket does not accept bytes for this long is disconnected.
    write_timeout_seconds: float = 30.0
    max_observers_per_room: int = 16
    # Messages one connection may send: on average per second, and at once. A bot sends one
    # move per request and an admin one request per game, so only a flood reaches these.
    messages_per_second: float = 1000.0
    message_burst: int = 2000
    # A room nobody sits in (prepared but never joined, or left before the start) closes
    # after this many seconds; one connection may wait in at most this many unstarted rooms.
    empty_room_seconds: float = 600.0
    max_waiting_seats: int = 8
    # A TCP connection that has neither joined a room nor authenticated after this many
    # seconds is refused and closed (None: never); at most this many from one address,
    # more from loopback (the bots the server launches, 400 for 200 matches at once);
    # over a cap the oldest connection that joined nothing goes (server.net.slots).
    login_timeout_seconds: float | None = 10.0
    max_connections_per_address: int = 64
    max_loopback_connections: int = 512
    # Rooms opened by unauthenticated joins (SC `join`, Kettle `queue_player`) open at once:
    # in all, and from one address.
    max_join_rooms: int = 512
    max_join_rooms_per_address: int = 256
    # HTTP request bodies (413 beyond) and WebSockets from one address (refused beyond).
    http_max_body_bytes: int = 1 << 20
    max_websockets_per_address: int = 32
    # HTTP requests: all of one within this many seconds; connections open at once.
    http_header_timeout_seconds: float = 10.0
    http_max_connections: int = 256
    # Bots the server launches: address space (MiB) and CPU time (s) per process; None: no
    # limit (server.launcher.spec.BOT_DEFAULTS).
    bot_memory_mb: int | None = 4096
    bot_cpu_seconds: int | None = 600


@dataclass
class ServerConfig:
    """Everything a running server is told.

    `paused` is False by default: that is the official code's default (its docs claim otherwise).
    `db_url` is the store `gauntlet serve` opens; a `GauntletServer` itself is given a `Store`.
    """

    host: str = DEFAULTS.host
    tcp_port: int = DEFAULTS.tcp_port
    soft_timeout: float = DEFAULTS.soft_timeout
    hard_timeout: float = DEFAULTS.hard_timeout
    decision_timeout: float = DEFAULTS.decision_timeout
    turn_timeout: float = DEFAULTS.turn_timeout
    no_timeout: bool = DEFAULTS.no_timeout
    paused: bool = DEFAULTS.paused
    admin_password: str | None = None
    data_dir: Path = DEFAULTS.data_dir
    save_replays: bool = DEFAULTS.save_replays
    replay_dir: Path = DEFAULTS.replay_dir
    gzip_replays: bool = DEFAULTS.gzip_replays
    db_url: str | None = DEFAULTS.database_url
    # The HTTP API's port (None: no HTTP API; `gauntlet serve` passes GAUNTLET_HTTP_PORT)
    # and its bearer token (None: <data_dir>/admin-token, generated on the first start).
    http_port: int | None = None
    admin_token: str | None = None
    # Seeds the games' randomness (the Blokus start piece) in room-creation order, so that a
    # series can be replayed exactly; None draws fresh randomness for every room.
    seed: int | None = None
    limits: Limits = field(default_factory=Limits)
    # What the store keeps (server.store.retention; 0: for ever).
    event_retention_days: float = DEFAULTS.event_retention_days
    unplayed_retention_minutes: float = DEFAULTS.unplayed_retention_minutes
    # Host names the HTTP API answers to besides loopback, IP addresses and `host` ("*": any).
    allowed_hosts: tuple[str, ...] = ()
    # The settings of a cluster (GAUNTLET_BROKER_URL or GAUNTLET_REDIS_URL set: workers play
    # the matches of registered bots, spectators follow them on Redis); None: one process.
    # Taken whole because the cluster's parts (server.worker) read several of them.
    cluster: Settings | None = None

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> ServerConfig:
        """The settings as a runtime configuration; `overrides` are fields only a command
        knows (a seed, a throwaway password, the demo's fixed host)."""
        password = settings.admin_password
        fields: dict[str, Any] = {
            "host": settings.host, "tcp_port": settings.tcp_port,
            "soft_timeout": settings.soft_timeout, "hard_timeout": settings.hard_timeout,
            "decision_timeout": settings.decision_timeout,
            "turn_timeout": settings.turn_timeout,
            "no_timeout": settings.no_timeout, "paused": settings.paused,
            "admin_password": password.get_secret_value() if password else None,
            "data_dir": settings.data_dir, "save_replays": settings.save_replays,
            "replay_dir": settings.replay_dir, "gzip_replays": settings.gzip_replays,
            "db_url": settings.database_url,
            "event_retention_days": settings.event_retention_days,
            "unplayed_retention_minutes": settings.unplayed_retention_minutes,
            "allowed_hosts": tuple(h.strip() for h in settings.allowed_hosts.split(",")
                                   if h.strip()),
            "cluster": settings if settings.pubsub_url else None,
        }
        fields["limits"] = Limits(
            max_connections=settings.max_connections,
            max_connections_per_address=settings.max_connections_per_address,
            max_loopback_connections=settings.max_loopback_connections,
            max_join_rooms=settings.max_join_rooms,
            max_join_rooms_per_address=settings.max_join_rooms_per_address,
            login_timeout_seconds=settings.login_timeout,
            http_max_body_bytes=settings.http_max_body_bytes,
            max_websockets_per_address=settings.max_websockets_per_address,
            http_header_timeout_seconds=settings.http_header_timeout,
            http_max_connections=settings.http_max_connections,
            bot_memory_mb=settings.bot_memory_mb or None,
            bot_cpu_seconds=settings.bot_cpu_seconds or None,
        )
        return cls(**(fields | overrides))

    def resolve_admin_password(self) -> str:
        """The admin password: explicit, else `GAUNTLET_ADMIN_PASSWORD`, else a stored secret.

        The stored secret lives in `<data_dir>/admin-password` (mode 0600) and is created on the
        first start; later starts read it back so admin tools keep working.
        """
        if not self.admin_password:
            # Through Settings, the one reader of GAUNTLET_* variables.
            from_env = load_settings().admin_password
            preset = from_env.get_secret_value() if from_env else None
            self.admin_password = find_admin_password(preset, self.data_dir, create=True)
        return self.admin_password

    @property
    def password_file(self) -> Path:
        return self.data_dir / PASSWORD_FILE


@overload
def find_admin_password(preset: str | None, data_dir: Path, *, create: Literal[True]) -> str: ...
@overload
def find_admin_password(preset: str | None, data_dir: Path, *, create: bool) -> str | None: ...
def find_admin_password(preset: str | None, data_dir: Path, *, create: bool) -> str | None:
    """The one admin password lookup: `preset` (an option or `GAUNTLET_ADMIN_PASSWORD`), else
    the secret stored in `<data_dir>/admin-password`, else (with `create`) a new one stored
    there, else None.

    A server creates the secret on its first start; clients (`gauntlet play --port`) only
    read it, so that they never invent a password the running server does not know.
    """
    if preset:
        return preset
    path = data_dir / PASSWORD_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        stored = ""
    except OSError:
        if create:
            raise  # never overwrite a secret we merely cannot read
        stored = ""
    if stored:
        log.info("admin password read from %s", path.resolve())
        return stored
    if not create:
        return None
    data_dir.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(18)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(secret + "\n")
    os.chmod(path, 0o600)
    log.warning("admin password generated and stored in %s", path.resolve())
    return secret
