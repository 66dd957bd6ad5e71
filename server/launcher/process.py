"""Run one bot as a child process: start it, capture its output, judge its exit, stop it.

`async with launch(spec, host, port, reservation) as proc:` starts the bot in a session
(and so a process group) of its own, stdin on /dev/null, stdout and stderr captured into a
`SeatLog`; leaving the block stops the whole group. The room tells the process when the
seat connected (`connected()`) and when the match ended (`match_ended()`); the exit status
plus those two facts give the launcher's own verdicts, `failed_to_start` and `crash`. It
also tells it when each of the seat's decisions is asked and answered
(`decision_opened()`, `decision_answered()`): stderr is then kept per move as well
(`moves`, `server.launcher.moves`), with the CPU time and peak memory each decision cost
(`server.launcher.usage`).

Why `loop.subprocess_exec` with a protocol and not `create_subprocess_exec` streams: the
output goes straight from the pipe callback into the bounded log (no StreamReader buffer,
no reader tasks, nothing that can stall the pipe), and `process_exited` fires when the bot
exits. In Python 3.11 `Process.wait()` also waits for every pipe to close, so a grandchild
still holding stderr would hide the bot's own death until it, too, was gone.

Why a process group: a bot is often a start script that runs `java` or `python`, which may
start helpers; a signal to the script's pid alone would orphan them. A descendant that
starts a session of its own (`setsid`, a daemon) leaves the group; it still carries the
bot's launch mark in its environment, and is ended with the rest (`reaping`).

The reservation code is a secret: it is in the bot's environment (`RESERVATION_ENV`),
never in its argv, and cut out of everything the launcher shows (`redact`): the seat
log, failure details, log lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Final

from server.launcher._limited_exec import exec_error
from server.launcher.failures import FailureCategory, SeatFailure
from server.launcher.log import SeatLog
from server.launcher.moves import MoveLog
from server.launcher.reaping import (
    MARK_ENV,
    marked_processes,
    records_in,
    signal_marked,
    start_time,
)
from server.launcher.spec import BotSpec, ResourceLimits, default_limits
from server.launcher.usage import Usage, reset_peaks, sample

log = logging.getLogger(__name__)

DEFAULT_LOG_LIMIT: Final = 64 * 1024
"""Bytes kept per stream at each end (first 64 KiB and last 64 KiB)."""
DEFAULT_GRACE: Final = 2.0
"""Seconds between SIGTERM and SIGKILL: long enough for a JVM's shutdown hooks."""

_KILL_WAIT: Final = 2.0  # after SIGKILL the group is gone within milliseconds; this is a bound
_PIPES_WAIT: Final = 1.0  # EOF on the pipes after the group is gone (escaped holders: see above)
_OUTPUT_SETTLE: Final = 0.25  # after the exit, how long wait() waits for the last output
_POLL: Final = 0.02
_DETAIL_STDERR: Final = 2000  # bytes of stderr's tail in a failure's detail
_WRAPPER: Final = Path(__file__).with_name("_limited_exec.py")
_OOM_MARKERS: Final = (b"MemoryError", b"bad_alloc", b"OutOfMemoryError", b"out of memory",
                       b"Cannot allocate memory")

_live: set[BotProcess] = set()


class _Capture(asyncio.SubprocessProtocol):
    """Feeds the pipes into the seat log and reports exit and close to its `BotProcess`."""

    def __init__(self, owner: BotProcess) -> None:
        self._owner = owner
        self._transport: asyncio.SubprocessTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._transport = transport

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        assert isinstance(data, bytes)
        owner = self._owner
        if fd == 1:
            owner.log.stdout.feed(data)
        else:
            owner.log.stderr.feed(data)
            owner.moves.feed(data)

    def process_exited(self) -> None:
        assert self._transport is not None
        returncode = self._transport.get_returncode()
        assert returncode is not None
        self._owner._on_exit(returncode)

    def connection_lost(self, exc: Exception | None) -> None:
        self._owner.moves.flush()  # its last line, even without a newline
        self._owner._closed.set()


