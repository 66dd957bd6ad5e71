"""A tiny seeded generator whose whole state is one int (so cloning a game copies it for free)."""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): 64-bit state, good statistical quality.

    >>> a, b = SplitMix64(7), SplitMix64(7)
    >>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        s = self.state = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in ``[0, n)`` (n < 2**32; the bias is below 2**-32)."""
        return ((self.next64() >> 32) * n) >> 32

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> SplitMix64:
        return SplitMix64(self.state)

    def derived(self, salt: int) -> SplitMix64:
        """A generator of its own, fixed by this one's state and ``salt``; this one's stream
        does not move. Two draws that may happen in either order (the two players'
        mulligans, answered at the same time) each take one, so that the order they arrive
        in changes nothing.

        >>> g = SplitMix64(7); a = g.derived(1).next64(); b = g.derived(2).next64()
        >>> a != b and g.derived(1).next64() == a and g.state == 7
        True
        """
        z = ((self.state ^ (salt * 0xD1B54A32D192ED03)) * 0xBF58476D1CE4E5B9) & _MASK
        return SplitMix64(z ^ (z >> 29))
