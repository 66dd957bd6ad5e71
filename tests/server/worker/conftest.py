"""Fixtures of the cluster tests: a real Redis, a real PostgreSQL, `gauntlet worker`s.

Redis is Debian's `redis-server` (installed with apt-get when missing and run as root),
started on a free loopback port without persistence; PostgreSQL is `tests.pg`'s. Both are
skipped, with the reason, only when their packages cannot be installed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.games.registry import GameRegistry
from server.startup import register_bundled_bots
from server.store import Store
from tests.pg import pg_url, postgres  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[3]
GAUNTLET = str(Path(sys.executable).with_name("gauntlet"))
VISIBILITY = 6
"""The tests' visibility timeout (seconds): a killed worker's job is replayed after it."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _redis_server() -> str | None:
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                    "redis-server"], env=env, capture_output=True, check=False)
    return shutil.which("redis-server")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    binary = _redis_server()
    if binary is None:
        pytest.skip("redis-server missing and not installable (Debian package redis-server; "
                    "apt-get install -y redis-server as root)")
    port = _free_port()
    folder = Path(tempfile.mkdtemp(prefix="gauntlet-redis-"))
    pidfile = folder / "redis.pid"
    subprocess.run([binary, "--port", str(port), "--bind", "127.0.0.1", "--daemonize", "yes",
                    "--save", "", "--appendonly", "no", "--dir", str(folder),
                    "--pidfile", str(pidfile), "--logfile", str(folder / "redis.log")],
                   check=True)
    import redis

    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        with contextlib.suppress(redis.ConnectionError):
            client.shutdown(nosave=True)
        client.close()
        shutil.rmtree(folder, ignore_errors=True)


class Worker:
    """A `gauntlet worker` subprocess in its own process group (its bots too)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen([GAUNTLET, "worker", "--log-level", "INFO"], env=env,
                                     stdout=log.open("w"), stderr=subprocess.STDOUT,
                                     cwd=ROOT, start_new_session=True)

    def kill(self) -> None:
        """SIGKILL the worker and everything it started: a machine that died."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(15)
        self.kill()


@pytest.fixture
def store(pg_url: str) -> Iterator[Store]:  # noqa: F811  (the fixture)
    """A fresh PostgreSQL database, migrated, with the bundled bots registered."""
    store = Store(pg_url)
    store.upgrade()
    register_bundled_bots(store, GameRegistry.from_entry_points())
    yield store
    store.close()


def worker_env(redis: str, db: str, data: Path, visibility: int = VISIBILITY) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    env.update(GAUNTLET_BROKER_URL=redis, GAUNTLET_DATABASE_URL=db,
               GAUNTLET_DATA_DIR=str(data), GAUNTLET_VISIBILITY_TIMEOUT=str(visibility))
    return env
