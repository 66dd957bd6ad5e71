"""A kit bot that has joined and waits for its opponent says so, once, on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bots.server_thread import Served, ServerThread

GAUNTLET = str(Path(sys.executable).with_name("gauntlet"))
WAITING = "waiting for an opponent..."


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    thread = ServerThread(tmp_path, soft_timeout=30.0, hard_timeout=60.0)
    try:
        yield thread.start()
    finally:
        thread.close()


def _bot(name: str, port: int) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAUNTLET_")}
    return subprocess.Popen([GAUNTLET, "bot", name, "-p", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("game", ["blokus", "hearth"])
def test_first_bot_waits_second_does_not(served: Served, game: str) -> None:
    first = _bot(f"{game}-random", served.tcp_port)
    try:
        assert first.stderr is not None
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline and not line:
            line = first.stderr.readline().strip()
        assert line == WAITING
        second = _bot(f"{game}-random", served.tcp_port)
        _, second_err = second.communicate(timeout=120)
        _, first_err = first.communicate(timeout=120)
    finally:
        for process in (first,):
            if process.poll() is None:
                process.kill()
    assert first.returncode == 0 and second.returncode == 0, (first.returncode, second.returncode,
                                                              first_err + second_err)
    assert WAITING not in first_err and WAITING not in second_err
