"""Settings and configuration, the admin password, protocol sniffing and `gauntlet serve`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from protocols.sc import messages as m
from server.cli import app
from server.config import PASSWORD_ENV, ServerConfig, find_admin_password
from server.net.sniff import NEED_MORE, SC, sniff
from server.settings import DEFAULTS, Settings, SettingsError, load_settings
from tests.server.sc_client import ScClient, no_errors_logged  # noqa: F401

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


def test_a_client_never_creates_the_password(tmp_path: Path) -> None:
    assert find_admin_password(None, tmp_path / "data", create=False) is None
    assert not (tmp_path / "data").exists()
    assert find_admin_password("given", tmp_path, create=False) == "given"


def test_defaults_follow_the_official_server() -> None:
    config = ServerConfig()
    assert (config.host, config.tcp_port) == ("127.0.0.1", 13050)
    assert (config.soft_timeout, config.hard_timeout) == (2.0, 10.0)
    assert config.paused is False and config.no_timeout is False


# --- settings: defaults < GAUNTLET_* variables < command-line options -----------------


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No GAUNTLET_* variable from the developer's shell leaks into these tests."""
    for name in list(os.environ):
        if name.upper().startswith("GAUNTLET_"):
            monkeypatch.delenv(name)
    return monkeypatch


def test_settings_defaults_are_the_configs(clean_env: pytest.MonkeyPatch) -> None:
    settings = load_settings()
    assert settings == DEFAULTS
    assert (settings.http_port, settings.database_url) == (8000, "sqlite:///./data/gauntlet.db")
    assert settings.admin_password is None and settings.admin_token is None
    assert ServerConfig.from_settings(settings) == ServerConfig()


def test_environment_overrides_defaults(clean_env: pytest.MonkeyPatch) -> None:
    for name, value in {"TCP_PORT": "13051", "HTTP_PORT": "8080", "SOFT_TIMEOUT": "3.5",
                        "PAUSED": "true", "DATA_DIR": "/srv/gauntlet", "LOG_LEVEL": "debug",
                        "DATABASE_URL": "postgresql://db/gauntlet", "ADMIN_PASSWORD": "pw",
                        "ADMIN_TOKEN": "t0k3n", "HOST": ""}.items():
        clean_env.setenv(f"GAUNTLET_{name}", value)
    settings = load_settings()
    assert (settings.tcp_port, settings.http_port, settings.soft_timeout) == (13051, 8080, 3.5)
    assert settings.paused is True and settings.log_level == "DEBUG"
    assert settings.host == "127.0.0.1"  # an empty variable counts as unset
    assert settings.admin_token is not None and settings.admin_token.get_secret_value() == "t0k3n"
    assert "t0k3n" not in repr(settings) and "'pw'" not in repr(settings)
    config = ServerConfig.from_settings(settings, seed=5)
    assert (config.tcp_port, config.paused, config.data_dir) == (13051, True, Path("/srv/gauntlet"))
    assert (config.admin_password, config.db_url, config.seed) == (
        "pw", "postgresql://db/gauntlet", 5)


