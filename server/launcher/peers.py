"""Which launched bot is on the other end of a loopback connection (Linux).

A launched bot gets its reservation in its environment (`GAUNTLET_RESERVATION`), never on
its command line. Bots that only know the official clients' `--reservation` flag (an
unmodified socha or Java player) then send a plain `<join/>`: the server recognises them by
the process that holds the connection's client end, when that process carries the launch
mark of a seat still waiting (`reaping.MARK_ENV`). Nothing the client says is trusted for
it; another local user's process cannot carry our mark in an environment we can read.

The connection's client end is found in /proc/net/tcp (its inode), then among the file
descriptors of the marked processes only.
"""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import Collection

SUPPORTED = os.path.isdir("/proc/net")


def _hex_ipv4(host: str, port: int) -> str | None:
    try:
        packed = socket.inet_aton(host)
    except OSError:
        return None
    # /proc/net/tcp prints the address as the host-order integer of the network bytes.
    return f"{struct.unpack('=I', packed)[0]:08X}:{port:04X}"


def socket_inode(client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """The inode of the client end of the IPv4 TCP connection `client` -> `server`.

    >>> socket_inode(("127.0.0.1", 1), ("127.0.0.1", 2)) is None
    True
    """
    local, remote = _hex_ipv4(*client[:2]), _hex_ipv4(*server[:2])
    if local is None or remote is None or not SUPPORTED:
        return None
    try:
        with open("/proc/net/tcp", encoding="ascii") as f:
            next(f, None)
            for line in f:
                fields = line.split()
                if len(fields) > 9 and fields[1] == local and fields[2] == remote:
                    return int(fields[9]) or None
    except OSError:
        return None
    return None


def holder(inode: int, pids: Collection[int]) -> int | None:
    """Which of `pids` has the socket `inode` open."""
    target = f"socket:[{inode}]"
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return pid
            except OSError:
                continue
    return None