class BotProcess:
    """One bot process for one seat of one match. Create it with `launch()`.

    `start()` never raises for a bot that cannot run: that is the bot's failure, not the
    caller's, so it becomes `failure` (`failed_to_start`) and `wait()` returns at once.
    """

    def __init__(
        self,
        spec: BotSpec,
        host: str,
        port: int,
        reservation: str | None = None,
        *,
        log_limit: int = DEFAULT_LOG_LIMIT,
        limits: ResourceLimits | None = None,
        grace: float = DEFAULT_GRACE,
        base_env: Mapping[str, str] | None = None,
        data_dir: Path | None = None,
    ) -> None:
        self.spec = spec
        self.argv: list[str] = spec.command(host, port)
        """What is executed: the spec's argv plus the protocol's connection flags."""
        chosen = limits if limits is not None else spec.limits
        self.limits = chosen if chosen is not None else default_limits()
        self.grace = grace
        self.mark = secrets.token_hex(16)
        """This launch's `MARK_ENV` value: every process of the bot inherits it."""
        self.env: dict[str, str] = {**spec.environment(base_env, reservation),
                                    MARK_ENV: self.mark}
        # The whole code, and Kettle's password alone (of GAME_ID:PASSWORD): a bot that
        # prints the join_game it sends shows the password as a field of its own.
        self._secrets = [] if not reservation else [
            reservation, *([reservation.partition(":")[2]] if ":" in reservation else [])]
        self._records = records_in(data_dir) if data_dir is not None else None
        self.log = SeatLog(log_limit)
        self.moves = MoveLog(redact=self.redact)
        """stderr by move (`decision_opened`, `decision_answered`), bounded, redacted."""
        self.pid: int | None = None
        self.returncode: int | None = None
        """The exit code, or minus the signal number; None while running or never started."""
        self.killed = False
        """True when `stop()` had to use SIGKILL."""
        self._started = False
        self._starting = False  # the wrapper's verdict may still come: do not judge exits yet
        self._transport: asyncio.SubprocessTransport | None = None
        self._process_gone = asyncio.Event()  # the bot's own process exited
        self._exited = asyncio.Event()  # ... and its last output is in the log (or late)
        self._settle_task: asyncio.Future[None] | None = None
        self._closed = asyncio.Event()
        self._start_failure: SeatFailure | None = None
        self._connected = False
        self._ended = False
        self._stopping = False
        self._exit_context: tuple[bool, bool] | None = None  # (ended, stopping) at exit
        self._stop_task: asyncio.Future[None] | None = None

    def __repr__(self) -> str:
        state = ("not started" if not self._started else
                 "running" if self.running else f"exited {self.returncode}")
        return f"<BotProcess {self.spec.name!r} pid={self.pid} {state}>"

    # -- the room's side ---------------------------------------------------------------

    def connected(self) -> None:
        """The seat connected: from now on a bad exit is a `crash`, not `failed_to_start`.

        A connection noticed after the exit still counts (the room may learn of the
        connection later than the launcher learns of the exit), because `failure` is
        judged when it is read.
        """
        self._connected = True

    def match_ended(self) -> None:
        """The match has a result: later exits, whatever their status, are no failure."""
        self._ended = True
        self.moves.finish(self._usage())

    def decision_opened(self, seq: int | None = None) -> None:
        """The seat was asked its next decision (entry `seq` of the match log): stderr lines
        from now on belong to it (`moves`), and its CPU time and peak memory count from
        here. Called from the match log's listener, before the request is written."""
        usage = self._usage()
        reset_peaks(self.pid if usage is not None else None)
        self.moves.opened(seq, usage)

    def decision_answered(self, think: float | None) -> None:
        """The seat's answer was applied after `think` seconds (the room's think time)."""
        self.moves.answered(think, self._usage())

    def _usage(self) -> Usage | None:
        return sample(self.pid) if self.running else None

    def redact(self, text: str) -> str:
        """`text` with the reservation code replaced by `***` (a bot may print its own).

        >>> BotProcess(BotSpec("b", "g", ["bot"]), "h", 1, "room:pw").redact("pw, room:pw")
        '***, ***'
        """
        for secret in self._secrets:
            if secret:
                text = text.replace(secret, "***")
        return text

    @property
    def running(self) -> bool:
        """True from a successful start until the bot's own process has exited."""
        return self._transport is not None and self.returncode is None

    @property
    def failure(self) -> SeatFailure | None:
        """The launcher's verdict: `failed_to_start`, `crash`, or None (no fault seen yet)."""
        if self._start_failure is not None:
            return self._start_failure
        if self.returncode is None or self._exit_context is None:
            return None
        ended, stopping = self._exit_context
        if ended or stopping:
            return None
        if not self._connected:
            return SeatFailure(FailureCategory.FAILED_TO_START,
                               f"{self._exit_text()} before connecting{self._stderr_text()}")
        if self.returncode == 0:
            return None  # a clean exit mid-match: the room reports it as a disconnect
        return SeatFailure(FailureCategory.CRASH,
                           f"{self._exit_text()} during the match{self._stderr_text()}")

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Start the bot. Returns once it is executing (or known not to be able to)."""
        if self._started:
            raise RuntimeError(f"{self!r} was started already")
        self._started = True
        self._starting = True
        try:
            await self._start()
        finally:
            self._starting = False
        failure = self.failure
        if failure is not None and self._start_failure is None:
            log.warning("bot %s (pid %s): %s", self.spec.name, self.pid, failure)

    async def _start(self) -> None:
        cwd = self.spec.cwd
        if cwd is not None and not Path(cwd).is_dir():
            self._fail_start(f"working directory {str(cwd)!r} does not exist")
            return
        loop = asyncio.get_running_loop()
        status_r, status_w = os.pipe()  # not inheritable (PEP 446) but through pass_fds
        try:
            # Spawned from the loop's thread: the parent-death signal the wrapper arms
            # follows this thread (see `_limited_exec`).
            transport, _ = await loop.subprocess_exec(
                lambda: _Capture(self), *self._wrapped(status_w),
                stdin=subprocess.DEVNULL,  # not a closed fd 0: the bot's first open() would get it
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=self.env, start_new_session=True, pass_fds=(status_w,),
            )
        except OSError as exc:
            os.close(status_r)
            if exc.filename is not None and cwd is not None and str(exc.filename) == str(cwd):
                self._fail_start(f"cannot enter working directory {str(cwd)!r}: {exc.strerror}")
            else:
                self._fail_start(exec_error(self.argv[0], exc, str(cwd or os.getcwd()),
                                            self.env.get("PATH")))
            return
        except BaseException:  # cancelled while spawning: asyncio has closed the transport
            os.close(status_r)
            raise
        finally:
            os.close(status_w)
        self._transport = transport
        self.pid = transport.get_pid()
        _live.add(self)
        self._record()
        log.info("bot %s started: pid %s, %s", self.spec.name, self.pid,
                 self.redact(repr(self.argv)))
        try:
            message = await _read_until_eof(status_r)
        except BaseException:
            await self.stop(0)
            raise
        if message:
            self._fail_start(message.decode("utf-8", "replace"))

    async def wait(self) -> int | None:
        """Wait until the bot's own process has exited; its return code (None: never ran).

        The exit and the pipes' last bytes arrive separately, so this also waits (briefly:
        a grandchild may hold the pipes open) for the output, and `failure` read right
        after it has stderr's real tail.
        """
        if not self._started:
            raise RuntimeError(f"{self!r} was not started")
        await self._exited.wait()
        return self.returncode

    async def stop(self, grace: float | None = None) -> None:
        """SIGTERM to the whole process group, SIGKILL after `grace` seconds; wait for both.

        Returns when no live process is left in the group (zombies of orphans that nobody
        reaps do not count: they hold neither memory nor CPU nor files). Idempotent; a
        cancelled caller does not cancel the stopping itself.
        """
        if self._transport is None:
            _live.discard(self)
            return
        if self._stop_task is None:
            self._stopping = True
            self._stop_task = asyncio.ensure_future(
                self._stop(self.grace if grace is None else grace))
        await asyncio.shield(self._stop_task)

    def kill(self) -> None:
        """SIGKILL to the group and every marked process now, without waiting: for when no
        event loop will run again (blocks for one read of /proc)."""
        if self.pid is not None and self._stop_task is None:
            self._stopping = True
            self._signal(signal.SIGKILL)
            signal_marked(marked_processes([self.mark])[self.mark], signal.SIGKILL)

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- internals ---------------------------------------------------------------------

    def _wrapped(self, status_fd: int) -> list[str]:
        limits = self.limits
        lc_ctype = self.env.get("LC_CTYPE")
        return [
            sys.executable, "-I", "-S", str(_WRAPPER), str(status_fd), str(os.getpid()),
            "-" if limits.memory_bytes is None else str(limits.memory_bytes),
            "-" if limits.cpu_seconds is None else str(limits.cpu_seconds),
            "-" if lc_ctype is None else f"={lc_ctype}",
            "--", *self.argv,
        ]

    def _record(self) -> None:
        """Note the bot for the next server, should this one die before it stops the bot."""
        assert self.pid is not None
        start = start_time(self.pid)
        if self._records is not None and start is not None:
            self._records.add(id(self), self.spec.name, self.pid, start, self.mark)

    def _fail_start(self, detail: str) -> None:
        self._start_failure = SeatFailure(FailureCategory.FAILED_TO_START, detail)
        log.warning("bot %s failed to start: %s", self.spec.name, detail)
        if self._transport is None:
            self._exited.set()  # nothing runs: wait() returns at once

    def _on_exit(self, returncode: int) -> None:
        self.returncode = returncode
        self._exit_context = (self._ended, self._stopping)
        self._process_gone.set()
        self._settle_task = asyncio.ensure_future(self._settle())

    async def _settle(self) -> None:
        # Past the bound a descendant holds the pipes: judge with what arrived.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._closed.wait(), _OUTPUT_SETTLE)
        self._exited.set()
        failure = self.failure
        if failure is not None and not self._starting and self._start_failure is None:
            log.warning("bot %s (pid %s): %s", self.spec.name, self.pid, failure)

    def _exit_text(self) -> str:
        code = self.returncode
        assert code is not None
        if code >= 0:
            text = f"exited with code {code}"
        else:
            try:
                text = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                text = f"killed by signal {-code}"
            if -code == getattr(signal, "SIGXCPU", None) and self.limits.cpu_seconds:
                text += f" (CPU time limit of {self.limits.cpu_seconds} s used up)"
        memory = self.limits.memory_bytes
        if code != 0 and memory is not None:
            tail = self.log.stderr.last(_DETAIL_STDERR)
            if any(marker in tail for marker in _OOM_MARKERS):
                text += f" (over its memory limit of {memory / 2**20:g} MiB)"
        return text

    def _stderr_text(self) -> str:
        tail = self.log.stderr.last(_DETAIL_STDERR).decode("utf-8", "replace").strip()
        tail = self.redact(tail)
        return f"; stderr ends with:\n{tail}" if tail else "; nothing on stderr"

    def _signal(self, sig: signal.Signals) -> None:
        assert self.pid is not None
        try:
            os.killpg(self.pid, sig)  # session leader: its pid is the group id
        except ProcessLookupError:
            pass
        except PermissionError:  # macOS: a group of zombies only
            log.debug("killpg(%s, %s) not permitted", self.pid, sig.name)

    def _group_alive(self) -> bool:
        assert self.pid is not None
        return self.returncode is None or _group_has_live_members(self.pid)

    async def _marked(self) -> dict[int, int]:
        """The bot's processes wherever they went (pid -> start time), from /proc."""
        found = await asyncio.to_thread(marked_processes, [self.mark])
        return found[self.mark]

    async def _wait_gone(self, timeout: float, strays: dict[int, int]) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            await asyncio.wait_for(self._process_gone.wait(), timeout)
        except TimeoutError:
            return False
        while self._group_alive() or any(start_time(p) == s for p, s in strays.items()):
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(_POLL)
        return True

    async def _stop(self, grace: float) -> None:
        assert self._transport is not None
        try:
            strays = await self._marked()
            if self._group_alive() or strays:
                self._signal(signal.SIGTERM)
                signal_marked(strays, signal.SIGTERM)
                if not await self._wait_gone(grace, strays):
                    self.killed = True
                    self._signal(signal.SIGKILL)
                    strays = await self._marked()
                    signal_marked(strays, signal.SIGKILL)
                    if not await self._wait_gone(_KILL_WAIT, strays):
                        log.warning("bot %s: process group %s survived SIGKILL for %s s",
                                    self.spec.name, self.pid, _KILL_WAIT)
                # What forked while it was being ended: never given a grace of its own.
                late = await self._marked()
                if late:
                    self.killed = True
                    signal_marked(late, signal.SIGKILL)
                    await self._wait_gone(_KILL_WAIT, late)
            try:
                await asyncio.wait_for(self._closed.wait(), _PIPES_WAIT)
            except TimeoutError:
                log.warning("bot %s: its output pipes are still open after its processes "
                            "are gone (a descendant that dropped %s from its environment?)",
                            self.spec.name, MARK_ENV)
        finally:
            self._transport.close()
            _live.discard(self)
            if self._records is not None:
                self._records.remove(id(self))
            log.info("bot %s stopped: pid %s, return code %s%s", self.spec.name, self.pid,
                     self.returncode, " (SIGKILL)" if self.killed else "")


