"""Server settings: one dataclass, filled from the command line, the environment and code defaults.

>>> cfg = ServerConfig(tcp_port=0, data_dir=Path("/tmp/gauntlet-doctest"))
>>> cfg.host, cfg.soft_timeout, cfg.hard_timeout, cfg.paused
('127.0.0.1', 2.0, 10.0, False)
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

PASSWORD_ENV = "GAUNTLET_ADMIN_PASSWORD"
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


@dataclass
class ServerConfig:
    """Everything `gauntlet serve` can be told.

    `paused` is False by default: that is the official code's default (its docs claim otherwise).
    `db_url` is stored for later issues; no database is used yet.
    """

    host: str = "127.0.0.1"
    tcp_port: int = 13050
    soft_timeout: float = 2.0
    hard_timeout: float = 10.0
    no_timeout: bool = False
    paused: bool = False
    admin_password: str | None = None
    data_dir: Path = Path("data")
    save_replays: bool = False
    replay_dir: Path = Path("replays")
    gzip_replays: bool = False
    db_url: str | None = None
    # Seeds the games' randomness (the Blokus start piece) in room-creation order, so that a
    # series can be replayed exactly; None draws fresh randomness for every room.
    seed: int | None = None
    limits: Limits = field(default_factory=Limits)

    def resolve_admin_password(self) -> str:
        """The admin password: explicit, else `GAUNTLET_ADMIN_PASSWORD`, else a stored secret.

        The stored secret lives in `<data_dir>/admin-password` (mode 0600) and is created on the
        first start; later starts read it back so admin tools keep working.
        """
        if self.admin_password:
            return self.admin_password
        env = os.environ.get(PASSWORD_ENV)
        if env:
            self.admin_password = env
            return env
        path = self.data_dir / PASSWORD_FILE
        if path.exists():
            stored = path.read_text(encoding="utf-8").strip()
            if stored:
                self.admin_password = stored
                log.info("admin password read from %s", path.resolve())
                return stored
        self.data_dir.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_urlsafe(18)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(secret + "\n")
        os.chmod(path, 0o600)
        log.warning("admin password generated and stored in %s", path.resolve())
        self.admin_password = secret
        return secret

    @property
    def password_file(self) -> Path:
        return self.data_dir / PASSWORD_FILE
