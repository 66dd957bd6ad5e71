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

A room whose replay is written (`--save-replays`) is `keep`-ed: its public bodies are kept
by log sequence number until `take`, and the replay is written from the very bytes the
players got instead of encoding every memento a second time.
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
        self._kept: dict[str, tuple[Callable[[bytes], bytes], dict[int, bytes]]] = {}

    def body(self, key: Hashable, message: m.ServerMessage) -> bytes:
        data = self._bodies.get(key)
        if data is None:
            data = server_message_body(message)
            self._bodies[key] = data
            if len(self._bodies) > self._size:
                self._bodies.popitem(last=False)
            if self._kept and isinstance(key, tuple) and key[0] in self._kept \
                    and key[2] is None:
                convert, kept = self._kept[key[0]]
                kept[key[1]] = convert(data)
        else:
            self._bodies.move_to_end(key)
        return data

    def keep(self, room_id: str, convert: Callable[[bytes], bytes]) -> None:
        """Keep the public bodies of `room_id` from now on, until `take`, each as
        `convert` makes it when it is encoded (a move at a time, not all at the end)."""
        self._kept.setdefault(room_id, (convert, {}))

    def take(self, room_id: str) -> dict[int, bytes]:
        """The kept bodies of `room_id` by log sequence number; stops keeping them."""
        kept = self._kept.pop(room_id, None)
        return {} if kept is None else kept[1]
