"""What a bot leaves behind, and how it is ended: start times, the launch mark, the records.

Three ways a bot's processes outlive what the launcher can reach through its process group:

- A descendant starts a session of its own (`setsid`, a daemon) and leaves the group.
  Every process a bot starts inherits its environment, and each launched bot gets a
  variable of its own, `GAUNTLET_LAUNCH=<random>` (`MARK_ENV`): when its match ends, every
  process whose environment carries it is ended, wherever it went (Jenkins finds a build's
  strays the same way). Only a process that clears its environment (`env -i`) escapes.
  Why not snapshots of the process tree: a daemon's parent exits at once, and from then on
  nothing in /proc links it to the bot. Why not a cgroup: a local server run by a user
  may not create one (it needs a delegated cgroup v2 subtree).
- The server dies (`kill -9`, a crash). The bot's own process has the parent-death signal
  (set by `_limited_exec`); what it started is ended by the next server on the same data
  folder: each server records its bots in `<data>/bot-processes/<server pid>.json`, and
  `reap_orphans` ends the recorded processes of servers that are gone.
- A pid is reused. A process is signalled only after its start time (field 22 of
  /proc/<pid>/stat, in clock ticks since boot) matched the one recorded, through a pidfd
  opened before the check, so a reused pid is never hit.

Linux only (/proc); elsewhere nothing is marked, recorded or reaped, and the process group
is all the launcher ends.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any, Final

log = logging.getLogger(__name__)

MARK_ENV: Final = "GAUNTLET_LAUNCH"
"""The variable whose random value marks every process of one launched bot."""
RECORDS: Final = "bot-processes"
"""The folder under the data folder where each server records its launched bots."""
SUPPORTED: Final = sys.platform == "linux" and os.path.isdir("/proc/self")


def start_time(pid: int) -> int | None:
    """The start time of a live process (not a zombie), or None when there is none.

    >>> start_time(os.getpid()) is not None or not SUPPORTED
    True
    """
    stat = _stat(pid)
    return None if stat is None or stat[0] in (b"Z", b"X") else stat[1]


def _stat(pid: int) -> tuple[bytes, int] | None:
    """(state, start time) from /proc/<pid>/stat."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except (OSError, ValueError):
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses; field 22 is the
    # 20th after the closing one.
    fields = stat[stat.rfind(b")") + 2:].split()
    if len(fields) < 20:
        return None
    return fields[0], int(fields[19])


def signal_exact(pid: int, start: int, sig: int) -> bool:
    """Send `sig` to `pid` only if it is still the process that started at `start`.

    The pidfd is opened first and names one process for good; the start time read after
    it tells whether that process is the one recorded. True when the signal was sent.
    """
    fd = -1
    with contextlib.suppress(OSError, AttributeError):
        fd = os.pidfd_open(pid)
    try:
        if start_time(pid) != start:
            return False
        try:
            if fd >= 0:
                signal.pidfd_send_signal(fd, sig)
            else:  # no pidfd (old kernel): the check above was just now
                os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    finally:
        if fd >= 0:
            os.close(fd)


def marked_processes(marks: Collection[str]) -> dict[str, dict[int, int]]:
    """Per mark, the live processes (pid -> start time) whose environment carries it.

    Reads /proc/<pid>/environ, which shows only processes of our own user (and root's
    view of all): another user's bot cannot be hit by this server.
    """
    found: dict[str, dict[int, int]] = {mark: {} for mark in marks}
    if not marks or not SUPPORTED:
        return found
    needles = {f"{MARK_ENV}={mark}".encode(): mark for mark in marks}
    own = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == own:
            continue
        pid = int(entry)
        start = start_time(pid)
        if start is None:
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue
        for item in environ.split(b"\0"):
            mark = needles.get(item)
            if mark is not None:
                found[mark][pid] = start
                break
    return found


def signal_marked(processes: dict[int, int], sig: int) -> None:
    for pid, start in processes.items():
        signal_exact(pid, start, sig)


# -- records -------------------------------------------------------------------------------


