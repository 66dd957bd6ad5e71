"""A bounded capture of a child's output: the first N bytes, the last N bytes, a count.

The start of a log says how a bot started (versions, options, the first traceback); the
end says how it died. What is in between is counted, not kept, so a bot printing
megabytes costs at most 2 N bytes per stream and never blocks on a full pipe.

>>> log = BoundedLog(4)
>>> log.feed(b"hello, "); log.feed(b"world")
>>> log.head, log.tail, log.dropped, log.total
(b'hell', b'orld', 4, 12)
>>> log.text()
'hell\\n[... 4 bytes dropped ...]\\norld'
"""

from __future__ import annotations


class BoundedLog:
    """The first `limit` bytes and the last `limit` bytes of a stream."""

    __slots__ = ("_head", "_tail", "dropped", "limit", "total")

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        self.limit = limit
        self._head = bytearray()
        self._tail = bytearray()
        self.dropped = 0
        self.total = 0

    def feed(self, data: bytes) -> None:
        """Append a chunk; whatever falls between head and tail only increments `dropped`."""
        self.total += len(data)
        room = self.limit - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if not data:
            return
        if len(data) >= self.limit:
            # The chunk alone fills the tail: skip the copy of what would be trimmed anyway.
            self.dropped += len(self._tail) + len(data) - self.limit
            self._tail = bytearray(data[len(data) - self.limit:])
            return
        self._tail += data
        excess = len(self._tail) - self.limit
        if excess > 0:
            del self._tail[:excess]  # amortised O(1): bytearray moves its start offset
            self.dropped += excess

    @property
    def head(self) -> bytes:
        return bytes(self._head)

    @property
    def tail(self) -> bytes:
        return bytes(self._tail)

    def last(self, n: int) -> bytes:
        """The last `n` bytes kept (from the tail, or the head while nothing was dropped)."""
        if n <= 0:
            return b""
        kept = self._tail if self.dropped else self._head + self._tail
        return bytes(kept[-n:])

    def text(self) -> str:
        """Everything kept, decoded leniently, with a marker where bytes were dropped."""
        head = self._head.decode("utf-8", "replace")
        tail = self._tail.decode("utf-8", "replace")
        if self.dropped:
            return f"{head}\n[... {self.dropped} bytes dropped ...]\n{tail}"
        return head + tail


class SeatLog:
    """A seat's captured output: stdout and stderr, each a `BoundedLog` of its own.

    Separate streams because a crash report wants stderr's tail, not the moves a bot
    chattered on stdout just before it.
    """

    __slots__ = ("stderr", "stdout")

    def __init__(self, limit: int) -> None:
        self.stdout = BoundedLog(limit)
        self.stderr = BoundedLog(limit)