def launch(
    spec: BotSpec,
    host: str,
    port: int,
    reservation: str | None = None,
    *,
    log_limit: int = DEFAULT_LOG_LIMIT,
    limits: ResourceLimits | None = None,
    grace: float = DEFAULT_GRACE,
    base_env: Mapping[str, str] | None = None,
    data_dir: Path | None = None,
) -> BotProcess:
    """A `BotProcess` for one seat, not yet started: `async with launch(...) as proc:`.

    `reservation` reaches the bot as `GAUNTLET_RESERVATION`; `log_limit` bytes are kept at
    each end of stdout and of stderr; `limits` replaces the spec's resource limits;
    `grace` is the SIGTERM-to-SIGKILL delay when leaving the block; `base_env` replaces
    `os.environ` as the source of the inherited variables; `data_dir`: record the bot
    there, so that a server started after this one died ends it (`reap_orphans`).
    """
    return BotProcess(spec, host, port, reservation, log_limit=log_limit, limits=limits,
                      grace=grace, base_env=base_env, data_dir=data_dir)


def live_processes() -> list[BotProcess]:
    """Every started bot process that has not been stopped yet."""
    return list(_live)


async def kill_all(grace: float = DEFAULT_GRACE) -> None:
    """Stop every live bot process concurrently: for server shutdown."""
    results = await asyncio.gather(*(proc.stop(grace) for proc in list(_live)),
                                   return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            log.error("stopping a bot failed", exc_info=result)


async def _read_until_eof(fd: int) -> bytes:
    """Everything written to a pipe until its last writer closed it, without blocking."""
    loop = asyncio.get_running_loop()
    os.set_blocking(fd, False)
    done: asyncio.Future[bytes] = loop.create_future()
    chunks: list[bytes] = []

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError as exc:
            data = b""
            chunks.append(f"status pipe: {exc}".encode())
        if data:
            chunks.append(data)
        elif not done.done():
            done.set_result(b"".join(chunks))

    loop.add_reader(fd, readable)
    try:
        return await done
    finally:
        loop.remove_reader(fd)
        os.close(fd)


def _group_has_live_members(pgid: int) -> bool:
    """True while a process that is not a zombie is in the group `pgid`.

    `killpg(pgid, 0)` alone also counts zombies, and orphans re-parented to a PID 1 that
    does not reap (common in containers) stay zombies forever; so on Linux /proc decides.
    """
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True  # no /proc: trust killpg
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) >= 3 and int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False