class ProcessRecords:
    """This server process's launched bots, as a file the next server reads if we die.

    One file per server process (`<pid>.json`), so servers sharing a data folder never
    write the same file, and a live server's bots are left alone by the next one.
    Written on the event loop: a few hundred bytes to the page cache, no fsync (what is
    guarded against is the server process dying, not the machine).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / f"{os.getpid()}.json"
        self._bots: dict[int, dict[str, Any]] = {}
        self._failing = False

    def add(self, key: int, name: str, pid: int, start: int, mark: str) -> None:
        self._bots[key] = {"name": name, "pid": pid, "start": start, "mark": mark}
        self._write()

    def remove(self, key: int) -> None:
        if self._bots.pop(key, None) is not None:
            self._write()

    def _write(self) -> None:
        try:
            if not self._bots:
                self.path.unlink(missing_ok=True)
            else:
                self.folder.mkdir(parents=True, exist_ok=True)
                own = start_time(os.getpid())
                text = json.dumps({"server": {"pid": os.getpid(), "start": own},
                                   "bots": list(self._bots.values())})
                temporary = self.path.with_suffix(".tmp")
                temporary.write_text(text, encoding="utf-8")
                os.replace(temporary, self.path)
        except OSError as exc:
            if not self._failing:  # once per failing stretch: a full disk says it once
                log.warning("cannot record the launched bots in %s (%s): a server killed "
                            "now leaves their children running", self.path, exc)
            self._failing = True
        else:
            self._failing = False


_records: dict[Path, ProcessRecords] = {}


def records_in(data_dir: Path) -> ProcessRecords | None:
    """The records of this process's bots under `data_dir` (None where /proc is missing)."""
    if not SUPPORTED:
        return None
    folder = (data_dir / RECORDS).absolute()
    records = _records.get(folder)
    if records is None or records.path.name != f"{os.getpid()}.json":  # forked since
        records = _records[folder] = ProcessRecords(folder)
    return records


def reap_orphans(data_dir: Path) -> int:
    """End the recorded bots of servers that are gone, then delete their records.

    A recorded process is killed only if its start time matches (a reused pid is never
    hit); processes carrying a recorded mark are killed wherever they are. The bots of a
    server that is still running (a second server on the same data folder) are left
    alone. Returns how many processes were killed. Blocking: call it in a thread.
    """
    folder = data_dir / RECORDS
    if not SUPPORTED or not folder.is_dir():
        return 0
    dead: list[tuple[Path, list[dict[str, Any]]]] = []
    for path in sorted(folder.iterdir()):
        if path.suffix == ".tmp":
            if not Path(f"/proc/{path.stem}").exists():  # a write its dead server never finished
                path.unlink(missing_ok=True)
            continue
        if path.suffix != ".json":
            continue
        try:
            content = json.loads(path.read_text(encoding="utf-8"))
            server = content["server"]
            bots = [b for b in content["bots"] if isinstance(b, dict)]
            # Our own file too, when another server in this process wrote it.
            alive = start_time(server["pid"]) == server["start"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("ignoring an unreadable record of launched bots %s: %s", path, exc)
            path.unlink(missing_ok=True)
            continue
        if not alive:
            dead.append((path, bots))
    if not dead:
        return 0
    bots = [bot for _path, records in dead for bot in records]
    killed = _kill(bots)
    for path, _ in dead:
        path.unlink(missing_ok=True)
    if killed:
        log.warning("%d process(es) of bots launched by a server that died were killed",
                    killed)
    return killed


def _kill(bots: list[dict[str, Any]]) -> int:
    targets: dict[int, int] = {}
    marks = [str(bot["mark"]) for bot in bots if bot.get("mark")]
    for processes in marked_processes(marks).values():
        targets.update(processes)
    for bot in bots:  # the bot's own process, should its environment have lost the mark
        pid, start = bot.get("pid"), bot.get("start")
        if isinstance(pid, int) and isinstance(start, int):
            targets.setdefault(pid, start)
    return sum(signal_exact(pid, start, signal.SIGKILL) for pid, start in targets.items())
