"""An ended match's events as one compressed document (`match_logs.data`, format 1).

A match's events repeat themselves: every Hearth state carries both spectator frames of the
whole table, and a Blokus match is two hundred rows of a few dozen bytes each. Stored a row
per event they took about 617 KB per Hearth match and 16 KB per Blokus match (issue #24);
packed, the match is one zlib stream in which each frame costs about what changed since the
frames before it (zlib's window holds the previous few), and the per-row costs are gone
(docs/benchmarks.md, "Stored bytes per match").

The document is JSON: ``{"format": 1, "events": [[seq, micros, kind, payload], ...]}``
with `micros` each event's time in microseconds after the previous event's (the first: after
the Unix epoch), and `payload` exactly the JSON text the event row held, so that a packed
event reads back as the very value its row read back as (same keys in the same order).

>>> from datetime import UTC, datetime
>>> when = datetime(2027, 3, 1, 12, 0, 0, 250, tzinfo=UTC)
>>> data = pack([(0, when, "welcome", '{"seat":0}'), (1, when, "state", '{"a":[1,2]}')])
>>> unpack(data)[1] == (1, when, "state", {"a": [1, 2]})
True
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

FORMAT = 1
LEVEL = 6
"""zlib's level: 9 saved another 8 % of a Hearth match for 70 % more of the writer's time."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)

encode = json.JSONEncoder(separators=(",", ":")).encode

Row = tuple[int, datetime, str, Any]
"""(seq, time, kind, payload) of one event."""


class PackError(ValueError):
    """Data that is not a packed log this code can read."""


def micros(when: datetime) -> int:
    """A time as whole microseconds after the epoch (exact: no float on the way)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when - _EPOCH) // _MICRO


def pack(rows: Iterable[tuple[int, datetime, str, str]]) -> bytes:
    """(seq, time, kind, payload JSON text) in seq order, packed."""
    parts: list[str] = []
    previous = 0
    for seq, when, kind, text in rows:
        now = micros(when)
        parts.append(f"[{int(seq)},{now - previous},{encode(kind)},{text}]")
        previous = now
    document = f'{{"format":{FORMAT},"events":[{",".join(parts)}]}}'
    return zlib.compress(document.encode(), LEVEL)


def unpack(data: bytes) -> list[Row]:
    """The events of a packed log, in seq order, payloads parsed."""
    try:
        document = json.loads(zlib.decompress(data))
        if document.get("format") != FORMAT:
            raise PackError(f"packed log of format {document.get('format')!r}, "
                            f"this code reads format {FORMAT}")
        found: list[Row] = []
        now = 0
        for seq, delta, kind, payload in document["events"]:
            now += delta
            found.append((seq, _EPOCH + timedelta(microseconds=now), kind, payload))
    except PackError:
        raise
    except (zlib.error, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise PackError(f"not a packed log: {exc}") from exc
    return found
