"""The launcher against real processes (tests/server/launcher/fake_bot.py), about 5 s in all."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.launcher import (
    MARK_ENV,
    RESERVATION_ENV,
    BotProcess,
    BotSpec,
    BoundedLog,
    FailureCategory,
    ResourceLimits,
    SeatFailure,
    kettle_connection_args,
    kill_all,
    launch,
    live_processes,
    minimal_env,
)

FAKE_BOT = str(Path(__file__).with_name("fake_bot.py"))
HOST, PORT, RESERVATION = "127.0.0.1", 13050, "res-1234"
MiB = 1 << 20

pytestmark = pytest.mark.timeout(20)


def spec(mode: str, **kwargs: Any) -> BotSpec:
    return BotSpec(f"fake-{mode}", "blokus", [sys.executable, FAKE_BOT, mode], **kwargs)


async def until(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll `predicate()` until it is true (the bots print "ready" once their code runs);
    `timeout` only bounds a failing test: a loaded machine starts Python slowly."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def ready_line(proc: BotProcess) -> str:
    return proc.log.stdout.head.decode().partition("\n")[0]


def gone(pid: int) -> bool:
    """No such process, or only a zombie nobody reaps (no memory, CPU or files left)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return True
    return stat[stat.rfind(b")") + 2:].split()[0] == b"Z"


# -- start and stop ------------------------------------------------------------------------


async def test_sleeping_bot_is_stopped_by_sigterm() -> None:
    async with launch(spec("sleep"), HOST, PORT, RESERVATION) as proc:
        await until(lambda: ready_line(proc) == "ready")
        proc.connected()
        assert proc.running and proc.pid is not None
    assert proc.returncode == -15 and not proc.killed
    assert proc.failure is None  # stopped by us: no verdict
    assert gone(proc.pid)
    assert proc not in live_processes()


async def test_bot_ignoring_sigterm_is_killed_after_grace() -> None:
    proc = launch(spec("ignore_term"), HOST, PORT, grace=0.3)
    async with proc:
        await until(lambda: ready_line(proc) == "ready")
        started = asyncio.get_running_loop().time()
    assert asyncio.get_running_loop().time() - started >= 0.3
    assert proc.returncode == -9 and proc.killed
    assert proc.failure is None


@pytest.mark.parametrize("mode", ["fork", "fork_and_exit"])
async def test_grandchildren_are_gone_after_stop(mode: str) -> None:
    """Even when the bot itself has exited and its child still holds the pipes."""
    proc = launch(spec(mode), HOST, PORT, grace=0.3)
    async with proc:
        await until(lambda: ready_line(proc).startswith("ready "))
        grandchild = int(ready_line(proc).split()[1])
        if mode == "fork_and_exit":
            assert await asyncio.wait_for(proc.wait(), 1) == 0  # not held up by the open pipes
        assert not gone(grandchild)
    assert gone(grandchild)
    assert proc.pid is not None and gone(proc.pid)


async def test_stop_survives_a_cancelled_caller() -> None:
    proc = launch(spec("ignore_term"), HOST, PORT, grace=0.2)
    await proc.start()
    await until(lambda: ready_line(proc) == "ready")
    stopper = asyncio.ensure_future(proc.stop())
    await asyncio.sleep(0.05)
    stopper.cancel()
    await proc.stop()  # joins the stop already under way
    assert proc.killed and proc.pid is not None and gone(proc.pid)


async def test_kill_all_stops_every_live_bot() -> None:
    procs = [launch(spec(mode), HOST, PORT, grace=0.2) for mode in ("sleep", "ignore_term")]
    for proc in procs:
        await proc.start()
    for proc in procs:
        await until(lambda proc=proc: ready_line(proc) == "ready")  # type: ignore[misc]
    assert set(procs) <= set(live_processes())
    await kill_all(grace=0.2)
    assert not live_processes()
    assert [proc.returncode for proc in procs] == [-15, -9]


# -- output --------------------------------------------------------------------------------


