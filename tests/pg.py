"""A throwaway PostgreSQL server for tests: `initdb` into a temp folder, `pg_ctl start`, stop.

Use the fixtures by importing them into a conftest (`from tests.pg import postgres, pg_url`):

- `postgres` (session): one server for the whole run; skipped, with the reason, when the
  PostgreSQL binaries or the psycopg driver are missing.
- `pg_url` (function): a fresh, empty database on that server for each test.

The binaries are looked up in `$GAUNTLET_PG_BIN`, then Debian's `/usr/lib/postgresql/*/bin`
(newest first), then `PATH`. PostgreSQL refuses to run as root, so as root the server runs
as the `postgres` user (Debian's package creates it) in a folder it owns. The server trusts
local connections and runs with `fsync=off`: it holds nothing worth a disk flush.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

DRIVER = "postgresql+psycopg"


def find_pg_bin() -> Path | None:
    """The folder holding `initdb` and `pg_ctl`, or None."""
    candidates: list[Path] = []
    if os.environ.get("GAUNTLET_PG_BIN"):
        candidates.append(Path(os.environ["GAUNTLET_PG_BIN"]))

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(p) for p in path.parent.name.split(".") if p.isdigit())

    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class PgServer:
    """A running throwaway server; `url(db)` names a database on it."""

    bindir: Path
    root: Path
    port: int
    run_as: str | None

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def sockdir(self) -> Path:
        return self.root / "sock"

    def url(self, database: str = "postgres") -> str:
        return f"{DRIVER}://postgres@127.0.0.1:{self.port}/{database}"

    def _cmd(self, *args: str) -> list[str]:
        prefix = ["runuser", "-u", self.run_as, "--"] if self.run_as else []
        return [*prefix, *args]

    def start(self) -> None:
        subprocess.run(self._cmd(str(self.bindir / "initdb"), "-D", str(self.datadir),
                                 "-U", "postgres", "--auth=trust", "-E", "UTF8",
                                 "--no-sync", "--locale=C"),
                       check=True, capture_output=True)
        options = (f"-p {self.port} -k {self.sockdir} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=200")
        subprocess.run(self._cmd(str(self.bindir / "pg_ctl"), "-D", str(self.datadir),
                                 "-o", options, "-l", str(self.root / "server.log"),
                                 "-w", "-t", "60", "start"),
                       check=True, capture_output=True)

    def stop(self) -> None:
        subprocess.run(self._cmd(str(self.bindir / "pg_ctl"), "-D", str(self.datadir),
                                 "-m", "immediate", "-w", "stop"),
                       check=False, capture_output=True)

    def create_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start_postgres() -> PgServer:
    """Start a server in a new temp folder (raises if that fails: the log says why)."""
    bindir = find_pg_bin()
    if bindir is None:
        raise FileNotFoundError("PostgreSQL binaries (initdb, pg_ctl) not found")
    # Not under pytest's tmp_path: that is mode 0700 for root, and the server runs as
    # postgres; a short path also keeps the socket name within the 107-byte limit.
    root = Path(tempfile.mkdtemp(prefix="gauntlet-pg-"))
    run_as = None
    if os.geteuid() == 0:
        run_as = "postgres"
        account = pwd.getpwnam(run_as)
        os.chown(root, account.pw_uid, account.pw_gid)
    (root / "sock").mkdir()
    if run_as:
        account = pwd.getpwnam(run_as)
        os.chown(root / "sock", account.pw_uid, account.pw_gid)
    server = PgServer(bindir, root, _free_port(), run_as)
    try:
        server.start()
    except subprocess.CalledProcessError as exc:
        log = root / "server.log"
        detail = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr!r} {detail}") from exc
    return server


def skip_reason() -> str | None:
    """Why PostgreSQL tests cannot run here, or None."""
    if find_pg_bin() is None:
        return ("PostgreSQL binaries not found (apt-get install postgresql, or set "
                "GAUNTLET_PG_BIN to the folder holding initdb and pg_ctl)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (pip install 'psycopg[binary]')"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root and runuser is missing"
    return None


@pytest.fixture(scope="session")
def postgres() -> Iterator[PgServer]:
    """One throwaway PostgreSQL server for the test session."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()
        with contextlib.suppress(OSError):
            shutil.rmtree(server.root)


@pytest.fixture
def pg_url(postgres: PgServer) -> str:
    """A fresh empty database on the session's server."""
    return postgres.create_database()
