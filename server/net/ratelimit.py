"""A token bucket per connection: the official server has no rate limit, a shared one needs it.

>>> bucket = MessageRate(per_second=2, burst=3)
>>> [bucket.take(now=0.0) for _ in range(4)]
[True, True, True, False]
>>> bucket.take(now=0.5)  # half a second refills one message
True
"""

from __future__ import annotations


class MessageRate:
    """Allows `per_second` messages on average and bursts of up to `burst` at once.

    Time comes from the caller (the arrival stamp of the bytes), so it is testable without
    a clock and a burst of messages that arrived in one read is counted as one instant.
    """

    __slots__ = ("_stamp", "_tokens", "burst", "per_second")

    def __init__(self, per_second: float, burst: int) -> None:
        if per_second <= 0 or burst < 1:
            raise ValueError("per_second must be > 0 and burst >= 1")
        self.per_second = per_second
        self.burst = burst
        self._tokens = float(burst)
        self._stamp: float | None = None

    def take(self, now: float) -> bool:
        """Spend one message; False when the peer is over its rate."""
        if self._stamp is not None and now > self._stamp:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        if self._stamp is None or now > self._stamp:
            self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
