"""docker-compose.yml cannot rot silently: its service's own command runs here natively, with
its environment (ports aside), and the API answers and the ladder plays. No Docker engine
is needed; `docker-compose config -q` validates the file where Debian's docker-compose is."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import yaml

from tests.server.ladder.conftest import REPO, free_port, gauntlet, gauntlet_env, serve

COMPOSE = REPO / "docker-compose.yml"


def service() -> dict[str, object]:
    spec = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    found: dict[str, object] = spec["services"]["gauntlet"]
    return found


def test_compose_file_is_valid_and_matches_the_dockerfile() -> None:
    spec = service()
    command = spec["command"]
    assert isinstance(command, list) and command[:2] == ["gauntlet", "serve"]
    assert command[command.index("--host") + 1] == "0.0.0.0"  # explicit, inside the container
    env = spec["environment"]
    assert isinstance(env, dict)
    ports = spec["ports"]
    assert isinstance(ports, list)
    # Published on the host's loopback unless GAUNTLET_PUBLISH says otherwise.
    for port in (env["GAUNTLET_HTTP_PORT"], env["GAUNTLET_TCP_PORT"]):
        assert f"${{GAUNTLET_PUBLISH:-127.0.0.1}}:{port}:{port}" in ports
    volumes = spec["volumes"]
    assert isinstance(volumes, list)
    assert any(str(v).startswith("gauntlet-data:") for v in volumes)
    cmd = [line for line in (REPO / "Dockerfile").read_text().splitlines()
           if line.startswith("CMD ")]
    assert json.loads(cmd[0][4:]) == command
    assert "FROM python:3.11-slim" in (REPO / "Dockerfile").read_text()
    compose = shutil.which("docker-compose")
    if compose is None:
        pytest.skip("docker-compose (Debian package) not installed: config not validated")
    checked = subprocess.run([compose, "-f", str(COMPOSE), "config", "-q"], cwd=REPO,
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    assert published(compose, {}) == {"127.0.0.1"}
    assert published(compose, {"GAUNTLET_PUBLISH": "0.0.0.0"}) == {"0.0.0.0"}


def defaults(value: str) -> str:
    """A compose value with its `${VAR:-default}`s resolved as on a host that sets none."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def published(compose: str, env: dict[str, str]) -> set[str]:
    """The host addresses docker-compose resolves every published port to."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")} | env
    resolved = subprocess.run([compose, "-f", str(COMPOSE), "--profile", "cluster", "config"],
                              cwd=REPO, capture_output=True, text=True, timeout=60, env=environ,
                              check=True)
    addresses: set[str] = set()
    for name, svc in yaml.safe_load(resolved.stdout)["services"].items():
        for port in svc.get("ports", []):
            # docker-compose 1.x prints "HOST:PUBLISHED:TARGET", 2.x a mapping.
            if isinstance(port, dict):
                address = port.get("host_ip")
            else:
                parts = str(port).split(":")
                address = parts[0] if len(parts) == 3 else None
            assert address, f"{name} publishes {port!r} on every interface"
            addresses.add(address)
    return addresses


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_compose_command_serves_the_api_and_plays_the_ladder(tmp_path: Path) -> None:
    spec = service()
    command = [str(c) for c in spec["command"]]  # type: ignore[attr-defined]
    command[0] = gauntlet() if command[0] == "gauntlet" else command[0]
    env_spec = spec["environment"]
    assert isinstance(env_spec, dict)
    port = free_port()
    # The compose environment as it is, but free ports: this machine may run a server.
    env = gauntlet_env(tmp_path, port)
    for key in [k for k in env if k.startswith("GAUNTLET_")]:
        del env[key]
    env.update({str(k): defaults(str(v)) for k, v in env_spec.items()})
    env.update({"GAUNTLET_HTTP_PORT": str(port), "GAUNTLET_TCP_PORT": "0"})
    log = tmp_path / "serve.log"
    workdir = tmp_path / "srv"  # the service's working_dir: ./data is the volume
    workdir.mkdir()
    proc = serve(command, env, workdir, log)
    try:
        deadline = time.monotonic() + 240
        played: dict[str, int] = {}
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                ladders = httpx.get(f"http://127.0.0.1:{port}/api/ladder", timeout=5).json()
                played = {g["game"]: g["rated"] for g in ladders if g["running"]}
            except (httpx.HTTPError, ValueError):
                pass
            if len(played) == 2 and all(n >= 1 for n in played.values()):
                break
            time.sleep(0.5)
        assert len(played) == 2 and all(n >= 1 for n in played.values()), \
            (played, log.read_text()[-3000:])
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
        assert health.status_code == 200
        assert (workdir / "data" / "gauntlet.db").exists()  # on the volume's path
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
