"""A worker's subscriber of a room's frames that publishes them on Redis.

It subscribes to the room's `FrameMaker` like the hub's `MatchFeed`: the same frames,
rendered once per entry, offered without blocking. A bounded queue sits between the room
and the publishing task: the room never waits for Redis, and a Redis that is gone costs the
spectators of other nodes their live view (they still get the stored frames), never the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from server.rooms import Room
from server.rooms.events import Entry, GameOver, RoomClosed, StateChanged
from server.spectate.frames import Frame, frames_for, names_of
from server.worker.channels import LOBBY, match_channel

log = logging.getLogger(__name__)

QUEUE_SIZE = 4096
"""Messages waiting for Redis before the outlet starts dropping (and says so once)."""


class RedisOutlet:
    """Publishes one room's frames (`on_entry`) as attempt `attempt` of `match_id`."""

    def __init__(self, redis: Any, room: Room, attempt: int) -> None:
        self.redis = redis  # redis.asyncio.Redis
        self.room = room
        self.attempt = attempt
        self.channel = match_channel(room.id)
        self.queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue(QUEUE_SIZE)
        self.status = "waiting"
        self.result: Any = None
        self._dropping = False
        self.closed = False  # the room logged its last entry
        self._ended = False
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name=f"outlet-{room.id}")

    def info(self) -> dict[str, Any]:
        return {"id": self.room.id, "game": self.room.game_type, "status": self.status,
                "live": self.status in ("waiting", "running", "paused"),
                "players": names_of(self.room), "created": self.room.created_at,
                "finished": None, "result": self.result, "lastSeq": None,
                "attempt": self.attempt}

    def begin(self) -> None:
        maker = frames_for(self.room)
        maker.subscribe(self.on_entry)
        renderer = maker.renderer
        self._send(self.channel, {"t": "start", "info": self.info(), "meta": renderer.meta(),
                                  "state": renderer.state(None, False),
                                  "fullState": renderer.state(None, True)})
        self._lobby("created")

    def on_entry(self, entry: Entry, frame: Frame | None) -> None:
        """A `FrameMaker` subscriber (`begin` subscribes it): each frame onto Redis."""
        if frame is not None:
            self._send(self.channel, {"t": "frame", "seq": frame.seq, "neutral": frame.neutral,
                                      "full": frame.full})
            if isinstance(entry.event, StateChanged) and self.status == "waiting":
                self.status = "running"
                self._lobby("started")
            elif isinstance(entry.event, GameOver):
                self.status = "finished"
                self.result = frame.neutral.get("result")
        if isinstance(entry.event, RoomClosed):
            self.closed = True  # `end` follows once the match is stored (server.worker.job)

    def end(self) -> None:
        if self._ended:
            return
        self._ended = True
        if self.status != "finished":
            self.status = "aborted"
        self._lobby("finished")
        self._send(self.channel, {"t": "end", "status": self.status, "result": self.result})
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def _lobby(self, event: str) -> None:
        self._send(LOBBY, {"t": event, "info": self.info()})

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        message = {**message, "match": self.room.id, "attempt": self.attempt}
        try:
            self.queue.put_nowait((channel, json.dumps(message, separators=(",", ":"))))
        except asyncio.QueueFull:
            if not self._dropping:
                log.warning("match %s: Redis is behind; live frames dropped", self.room.id)
            self._dropping = True

    async def _run(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            channel, text = item
            try:
                await self.redis.publish(channel, text)
            except Exception as exc:
                if not self._dropping:
                    log.warning("match %s: publishing on Redis failed: %s", self.room.id, exc)
                self._dropping = True

    async def close(self, timeout: float = 5.0) -> None:
        """Publish what is queued (bounded wait), then stop."""
        self.end()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        self._task.cancel()
