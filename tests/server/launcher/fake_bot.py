"""A bot that connects nowhere: each mode misbehaves in one way the launcher must handle.

`python fake_bot.py MODE [--host H --port P]` (the reservation is in GAUNTLET_RESERVATION).
"ready" lines are flushed so the tests know the process runs its own code (and not just
the interpreter's start).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time


def ready(extra: str = "") -> None:
    print(f"ready {extra}".strip(), flush=True)


def main() -> None:
    mode = sys.argv[1]
    if mode == "sleep":
        ready()
        time.sleep(60)
    elif mode == "ignore_term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        ready()
        time.sleep(60)
    elif mode in ("fork", "fork_and_exit"):
        # The grandchild ignores SIGTERM too: only SIGKILL to the group gets rid of it.
        child = subprocess.Popen([sys.executable, "-c",
                                  "import signal, time; signal.signal(signal.SIGTERM, "
                                  "signal.SIG_IGN); print('up', flush=True); time.sleep(60)"],
                                 stdout=subprocess.PIPE)
        assert child.stdout is not None
        child.stdout.readline()  # it has installed its handler
        ready(str(child.pid))
        if mode == "fork":
            time.sleep(60)
    elif mode == "flood":
        chunk = b"x" * (1 << 20)
        for _ in range(50):
            sys.stderr.buffer.write(chunk)
        sys.stderr.flush()
    elif mode == "exit3":
        sys.exit(3)
    elif mode == "crash_later":
        ready()
        time.sleep(0.3)
        print("Traceback (most recent call last):\nRuntimeError: boom in move()",
              file=sys.stderr, flush=True)
        sys.exit(2)
    elif mode == "abort":
        ready()
        time.sleep(0.2)
        os.abort()
    elif mode == "memory":
        ready()
        hog = bytearray(1 << 30)  # 1 GiB against a smaller RLIMIT_AS: MemoryError
        print(len(hog))
    elif mode == "secret":  # as socha 5.1.0 does at INFO: "Joining game with reservation"
        code = os.environ.get("GAUNTLET_RESERVATION", "")
        print(f"reservation {code}", flush=True)
        print(f"Joining game with reservation '{code}'", file=sys.stderr, flush=True)
        ready()
        time.sleep(60)
    elif mode in ("family", "family_exit"):
        # A helper in the bot's group, and a daemon in a session of its own (setsid).
        child = subprocess.Popen(["sleep", "1000"])
        daemon = (subprocess.Popen(["setsid", "sleep", "1000"]) if shutil.which("setsid")
                  else subprocess.Popen(["sleep", "1000"], start_new_session=True))
        # The `setsid` program calls setsid() after its own exec, which is when Popen
        # returns: ready only once the daemon is in its session (the tests check it; on a
        # loaded machine the call came after "ready" was read).
        deadline = time.monotonic() + 60
        while os.getsid(daemon.pid) != daemon.pid and time.monotonic() < deadline:
            time.sleep(0.001)
        pids = f"{os.getpid()} {child.pid} {daemon.pid}"
        if "FAMILY_FILE" in os.environ:
            with open(os.environ["FAMILY_FILE"] + ".tmp", "w") as f:
                f.write(pids)
            os.replace(os.environ["FAMILY_FILE"] + ".tmp", os.environ["FAMILY_FILE"])
        ready(pids)
        if mode == "family":
            time.sleep(1000)
    elif mode == "spin":
        ready()
        while True:
            pass
    elif mode == "argv":
        environ = {}
        if os.path.exists("/proc/self/environ"):  # as exec'd: before the interpreter's own coercion
            with open("/proc/self/environ", "rb") as f:
                pairs = [item.split(b"=", 1) for item in f.read().split(b"\0") if item]
            environ = {k.decode(): v.decode() for k, v in pairs}
        print(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": environ,
                          "stdin": sys.stdin.read()}), flush=True)
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
