"""In-process players and observers for the rooms tests (no sockets)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Any

from server.rooms import (
    Decision,
    DecisionRequested,
    Entry,
    GameOver,
    LobbyError,
    MatchResult,
    MoveRejected,
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


class InProcessSeat:
    """A seat of any game that is not a socket session: answers each decision it is asked
    with `choose(decision)` after `delay` seconds (`choose` None: never answers).

    Records every entry it receives, and separately what it was shown (`news`: the
    `views.of(seat)` of each StateChanged) and the refusals it got.
    """

    def __init__(self, choose: Callable[[Decision], Any] | None, *, delay: float = 0.0,
                 delays: Callable[[Decision], float] | None = None) -> None:
        self.choose = choose
        self.delays = delays or (lambda _decision: delay)
        self.entries: list[Entry] = []
        self.news: list[Any] = []
        self.asked: list[Decision] = []
        self.refused: list[MoveRejected] = []
        self.room: Room | None = None
        self.done = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        self.room = room
        self.entries.append(entry)
        event = entry.event
        if isinstance(event, StateChanged):
            self.news.append(event.views.of(seat))
        elif isinstance(event, MoveRejected):
            self.refused.append(event)
            open_decision = room.open_decision(seat)
            if not event.final and open_decision is not None:
                self._answer_later(room, open_decision)  # a nack: try again, clock running
        elif isinstance(event, DecisionRequested):
            self.asked.append(event.decision)
            self._answer_later(room, event.decision)
        elif isinstance(event, RoomClosed):
            self.done.set()
        return time.monotonic()

    def _answer_later(self, room: Room, decision: Decision) -> None:
        if self.choose is None:
            return
        task = asyncio.create_task(self._answer(room, decision))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, room: Room, decision: Decision) -> None:
        delay = self.delays(decision)
        if delay:
            await asyncio.sleep(delay)
        assert self.choose is not None
        with contextlib.suppress(LobbyError):  # the room may have closed meanwhile
            room.submit(self, self.choose(decision), time.monotonic())

    def result(self) -> MatchResult:
        return next(e.event.result for e in self.entries if isinstance(e.event, GameOver))


async def assert_freed(room: Callable[[], Room | None]) -> None:
    """`room` (a weak reference) is dead once the loop has run the room's done callbacks:
    reference counting freed it (call with the cyclic collector disabled)."""
    import gc

    for _ in range(5):  # done callbacks run in later loop turns
        await asyncio.sleep(0.01)
    left = room()
    holders = [] if left is None else [type(r).__name__ for r in gc.get_referrers(left)]
    del left
    assert room() is None, f"the finished room is still referenced by {holders}"