async def test_flood_on_stderr_is_bounded_and_never_blocks_the_bot() -> None:
    async with launch(spec("flood"), HOST, PORT, log_limit=64 * 1024) as proc:
        assert await asyncio.wait_for(proc.wait(), 10) == 0  # it finished writing by itself
    stderr = proc.log.stderr
    assert stderr.total == 50 * MiB
    assert len(stderr.head) == len(stderr.tail) == 64 * 1024
    assert stderr.dropped == 50 * MiB - 128 * 1024
    assert "[... 52297728 bytes dropped ...]" in stderr.text()
    assert proc.failure is not None  # it never connected, yet it ran: exited with code 0
    assert proc.failure.detail.startswith("exited with code 0 before connecting; stderr ends")


def test_bounded_log_keeps_both_ends() -> None:
    log = BoundedLog(3)
    for chunk in (b"ab", b"cd", b"efghij", b"k"):
        log.feed(chunk)
    assert (log.head, log.tail, log.dropped, log.total) == (b"abc", b"ijk", 5, 11)
    assert log.last(2) == b"jk"
    small = BoundedLog(10)
    small.feed(b"abc")
    assert small.last(2) == b"bc" and small.text() == "abc"


# -- verdicts ------------------------------------------------------------------------------


@pytest.mark.parametrize("limits", [ResourceLimits(), ResourceLimits(cpu_seconds=5)])
async def test_nonexistent_executable_fails_to_start(limits: ResourceLimits) -> None:
    """With limits or without, the exec wrapper says the same clear thing."""
    bad = BotSpec("ghost", "blokus", ["./no-such-bot-here"], limits=limits)
    async with launch(bad, HOST, PORT) as proc:
        returncode = await asyncio.wait_for(proc.wait(), 5)
    assert returncode == 127  # the wrapper's exit
    failure = proc.failure
    assert failure is not None and failure.category is FailureCategory.FAILED_TO_START
    assert failure.detail == "cannot execute './no-such-bot-here': No such file or directory"


@pytest.mark.parametrize("limits", [ResourceLimits(), ResourceLimits(cpu_seconds=5)])
async def test_script_with_a_missing_interpreter_or_no_shebang(
        tmp_path: Path, limits: ResourceLimits) -> None:
    (tmp_path / "bad-shebang").write_text("#!/no/such/interpreter\n")
    (tmp_path / "no-shebang").write_text("echo hi\n")
    for name in ("bad-shebang", "no-shebang"):
        (tmp_path / name).chmod(0o755)
    details = []
    for name in ("./bad-shebang", "no-shebang"):
        env = {"PATH": str(tmp_path)}
        bot = BotSpec(name, "blokus", [name], cwd=tmp_path, env=env, limits=limits)
        async with launch(bot, HOST, PORT) as proc:
            await asyncio.wait_for(proc.wait(), 5)
        assert proc.failure is not None
        assert proc.failure.category is FailureCategory.FAILED_TO_START
        details.append(proc.failure.detail)
    assert details == [
        "cannot execute './bad-shebang': No such file or directory "
        "(is the interpreter on its #! line installed?)",
        "cannot execute 'no-shebang': Exec format error "
        "(not a program: does the script start with a #! line?)",
    ]


async def test_missing_working_directory_fails_to_start(tmp_path: Path) -> None:
    async with launch(spec("sleep", cwd=tmp_path / "missing"), HOST, PORT) as proc:
        assert proc.pid is None
    assert proc.failure == SeatFailure(
        FailureCategory.FAILED_TO_START,
        f"working directory {str(tmp_path / 'missing')!r} does not exist")


async def test_exit_before_connecting_is_failed_to_start() -> None:
    async with launch(spec("exit3"), HOST, PORT) as proc:
        assert await asyncio.wait_for(proc.wait(), 5) == 3
    assert proc.failure is not None
    assert proc.failure.category is FailureCategory.FAILED_TO_START
    assert proc.failure.detail == "exited with code 3 before connecting; nothing on stderr"


async def test_exit_after_connecting_is_a_crash_with_stderr_tail() -> None:
    async with launch(spec("crash_later"), HOST, PORT) as proc:
        await until(lambda: ready_line(proc) == "ready")
        proc.connected()
        assert await asyncio.wait_for(proc.wait(), 5) == 2
        failure = proc.failure  # complete right after wait(), not only after stop()
    assert failure is not None and failure.category is FailureCategory.CRASH
    assert failure.detail.startswith("exited with code 2 during the match; stderr ends with:\n")
    assert failure.detail.endswith("RuntimeError: boom in move()")


