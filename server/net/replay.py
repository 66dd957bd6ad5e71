"""Replays in the official format (reference §7), written from the match log.

`<protocol>\\n`, then every recorded room packet (mementos sent to the players, errors,
the final result) each followed by `\\n`, then `</protocol>`. File name
`replay_<gameType>_<yyyy-MM-dd_HH-mm-ss>_<name1>_<name2>.xml` (spaces become `_`),
optionally gzipped.
"""

from __future__ import annotations

import gzip
import logging
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from protocols.sc.connection import packet_bytes
from server.net.sc_translate import room_event_messages
from server.rooms import GameOver, MatchResult, Room, StateChanged
from server.rooms.events import Entry

__all__ = ["packet_bytes", "replay_bytes", "replay_name", "write_replay"]

log = logging.getLogger(__name__)


def replay_bytes(room: Room, result: MatchResult, bodies: Mapping[int, bytes] | None = None,
                 logged: Sequence[Entry] | None = None) -> bytes:
    """The replay document of a finished room (the result is not yet in its log).

    `bodies`: the mementos' packets by log sequence number, the very ones the players'
    bytes were made from (`SharedEncodings.keep`/`take`); those are not encoded again.
    `logged`: the log's `replay_entries()` taken when the result was reached (default: now).
    """
    logged = room.log.replay_entries() if logged is None else logged
    entries = [*logged, Entry(len(room.log.entries), GameOver(result),
                              frozenset(range(len(room.slots))), True)]
    bodies = bodies or {}
    parts = [b"<protocol>\n"]
    for entry in entries:
        sent = bodies.get(entry.seq)
        if sent is not None and isinstance(entry.event, StateChanged):
            parts.append(sent + b"\n")
            continue
        # What the first addressed seat got (the SC protocol's mementos are public).
        seat = min(entry.seats) if entry.seats else None
        for message in room_event_messages(room, entry, seat):
            # Each packet at column 0, as XStream writes one object per `toXML` call.
            parts.append(packet_bytes(message) + b"\n")
    parts.append(b"</protocol>")
    return b"".join(parts)


def replay_name(room: Room, when: float | None = None) -> str:
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S", time.localtime(when or time.time()))
    # Display names come from the admin's prepare: cap them so the file name stays legal
    # (most file systems allow 255 bytes per name).
    names = [re.sub(r"[\s/\\\\:]+", "_", slot.display_name)[:40] for slot in room.slots]
    return "_".join(["replay", room.game_type, stamp, *names]) + ".xml"


def write_replay(room: Room, result: MatchResult, directory: Path, gzipped: bool,
                 bodies: Mapping[int, bytes] | None = None,
                 logged: Sequence[Entry] | None = None) -> Path:
    """Write the replay file (never overwriting another) and return its path; `bodies`
    and `logged` as for `replay_bytes`."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    # Built at once and written in one call: this runs on a thread, and every time it let
    # go of the GIL (a write a packet) the event loop's thread paid for taking it back.
    data = replay_bytes(room, result, bodies, logged)
    base = replay_name(room)
    suffix = ".gz" if gzipped else ""
    for attempt in range(1, 1000):
        name = base if attempt == 1 else base.replace(".xml", f"_{attempt}.xml")
        path = directory / (name + suffix)
        try:
            with open(path, "xb") as fh:
                fh.write(gzip.compress(data) if gzipped else data)
            log.info("replay written to %s", path)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(base)
