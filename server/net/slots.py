"""Connection slots of the bot port: who may hold a connection, and who goes first when full.

A connection is not judged when it is accepted (nothing is known of it then) but by what
it does. Until it has joined a room or authenticated it is *waiting*; after that it is
*settled* and never evicted. The caps are `max_connections` in all and, per address,
`max_per_address` (`max_per_loopback` for this machine's own addresses, where every bot
the server launches comes from):

- a connection arriving over a cap evicts the oldest waiting connection of that scope
  (the address, then the whole server) instead of being refused itself: silent and
  half-spoken connections are the first to go, and a flood of them only evicts itself.
  Up to `WAITING_RESERVE` connections may wait in a scope whatever the cap (a few bots
  connecting at once to a server full of players do not evict each other before they
  had the time to say who they are);
- a waiting connection that asks to join while the settled ones fill a cap is refused
  (`refusal`), unless its request is *trusted*: a join with a valid reservation (the
  server's own launched bots, and every seat an admin prepared) or a correct admin
  password. Those always get a slot, whatever the other connections do.

So a scope holds at most its cap or its settled connections plus `WAITING_RESERVE`,
whichever is more, and settled connections exceed a cap only by trusted ones, which the
rooms bound (a reservation seats one player).

>>> slots = Slots(max_connections=4, max_per_address=2, max_per_loopback=2, reserve=1)
>>> gone = []
>>> def opened(address, name):
...     slot = slots.open(address)
...     slot.on_evict = lambda reason, detail: gone.append((name, reason))
...     return slot
>>> a, b = opened("10.0.0.1", "a"), opened("10.0.0.1", "b")
>>> a.settle()
>>> c = opened("10.0.0.1", "c")  # over the address cap: the oldest waiting one goes
>>> gone
[('b', 'too_many_connections')]
>>> c.refusal(trusted=False) is None  # one settled connection there: c may join
True
>>> c.settle()
>>> d = opened("10.0.0.1", "d")  # the address is full of settled ones: d may wait...
>>> d.refusal(trusted=False), d.refusal(trusted=True)  # ...but only a trusted join is let in
(('too_many_connections', '2 connections from 10.0.0.1'), None)
>>> e, f = opened("10.0.0.2", "e"), opened("10.0.0.3", "f")  # over the server cap: d goes
>>> gone[1:], (slots.total, slots.settled_total)
([('d', 'server_full')], (4, 2))
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Callable

WAITING_RESERVE = 16
"""Connections that may wait to be judged in a scope whatever its cap (see above)."""

Refusal = tuple[str, str]
"""A Kettle nack reason (`server_full`, `too_many_connections`) and a sentence for humans."""


class Slot:
    """One accepted connection's place in `Slots`."""

    __slots__ = ("_slots", "address", "gone", "on_evict", "settled")

    def __init__(self, slots: Slots, address: str) -> None:
        self._slots = slots
        self.address = address
        self.settled = False
        self.gone = False
        # Told (reason, detail) when the connection is evicted; it must then close it.
        self.on_evict: Callable[[str, str], None] | None = None

    def refusal(self, trusted: bool) -> Refusal | None:
        """Why this connection may not join now (None: it may); `trusted` requests (a valid
        reservation, the admin password) always may."""
        if self.settled or self.gone or trusted:
            return None
        return self._slots.refusal(self.address)

    def settle(self) -> None:
        """The connection joined a room or authenticated: it keeps its slot from now on."""
        if not self.settled and not self.gone:
            self._slots.settle(self)

    def close(self) -> None:
        """The connection ended (idempotent)."""
        if not self.gone:
            self._slots.remove(self)


class Slots:
    """The bot port's connection table; see the module docstring."""

    def __init__(self, max_connections: int, max_per_address: int, max_per_loopback: int,
                 reserve: int = WAITING_RESERVE) -> None:
        if reserve < 1:
            raise ValueError("reserve must be at least 1 (the newcomer itself)")
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.max_per_loopback = max_per_loopback
        self.reserve = reserve
        self.total = 0
        self.settled_total = 0
        self._count: Counter[str] = Counter()
        self._settled: Counter[str] = Counter()
        # Waiting connections, oldest first (dicts keep insertion order): in all and by address.
        self._waiting: dict[Slot, None] = {}
        self._waiting_at: dict[str, dict[Slot, None]] = {}

    def cap(self, address: str) -> int:
        """Connections one address may hold."""
        return self.max_per_loopback if is_loopback(address) else self.max_per_address

    def open(self, address: str) -> Slot:
        """A connection was accepted; older waiting ones may be evicted to make room."""
        slot = Slot(self, address)
        self.total += 1
        self._count[address] += 1
        self._waiting[slot] = None
        self._waiting_at.setdefault(address, {})[slot] = None
        cap = self.cap(address)
        if self._count[address] > cap:
            self._evict_oldest(self._waiting_at[address], "too_many_connections",
                               f"{cap} connections from {address}; the oldest that had "
                               "joined nothing is closed first")
        if self.total > self.max_connections:
            self._evict_oldest(self._waiting, "server_full",
                               f"{self.max_connections} connections; the oldest that had "
                               "joined nothing is closed first")
        return slot

    def refusal(self, address: str) -> Refusal | None:
        """Why a waiting connection from `address` may not settle now (None: it may)."""
        if self.settled_total >= self.max_connections:
            return "server_full", f"{self.max_connections} connections"
        cap = self.cap(address)
        if self._settled[address] >= cap:
            return "too_many_connections", f"{cap} connections from {address}"
        return None

    def settle(self, slot: Slot) -> None:
        self._unwait(slot)
        slot.settled = True
        self.settled_total += 1
        self._settled[slot.address] += 1

    def remove(self, slot: Slot) -> None:
        slot.gone = True
        self.total -= 1
        _decrement(self._count, slot.address)
        if slot.settled:
            self.settled_total -= 1
            _decrement(self._settled, slot.address)
        else:
            self._unwait(slot)

    def _unwait(self, slot: Slot) -> None:
        self._waiting.pop(slot, None)
        at = self._waiting_at.get(slot.address)
        if at is not None:
            at.pop(slot, None)
            if not at:
                del self._waiting_at[slot.address]

    def _evict_oldest(self, waiting: dict[Slot, None], reason: str, detail: str) -> None:
        """Evict the oldest of a scope's waiting connections, unless no more than the
        reserve wait (the newcomer, the newest, is never the one)."""
        if len(waiting) <= self.reserve:
            return
        victim = next(iter(waiting))
        self.remove(victim)
        if victim.on_evict is not None:
            victim.on_evict(reason, detail)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def peer_address(peer: object) -> str:
    """The address part of a socket's peer name (the whole of it when it has none)."""
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


def is_loopback(address: str) -> bool:
    """Whether a peer address is this machine's loopback.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("10.0.0.1")
    (True, True, False)
    """
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False  # a Unix socket path or an odd peer: count it like any other
