"""Match ids: UUIDs that begin with their creation time (RFC 9562, version 7).

A room's id is its match's id in the store, where every event is keyed by (match id,
seq). With random ids (version 4) the matches running at once sit anywhere in that index,
so each of them dirties a leaf page of its own somewhere in the file with every group the
writer thread commits; with time-ordered ids they sit together at the index's right end.
On a store holding 1,000 matches that made the writer's work 11 % cheaper
(docs/benchmarks.md, "Store"), and the gap grows with the file. The other 74 bits are
random (from `secrets`), so an id is as hard to guess as one would need: reading is open
anyway, and the secrets are the reservation codes.
"""

from __future__ import annotations

import secrets
import time
import uuid

_RAND_B = (1 << 62) - 1


def new_match_id() -> str:
    """A fresh match (and room) id: a version-7 UUID in its 36-character text form.

    >>> first, second = new_match_id(), new_match_id()
    >>> len(first), uuid.UUID(first).version, first[:8] <= second[:8]
    (36, 7, True)
    """
    millis = time.time_ns() // 1_000_000 & (1 << 48) - 1
    rand = secrets.randbits(80)  # rand_a and rand_b
    value = (millis << 80 | 0x7 << 76 | (rand >> 68) << 64  # version 7, rand_a: 12 bits
             | 0b10 << 62 | rand & _RAND_B)  # the RFC's variant, rand_b: 62 bits
    return str(uuid.UUID(int=value))
