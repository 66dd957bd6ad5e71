"""Encode a room message once, send the same bytes to every seat and observer.

A memento is the biggest and most frequent message: both players and every observer get
the same one. The body comes from the codec's `server_message_body`; each connection frames
it with its own `send_body` (which adds `<protocol>` on a connection's first send).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from protocols.sc import messages as m
from protocols.sc.connection import server_message_body


class SharedEncodings:
    """A small LRU of encoded message bodies keyed by (room id, log sequence number)."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._bodies: OrderedDict[Hashable, bytes] = OrderedDict()

    def body(self, key: Hashable, message: m.ServerMessage) -> bytes:
        data = self._bodies.get(key)
        if data is None:
            data = server_message_body(message)
            self._bodies[key] = data
            if len(self._bodies) > self._size:
                self._bodies.popitem(last=False)
        else:
            self._bodies.move_to_end(key)
        return data