async def test_connection_reported_after_the_exit_still_counts() -> None:
    async with launch(spec("crash_later"), HOST, PORT) as proc:
        await asyncio.wait_for(proc.wait(), 5)
        assert proc.failure is not None
        assert proc.failure.category is FailureCategory.FAILED_TO_START
        proc.connected()  # the room learnt of the connection late
        assert proc.failure.category is FailureCategory.CRASH


async def test_death_by_signal_is_a_crash() -> None:
    async with launch(spec("abort"), HOST, PORT) as proc:
        proc.connected()
        await asyncio.wait_for(proc.wait(), 5)
    assert proc.failure is not None and proc.failure.category is FailureCategory.CRASH
    assert proc.failure.detail.startswith("killed by SIGABRT during the match")


async def test_exit_after_the_match_ended_is_no_failure() -> None:
    async with launch(spec("crash_later"), HOST, PORT) as proc:
        proc.connected()
        proc.match_ended()
        await asyncio.wait_for(proc.wait(), 5)
    assert proc.returncode == 2 and proc.failure is None


async def test_memory_limit() -> None:
    limited = spec("memory", limits=ResourceLimits(memory_bytes=256 * MiB))
    async with launch(limited, HOST, PORT) as proc:
        proc.connected()
        assert await asyncio.wait_for(proc.wait(), 5) == 1
    failure = proc.failure
    assert failure is not None and failure.category is FailureCategory.CRASH
    assert failure.detail.startswith(
        "exited with code 1 (over its memory limit of 256 MiB) during the match")
    assert failure.detail.endswith("MemoryError")


async def test_cpu_limit() -> None:
    limited = spec("spin", limits=ResourceLimits(cpu_seconds=1))
    async with launch(limited, HOST, PORT) as proc:
        proc.connected()
        assert await asyncio.wait_for(proc.wait(), 15) == -24  # SIGXCPU (slow on a busy machine)
    assert proc.failure is not None and proc.failure.category is FailureCategory.CRASH
    assert proc.failure.detail.startswith(
        "killed by SIGXCPU (CPU time limit of 1 s used up) during the match")


# -- what the bot gets ---------------------------------------------------------------------


@pytest.mark.parametrize("limits", [ResourceLimits(), ResourceLimits(memory_bytes=512 * MiB)])
async def test_argv_env_cwd_and_stdin(tmp_path: Path, limits: ResourceLimits,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAUNTLET_ADMIN_PASSWORD", "secret")
    monkeypatch.delenv("LC_CTYPE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANG", raising=False)
    bot = spec("argv", cwd=tmp_path, env={"BOT_LEVEL": "3"}, limits=limits)
    async with launch(bot, HOST, PORT, RESERVATION) as proc:
        assert await asyncio.wait_for(proc.wait(), 5) == 0
    seen = json.loads(proc.log.stdout.head)
    assert seen["argv"] == ["argv", "--host", HOST, "--port", str(PORT)]  # no reservation
    assert proc.argv == [sys.executable, FAKE_BOT, *seen["argv"]]
    assert Path(seen["cwd"]) == tmp_path
    assert seen["stdin"] == ""  # /dev/null
    if sys.platform == "linux":
        # No server secrets, no LC_CTYPE; the reservation and the launch mark.
        assert seen["env"] == {**minimal_env(), "BOT_LEVEL": "3",
                               RESERVATION_ENV: RESERVATION, MARK_ENV: proc.mark}


def test_connection_flags_per_protocol() -> None:
    kettle = BotSpec("k", "hearth", ["bot"], protocol="kettle")
    assert kettle.command(HOST, 1) == ["bot", "--host", HOST, "--port", "1"]
    assert kettle_connection_args(HOST, 1) == ["--host", HOST, "--port", "1"]
    with pytest.raises(ValueError, match="unknown protocol"):
        BotSpec("x", "blokus", ["bot"], protocol="telnet")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="argv is empty"):
        BotSpec("x", "blokus", [])


def test_failure_categories_match_the_store() -> None:
    """The store keeps its own copy of the enum for now: the values must never drift apart."""
    store = pytest.importorskip("server.store.models")
    assert {c.value for c in FailureCategory} == {c.value for c in store.FailureCategory}
    assert all(c == store.FailureCategory(c.value) for c in FailureCategory)
