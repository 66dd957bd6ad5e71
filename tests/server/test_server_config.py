"""Configuration, the admin password, protocol sniffing and `gauntlet serve` itself."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import sys
from pathlib import Path

import pytest
from sc_client import ScClient, no_errors_logged  # noqa: F401

from protocols.sc import messages as m
from server.config import PASSWORD_ENV, ServerConfig
from server.net.sniff import NEED_MORE, SC, sniff

pytestmark = pytest.mark.usefixtures("no_errors_logged")


def test_password_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "from-env")
    config = ServerConfig(data_dir=tmp_path)
    assert config.resolve_admin_password() == "from-env"
    assert not (tmp_path / "admin-password").exists()


def test_generated_password_is_stored_privately_and_reused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    first = ServerConfig(data_dir=tmp_path / "data").resolve_admin_password()
    path = tmp_path / "data" / "admin-password"
    assert path.read_text().strip() == first and len(first) >= 16
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ServerConfig(data_dir=tmp_path / "data").resolve_admin_password() == first
    other = ServerConfig(data_dir=tmp_path / "other").resolve_admin_password()
    assert other != first


def test_defaults_follow_the_official_server() -> None:
    config = ServerConfig()
    assert (config.host, config.tcp_port) == ("127.0.0.1", 13050)
    assert (config.soft_timeout, config.hard_timeout) == (2.0, 10.0)
    assert config.paused is False and config.no_timeout is False


@pytest.mark.parametrize(("first", "expected"), [
    (b"<protocol>", SC),
    (b"\xef\xbb\xbf<protocol>", SC),
    (b"\r\n  <protocol>", SC),
    (b"   ", NEED_MORE),
    (b"\x00\x00\x00\x10", None),
    (b"GET / HTTP/1.1\r\n", None),
    (b" " * 2048, None),
])
def test_sniff(first: bytes, expected: str | None) -> None:
    assert sniff(first) == expected


async def test_serve_command_runs_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    env = dict(os.environ, GAUNTLET_ADMIN_PASSWORD="cli-test")
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "gauntlet"), "serve", "--tcp-port", "0",
        "--data-dir", str(tmp_path / "data"), "--db", "sqlite:///ignored.db",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
        cwd=Path(__file__).parents[2],
    )
    try:
        assert proc.stdout is not None
        async with asyncio.timeout(60):
            line = (await proc.stdout.readline()).decode()
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert found, line
        client = await ScClient.connect(int(found[1]))
        await client.send(m.Authenticate("cli-test"), m.Prepare())
        assert (await client.recv_until(m.Prepared)).room_id
        proc.send_signal(signal.SIGINT)
        async with asyncio.timeout(60):
            await client.read_to_eof()
            assert await proc.wait() == 0
        assert client.raw.endswith(b"\n  <close/>\n</protocol>")
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_a_taken_port_is_one_clear_line_not_a_traceback(tmp_path: Path, command: str) -> None:
    import socket
    import subprocess

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [str(Path(sys.executable).parent / "gauntlet"), command, "--tcp-port", str(port),
             "--data-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env=dict(os.environ, GAUNTLET_ADMIN_PASSWORD="pw"),
        )
    assert done.returncode == 1
    assert f"error: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
