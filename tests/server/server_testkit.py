"""In-process players and observers for the rooms tests (no sockets)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

from server.rooms import (
    DecisionRequested,
    Entry,
    GameOver,
    Room,
    RoomClosed,
    RoomEvent,
    StateChanged,
)


class InProcessPlayer:
    """A seat implementation that answers move requests from its latest state.

    `choose(state)` picks the move (default: a random legal move); `delay` waits before
    answering; `answer=False` never answers.
    """

    def __init__(self, seed: int = 0, *, choose: Callable[[Any], Any] | None = None,
                 delay: float = 0.0, answer: bool = True) -> None:
        self.events: list[RoomEvent] = []
        self.rng = random.Random(seed)
        self.choose = choose or (lambda s: self.rng.choice(list(s.legal_moves())))
        self.delay = delay
        self.answer = answer
        self.state: Any = None
        self.done = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        self.events.append(entry.event)
        if isinstance(entry.event, StateChanged):
            self.state = entry.event.state
        elif isinstance(entry.event, DecisionRequested) and self.answer:
            task = asyncio.create_task(self._respond(room))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif isinstance(entry.event, RoomClosed):
            self.done.set()
        return time.monotonic()

    async def _respond(self, room: Room) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        room.submit(self, self.choose(self.state), time.monotonic())

    def result(self) -> Any:
        return next(e.result for e in self.events if isinstance(e, GameOver))

    def kinds(self) -> list[str]:
        return [type(e).__name__ for e in self.events]


class InProcessObserver:
    def __init__(self, capacity: int = 10_000) -> None:
        self.events: list[RoomEvent] = []
        self.capacity = capacity

    def offer_room_event(self, room: Room, entry: Entry) -> bool:
        if len(self.events) >= self.capacity:
            return False
        self.events.append(entry.event)
        return True

    def kinds(self) -> list[str]:
        return [type(e).__name__ for e in self.events]