def test_options_override_the_environment(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("GAUNTLET_TCP_PORT", "13051")
    clean_env.setenv("GAUNTLET_HARD_TIMEOUT", "20")
    settings = load_settings(tcp_port=0, hard_timeout=None)  # None = option not given
    assert (settings.tcp_port, settings.hard_timeout) == (0, 20.0)


def test_serve_takes_typed_options_over_env_over_defaults(
        clean_env: pytest.MonkeyPatch) -> None:
    started: list[ServerConfig] = []
    clean_env.setattr("server.commands.serve._serve",
                      lambda config, _source: started.append(config))
    clean_env.setattr("server.commands.serve.run_server", lambda *_args, **_kw: None)
    env = {"GAUNTLET_TCP_PORT": "13051", "GAUNTLET_SOFT_TIMEOUT": "3",
           "GAUNTLET_SAVE_REPLAYS": "1", "GAUNTLET_ADMIN_PASSWORD": "secret"}
    result = CliRunner().invoke(app, ["serve", "--soft-timeout", "4", "--no-save-replays",
                                      "--seed", "9"], env=env)
    assert result.exit_code == 0, result.output
    (config,) = started
    assert (config.tcp_port, config.soft_timeout, config.hard_timeout) == (13051, 4.0, 10.0)
    assert (config.save_replays, config.seed, config.admin_password) == (False, 9, "secret")


def test_bot_takes_its_server_from_the_environment(clean_env: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []

    def run_with(_bot: object, **options: object) -> int:
        calls.append(options)
        return 0

    clean_env.setattr("bots.blokus.kit.run_with", run_with)
    env = {"GAUNTLET_HOST": "10.0.0.7", "GAUNTLET_TCP_PORT": "13051"}
    runner = CliRunner()
    assert runner.invoke(app, ["bot", "blokus-random"], env=env).exit_code == 0
    assert runner.invoke(app, ["bot", "blokus-random", "-p", "13052"], env=env).exit_code == 0
    assert [(c["host"], c["port"]) for c in calls] == [("10.0.0.7", 13051), ("10.0.0.7", 13052)]


@pytest.mark.parametrize(("args", "env", "expected"), [
    (["serve"], {"GAUNTLET_TCP_PORT": "many"},
     "GAUNTLET_TCP_PORT=many: Input should be a valid integer"),
    (["serve"], {"GAUNTLET_HARD_TIMEOUT": "0"},
     "GAUNTLET_HARD_TIMEOUT=0: Input should be greater than 0"),
    (["serve", "--soft-timeout", "-1"], {}, "--soft-timeout -1.0: Input should be greater than 0"),
    (["serve", "--log-level", "loud"], {}, "--log-level loud: should be one of DEBUG"),
    (["demo", "--once"], {"GAUNTLET_TCP_PORT": "70000"},
     "GAUNTLET_TCP_PORT=70000: Input should be less than or equal to 65535"),
    (["play", "blokus", "random", "random"], {"GAUNTLET_NO_TIMEOUT": "maybe"},
     "GAUNTLET_NO_TIMEOUT=maybe: Input should be a valid boolean"),
])
def test_invalid_settings_are_one_clear_line(clean_env: pytest.MonkeyPatch, args: list[str],
                                             env: dict[str, str], expected: str) -> None:
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 2
    assert f"error: invalid settings: {expected}" in result.output
    assert "Traceback" not in result.output


def test_invalid_keywords_and_values_from_code() -> None:
    with pytest.raises(SettingsError, match="--http-port 99999"):
        load_settings(http_port=99999)
    with pytest.raises(SettingsError, match="not-a-setting 1: Extra inputs"):
        load_settings(not_a_setting=1)


def test_help_shows_defaults_and_variables() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in ("GAUNTLET_TCP_PORT", "13050", "GAUNTLET_DATABASE_URL", "gauntlet.db",
                 "GAUNTLET_SOFT_TIMEOUT", "2.0"):
        assert text in result.output
    assert set(Settings.model_fields) >= {"admin_password", "admin_token", "http_port"}


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
        "--data-dir", str(tmp_path / "data"), "--db", f"sqlite:///{tmp_path / 'g.db'}",
        "--http-port", "0",
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


@contextlib.contextmanager
def _taken_and_free() -> Iterator[tuple[int, int]]:
    """A port something listens on while the block runs, and one that is free."""
    import socket

    with socket.socket() as taken, socket.socket() as spare:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        spare.bind(("127.0.0.1", 0))
        free = spare.getsockname()[1]
        spare.close()
        yield taken.getsockname()[1], free


@pytest.mark.parametrize(("command", "taken_flag"), [
    ("serve", "--tcp-port"), ("demo", "--tcp-port"), ("serve", "--http-port"),
    ("demo", "--http-port")])
def test_a_taken_port_is_one_line_naming_the_option_that_moves_it(
        tmp_path: Path, command: str, taken_flag: str) -> None:
    import subprocess

    with _taken_and_free() as (port, other):
        ports = {"--tcp-port": port, "--http-port": other} if taken_flag == "--tcp-port" \
            else {"--tcp-port": other, "--http-port": port}
        done = subprocess.run(
            [str(Path(sys.executable).parent / "gauntlet"), command,
             *(str(x) for flag, value in ports.items() for x in (flag, value)),
             "--data-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env=dict(os.environ, GAUNTLET_ADMIN_PASSWORD="pw", GAUNTLET_ADMIN_TOKEN="t"),
        )
    assert done.returncode == 1, done.stderr
    option = "--port" if taken_flag == "--tcp-port" else "--http-port"
    assert f"error: cannot listen on 127.0.0.1:{port}: " in done.stderr
    assert f"pick another with {option} {port + 1} (0 = any free port)" in done.stderr
    assert done.stderr.count("error:") == 1 and "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("variable", ["PORT", "HTTP_PORT"])
def test_make_run_names_the_make_variable(tmp_path: Path, variable: str) -> None:
    import shutil
    import subprocess

    if shutil.which("make") is None:
        pytest.fail("make is not installed (make test needs it)")
    repo = Path(__file__).resolve().parents[2]
    with _taken_and_free() as (port, other):
        values = {"PORT": port, "HTTP_PORT": other} if variable == "PORT" \
            else {"PORT": other, "HTTP_PORT": port}
        done = subprocess.run(
            ["make", "-s", "run", *(f"{k}={v}" for k, v in values.items())],
            capture_output=True, text=True, timeout=120, cwd=repo,
            env=dict(os.environ, GAUNTLET_ADMIN_PASSWORD="pw", GAUNTLET_ADMIN_TOKEN="t",
                     GAUNTLET_DATA_DIR=str(tmp_path), GAUNTLET_DATABASE_URL=
                     f"sqlite:///{tmp_path / 'g.db'}"),
        )
    assert done.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}: " in done.stderr
    assert f"pick another with make run {variable}={port + 1}" in done.stderr


def test_settings_docstring_examples(clean_env: pytest.MonkeyPatch) -> None:
    import doctest

    import server.settings

    result = doctest.testmod(server.settings, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
