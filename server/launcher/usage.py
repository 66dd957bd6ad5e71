"""What a launched bot's processes used: CPU time and peak resident memory, from /proc.

Linux only: elsewhere (no /proc) `sample` returns None and the moves carry no figures.

- CPU: `utime + stime + cutime + cstime` of every process of the bot's tree (the bot's
  process and its descendants, found through `/proc/<pid>/task/<tid>/children`), in
  clock ticks (usually 10 ms: that is the resolution). `cutime`/`cstime` hold the
  descendants that exited and were waited for, so a helper that ran and ended between two
  samples still counts; a descendant that left the tree (a daemon re-parented to init)
  does not.
- Memory: the sum of the tree's `VmHWM` (each process's peak resident set; the sum bounds
  the tree's peak from above). `reset_peaks` writes `5` to each `clear_refs` (Linux 4.0+),
  which sets `VmHWM` back to the current resident set: sampled at a decision's end, the
  peak is that decision's.

Why this runs on the event loop: a sample must be taken at the decision's boundary (a
thread would take it later, while the bot thinks on), and /proc files are generated in
memory: one small read per process and per thread of the tree, microseconds each. A
bot's tree is bounded by its process limit, not by anything the server does.

>>> import os
>>> now = sample(os.getpid())
>>> now is None or (now.cpu_ms >= 0 and now.peak_rss_kb > 0)
True
>>> sample(0) is None
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final

_TICK_MS: Final = 1000 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 10.0
_MAX_PROCESSES: Final = 512  # a fork bomb's tree is not walked to its end


@dataclass(frozen=True, slots=True)
class Usage:
    """A sample of a bot's tree: CPU milliseconds used since it started, peak RSS in KiB."""

    cpu_ms: float
    peak_rss_kb: int


def tree(pid: int) -> list[int]:
    """`pid` and its live descendants (pid first), at most `_MAX_PROCESSES`; [] when gone."""
    if pid <= 0 or not os.path.isdir(f"/proc/{pid}"):
        return []
    found = [pid]
    index = 0
    while index < len(found) and len(found) < _MAX_PROCESSES:
        current = found[index]
        index += 1
        try:
            threads = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                with open(f"/proc/{current}/task/{tid}/children", "rb") as f:
                    children = f.read().split()
            except OSError:
                continue
            found.extend(int(child) for child in children)
    return found[:_MAX_PROCESSES]


def _cpu_ticks(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses; fields 14-17
    # (utime stime cutime cstime) are 11-14 after the state.
    fields = stat[stat.rfind(b")") + 2:].split()
    if len(fields) < 15:
        return None
    return sum(int(value) for value in fields[11:15])


def _peak_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return 0  # a kernel thread or a zombie: no memory of its own


def sample(pid: int | None) -> Usage | None:
    """The bot's tree's CPU time and peak memory now; None when it is gone or no /proc."""
    if pid is None:
        return None
    ticks = 0
    peak = 0
    seen = False
    for member in tree(pid):
        cpu = _cpu_ticks(member)
        if cpu is None:
            continue
        seen = True
        ticks += cpu
        peak += _peak_kb(member) or 0
    if not seen:
        return None
    return Usage(ticks * _TICK_MS, peak)


def reset_peaks(pid: int | None) -> None:
    """Set each process's peak RSS back to its current RSS, so the next `sample` reports
    the peak since now (a process that refuses, or a kernel without it: its peak stays)."""
    if pid is None:
        return
    for member in tree(pid):
        try:
            with open(f"/proc/{member}/clear_refs", "wb") as f:
                f.write(b"5")
        except OSError:
            pass
