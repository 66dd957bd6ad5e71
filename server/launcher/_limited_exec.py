"""Arm the parent-death signal, set resource limits, then become the bot: the exec wrapper.

Run as `python -I -S _limited_exec.py STATUS_FD PARENT MEMORY CPU LC_CTYPE -- ARGV...`
(a dash for "no limit"; LC_CTYPE is `-` for unset or `=value`; PARENT is the launching
server's pid). Why a wrapper and not `preexec_fn`: preexec_fn runs Python between fork and
exec in a copy of a multi-threaded server, which can deadlock on locks held by other
threads; this program is single-threaded and freshly started. Limits and the parent-death
signal survive `exec`, so the bot starts already limited and already bound to the server.

Why the parent-death signal (Linux, `prctl(PR_SET_PDEATHSIG, SIGKILL)`): a server killed
with `kill -9` cannot stop its bots, and a bot spinning in its search would burn a core
until somebody noticed. The kernel sends the signal when the *thread* that forked us
exits: asyncio forks from the event loop's thread, which lives as long as the server's
loop does. The signal is cleared only when a set-user-ID program is executed. It reaches
the bot's own process only; what the bot started is ended by the next server
(`reaping`).

Why the status pipe: an exec failure must not look like a bot exiting 127. The fd is
marked close-on-exec right before `execvpe`, so the launcher reads EOF alone when the
exec worked, and the reason when it did not (the way `subprocess` itself reports).

Why LC_CTYPE: the interpreter may coerce a C locale by setting LC_CTYPE in its own
environment (PEP 538); the bot must get the environment the launcher chose, not ours.

Standard library only and no package imports: it runs isolated (`-I -S`) for a fast start.
`exec_error` is shared with the launcher, so both ways of starting a bot word a failed exec
the same.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import sys

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def exec_error(program: str, exc: OSError, cwd: str, search_path: str | None) -> str:
    """Why `program` could not be executed, with a hint where the bare errno misleads.

    ENOENT for a file that exists means its `#!` interpreter is missing; ENOEXEC means a
    file that is no program (a script without `#!`: `execve` does not fall back to sh).
    """
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOENT:
        if os.sep in program:
            exists = os.path.isfile(os.path.join(cwd, program))
        else:
            exists = shutil.which(program, path=search_path) is not None
        if exists:
            reason += " (is the interpreter on its #! line installed?)"
    elif exc.errno == errno.ENOEXEC:
        reason += " (not a program: does the script start with a #! line?)"
    return f"cannot execute {program!r}: {reason}"


def _die_with(parent: int) -> None:
    """SIGKILL when the launching thread exits; exit now if the server died already."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        armed = False  # no prctl (an odd libc): the next server reaps the bot instead
    if armed and os.getppid() != parent:
        os._exit(1)  # re-parented before the signal was armed: nobody is waiting for us


def _fail(status_fd: int, message: str) -> None:
    os.write(status_fd, message.encode("utf-8", "replace"))
    os._exit(127)


def main(args: list[str]) -> None:
    status_fd = int(args[0])
    parent, memory, cpu, lc_ctype, separator = args[1:6]
    argv = args[6:]
    if separator != "--" or not argv or not parent.isdigit():
        _fail(status_fd, f"launcher wrapper called wrongly: {args!r}")
    _die_with(int(parent))
    try:
        if memory != "-":
            resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
        if cpu != "-":
            # Soft limit: SIGXCPU (a bot may report it); one second later SIGKILL.
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
    except (ValueError, OSError) as exc:
        _fail(status_fd, f"cannot set resource limits (memory {memory}, cpu {cpu}): {exc}")
    env = dict(os.environ)
    if lc_ctype == "-":
        env.pop("LC_CTYPE", None)
    else:
        env["LC_CTYPE"] = lc_ctype[1:]
    os.set_inheritable(status_fd, False)
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        _fail(status_fd, exec_error(argv[0], exc, os.getcwd(), env.get("PATH")))


if __name__ == "__main__":
    main(sys.argv[1:])
