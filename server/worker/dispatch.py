"""The API node's side of the cluster: a match between registered bots, played on a worker.

`Dispatcher.submit` stores the match (`waiting`, its seats and bots, seed and clocks,
attempt 0: not played yet) and enqueues `play_match(match_id)`, at most
`GAUNTLET_MAX_QUEUED` jobs queued at a time (it waits for room: backpressure towards the
ladder, never an unbounded queue in Redis). `wait` follows the match in the store until it
is over. Only matches whose every seat is a registered bot go to workers; reserved seats
need the API node's own TCP port and stay there.

Every dispatched match is marked in its options (`"dispatch": "worker"`): an API node that
restarts leaves those to the workers (`Store.recover(keep_dispatched=True)`), a dead
worker's job comes back after the visibility timeout.

`server.runtime.GauntletServer` makes the one dispatcher of an API node (with a broker in
`ServerConfig.cluster`); Celery is imported only when there is one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from server.matches import MatchError
from server.rooms import Clocks
from server.settings import Settings
from server.store import MatchStatus, NewSeat, Store
from server.store.models import OPEN_STATUSES
from server.worker.channels import QUEUE, TASK

log = logging.getLogger(__name__)

BACKPRESSURE_POLL = 0.2
"""Seconds between looks at the queue's length while it is full."""
WAIT_POLL = 0.5
"""Seconds between looks at a dispatched match's status."""
DISPATCH_OPTION = "dispatch"
"""The options key that marks a match played on a worker (value `WORKER`)."""
WORKER = "worker"


class QueueFull(MatchError):
    """`submit` with a timeout: the queue stayed full (`max_queued` jobs) that long (a
    `MatchError` 503: the API answers it as the service's own refusals)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 503)


class Dispatcher:
    """Enqueues matches for the workers of one broker."""

    def __init__(self, settings: Settings, store: Store) -> None:
        if not settings.broker_url:
            raise ValueError("no broker: GAUNTLET_BROKER_URL is not set")
        self.settings = settings
        self.store = store
        self.max_queued = settings.max_queued
        self._app: Any = None
        self._redis: Any = None

    @property
    def app(self) -> Any:
        if self._app is None:
            from server.worker.celery_app import create_app

            self._app = create_app(self.settings)
        return self._app

    def queued(self) -> int:
        """Blocking: jobs waiting in the broker's queue (not those being played)."""
        if self._redis is None:
            import redis

            self._redis = redis.Redis.from_url(self.settings.broker_url or "")
        return int(self._redis.llen(QUEUE))

    async def submit(self, game: str, bots: Sequence[tuple[int, str]], *,
                     seed: int | None = None, clocks: Clocks | None = None,
                     source: str = "ladder", timeout: float | None = None) -> str:
        """Store a match of `bots` ((id, name) per seat) and queue it; its id. Waits while
        `max_queued` jobs are queued (`QueueFull` after `timeout` seconds, if given)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while await asyncio.to_thread(self.queued) >= self.max_queued:
            if deadline is not None and loop.time() >= deadline:
                raise QueueFull(f"{self.max_queued} matches are queued for the workers "
                                "already; try again later")
            await asyncio.sleep(BACKPRESSURE_POLL)
        options: dict[str, Any] = {"source": source, "cluster": True,
                                   DISPATCH_OPTION: WORKER,
                                   **({"clocks": dataclasses.asdict(clocks)} if clocks else {})}
        seats = [NewSeat(name, bot_id) for bot_id, name in bots]

        def create() -> str:
            match = self.store.create_match(game, seats, seed=seed, options=options,
                                            attempt=0)
            self.app.send_task(TASK, args=[match.id], queue=QUEUE)
            return match.id

        return await asyncio.to_thread(create)

    async def wait(self, match_id: str) -> str:
        """The match's status once it is over (finished, aborted or cancelled)."""
        open_ = {s.value for s in OPEN_STATUSES}
        while True:
            match = await asyncio.to_thread(self.store.get_match, match_id)
            if match is None:
                return MatchStatus.ABORTED.value
            if match.status not in open_:
                return match.status
            await asyncio.sleep(WAIT_POLL)

    def close(self) -> None:
        if self._redis is not None:
            self._redis.close()
        if self._app is not None:
            self._app.close()
