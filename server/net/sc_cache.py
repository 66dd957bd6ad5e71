"""Encode a room message once, send the same bytes to every seat and observer.

A memento is the biggest and most frequent message: both players and every observer get
the same one. The codec's bytes for a message depend on the connection only through the
`<protocol>` prefix of its very first send, so once a session has sent anything, shared
bytes are exact. They come from a private codec primed with one message, using only the
codec's public API.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from protocols.sc import ServerConnection
from protocols.sc import messages as m


class SharedEncodings:
    """A small LRU of encoded message bodies keyed by (room id, log sequence number)."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._bodies: OrderedDict[Hashable, bytes] = OrderedDict()
        self._codec = ServerConnection()
        self._codec.send(m.Joined(""))  # prime it: later sends carry no `<protocol>` prefix

    def body(self, key: Hashable, message: m.ServerMessage) -> bytes:
        data = self._bodies.get(key)
        if data is None:
            data = self._codec.send(message)
            self._bodies[key] = data
            if len(self._bodies) > self._size:
                self._bodies.popitem(last=False)
        else:
            self._bodies.move_to_end(key)
        return data
