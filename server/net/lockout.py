"""Failed admin logins per address: guessing the SC admin password is locked out.

The official server checks `<authenticate password>` as often as a client cares to send
it. Here an address that failed `attempts` times within `window` seconds is refused for
`duration` seconds, even with the right password, on every connection it opens.

>>> lockout = Lockout(attempts=3, window=60.0, duration=300.0)
>>> for now in (0.0, 1.0, 2.0):
...     lockout.failed("10.0.0.7", now)
>>> lockout.locked("10.0.0.7", now=3.0), lockout.locked("10.0.0.8", now=3.0)
(299.0, 0.0)
>>> lockout.locked("10.0.0.7", now=302.0)  # over: the address may try again
0.0
"""

from __future__ import annotations

from collections import OrderedDict


class Lockout:
    """Counts failures per address (an IP string); at most `max_addresses` are remembered.

    Time comes from the caller, so that it is testable without a clock.
    """

    def __init__(self, attempts: int = 5, window: float = 60.0, duration: float = 300.0,
                 max_addresses: int = 10_000) -> None:
        if attempts < 1 or window <= 0 or duration <= 0 or max_addresses < 1:
            raise ValueError("attempts and max_addresses must be >= 1, window and duration > 0")
        self.attempts = attempts
        self.window = window
        self.duration = duration
        self._max = max_addresses
        # address -> (failures in the current window, when the window began, locked until)
        self._seen: OrderedDict[str, tuple[int, float, float]] = OrderedDict()

    def locked(self, address: str, now: float) -> float:
        """The seconds `address` stays locked out; 0 when it may try."""
        entry = self._seen.get(address)
        if entry is None or entry[2] <= now:
            return 0.0
        return entry[2] - now

    def failed(self, address: str, now: float) -> None:
        """One more wrong password from `address`."""
        count, began, until = self._seen.pop(address, (0, now, 0.0))
        if until > now:  # already locked: a guess while locked does not prolong it
            self._seen[address] = (count, began, until)
            return
        if now - began > self.window:
            count, began = 0, now
        count += 1
        until = now + self.duration if count >= self.attempts else 0.0
        self._seen[address] = (0 if until else count, now if until else began, until)
        while len(self._seen) > self._max:
            # Forget the address whose last failure is oldest: a flood of addresses
            # cannot grow this without bound.
            self._seen.popitem(last=False)

    def succeeded(self, address: str) -> None:
        """The right password: the address's earlier failures are forgiven."""
        self._seen.pop(address, None)
