"""A tiny deterministic reader that turns fuzzer bytes into choices (no atheris needed)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Reader:
    """Consumes ``data`` front to back; once it is used up every read returns 0."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    @property
    def left(self) -> int:
        return len(self.data) - self.pos

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def uint(self, size: int) -> int:
        return int.from_bytes(bytes(self.byte() for _ in range(size)), "big")

    def pick(self, options: Sequence[T]) -> T:
        return options[self.byte() % len(options)]

    def take(self, count: int) -> bytes:
        chunk = self.data[self.pos : self.pos + count]
        self.pos += len(chunk)
        return chunk

    def rest(self) -> bytes:
        return self.take(self.left)


def split(payload: bytes, mode: int) -> list[bytes]:
    """``payload`` in pieces: whole (mode 0), byte by byte (1), or random cuts of at most
    ``mode`` bytes (seeded by ``mode``, so a crash reproduces from its file)."""
    if mode == 0 or not payload:
        return [payload] if payload else []
    if mode == 1:
        return [payload[i : i + 1] for i in range(len(payload))]
    rng = random.Random(mode)
    pieces, start = [], 0
    while start < len(payload):
        end = start + rng.randint(1, mode)
        pieces.append(payload[start:end])
        start = end
    return pieces
