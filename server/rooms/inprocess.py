"""Seats played by a function in the server's own process: a game package's bundled bots
that speak no wire protocol (`server.games.registry.BundledBot.play`).

The room asks as it asks a socket session (`PlayerLink.send_room_event`); a decision for
this seat is answered by `play(view, payload)`, run in a worker thread (a search must not
hold the event loop), with `view` what the game shows this seat (`Game.view(seat)`) and
`payload` the decision's. The answer goes back through `Room.submit`, stamped when `play`
returned, so its think time is the function's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from server.rooms.errors import LobbyError
from server.rooms.events import DecisionRequested, Entry, RoomClosed
from server.rooms.result import LeftCause
from server.rooms.room import Room

log = logging.getLogger(__name__)

IN_PROCESS = "in-process"
"""The lobby's protocol name for these seats: every game can be played by them."""


class InProcessPlayer:
    """One seat, answered by `play`; `name` is for the log."""

    def __init__(self, play: Callable[[Any, Any], Any], name: str = "in-process bot") -> None:
        self.play = play
        self.name = name
        self._task: asyncio.Task[None] | None = None
        self.done = asyncio.Event()

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        event = entry.event
        if isinstance(event, DecisionRequested) and event.seat == seat:
            # One decision at a time per seat: a new request replaces an unanswered one.
            if self._task is not None and not self._task.done():
                self._task.cancel()
            self._task = asyncio.get_running_loop().create_task(
                self._answer(room, seat, event.decision.payload))
        elif isinstance(event, RoomClosed):
            self.done.set()
        return time.monotonic()

    async def _answer(self, room: Room, seat: int, payload: Any) -> None:
        view = room.game.view(seat)
        try:
            answer = await asyncio.to_thread(self.play, view, payload)
        except Exception:
            # A bot that raises is a bot that crashed: its seat loses, as a process's would.
            log.exception("room %s: %s (seat %d) failed", room.id, self.name, seat)
            room.player_gone(self, LeftCause.LOST_CONNECTION)
            return
        with contextlib.suppress(LobbyError):  # the room may have ended meanwhile
            room.submit(self, answer, time.monotonic())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
