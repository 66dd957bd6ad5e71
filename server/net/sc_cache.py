"""Encode a room message once, send the same bytes to every recipient allowed to see it.

A memento is the biggest and most frequent message: both Blokus players and every observer
get the same one. Keys name what the recipient may see, (room id, log sequence number,
audience): audience None is the public view, a seat number a view of that seat's own, so a
body is shared only between recipients of the same view. The body comes from the codec's
`server_message_body`; each connection frames it with its own `send_body`.

A body is needed only while its entry is being delivered: both players encode it in the
same `Room._emit`, observers when their outbox reaches it (usually within the same loop
turn or the next few). Older bodies are never asked for again, so the LRU stays small: a
miss only costs encoding once more.

A room whose replay is written (`--save-replays`) is `keep`-ed: each public memento is
encoded once, as its replay packet (column 0, `packet_of`), and kept by log sequence number
until `take`; the in-stream body is that packet one level deeper (`nested`), the same bytes
`server_message_body` writes. Indenting is cheap where taking indentation away is not, so a
move costs replays a few microseconds, not a second encoding or a re-indent.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

from protocols.sc import messages as m
from protocols.sc.connection import server_message_body


class SharedEncodings:
    """A small LRU of encoded message bodies keyed by (room id, log sequence number, audience)."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._bodies: OrderedDict[Hashable, bytes] = OrderedDict()
        self._kept: dict[str, tuple[Callable[[m.Memento], bytes], dict[int, bytes]]] = {}

    def body(self, key: Hashable, message: m.ServerMessage) -> bytes:
        data = self._bodies.get(key)
        if data is None:
            if self._kept and isinstance(key, tuple) and key[2] is None \
                    and type(message) is m.Memento and key[0] in self._kept:
                packet_of, packets = self._kept[key[0]]  # key: (room id, seq, audience)
                packet = packet_of(message)
                packets[key[1]] = packet
                data = nested(packet)
            else:
                data = server_message_body(message)
            self._bodies[key] = data
            if len(self._bodies) > self._size:
                self._bodies.popitem(last=False)
        else:
            self._bodies.move_to_end(key)
        return data

    def keep(self, room_id: str, packet_of: Callable[[m.Memento], bytes]) -> None:
        """From now on until `take`, encode the public mementos of `room_id` as their
        replay packets (`packet_of`) and keep those."""
        self._kept.setdefault(room_id, (packet_of, {}))

    def take(self, room_id: str) -> dict[int, bytes]:
        """The kept packets of `room_id` by log sequence number; stops keeping them."""
        kept = self._kept.pop(room_id, None)
        return {} if kept is None else kept[1]


def nested(packet: bytes) -> bytes:
    """A packet written at column 0 as an in-stream body (one level deep, after a line
    break): every line two spaces further in. Valid for packets with no line break inside
    a value, as mementos (an attribute's line break is written as a reference).

    >>> nested(b'<room roomId="r">\\n  <data class="memento"/>\\n</room>')
    b'\\n  <room roomId="r">\\n    <data class="memento"/>\\n  </room>'
    """
    return b"\n  " + packet.replace(b"\n", b"\n  ")
