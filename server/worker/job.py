"""One `play_match` job: attempt N of a stored match, played in this process.

The worker hosts the room itself: a `server.host.MatchHost` on an ephemeral loopback
port, whose match service launches both registered bots with the same launcher as the
single-machine server, records every event and the result through a `StoreWriter` on the
shared store (`AttemptStore`: the writes of a superseded attempt are refused), and whose
room is observed by a `RedisOutlet` (live frames for the spectators of every API node).

The room takes the stored match's id (the match service keys everything by room id), the
seats are the stored seats (their bots), the seed and clocks the stored ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from server.config import ServerConfig
from server.rooms import Clocks, Room
from server.settings import Settings
from server.store import MatchStatus, Store
from server.worker.attempts import AttemptStore, begin_attempt

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Played:
    """What a job did: the attempt it played (None: the match was over already) and the
    match's status afterwards."""

    match_id: str
    attempt: int | None
    status: str


def play(match_id: str, settings: Settings) -> Played:
    """Blocking (a Celery task body): play the next attempt of `match_id`."""
    return asyncio.run(play_async(match_id, settings))


async def play_async(match_id: str, settings: Settings) -> Played:
    plain = Store(settings.database_url)
    try:
        attempt = await asyncio.to_thread(begin_attempt, plain, match_id)
        if attempt is None:
            match = await asyncio.to_thread(plain.get_match, match_id)
            status = "missing" if match is None else match.status
            log.info("match %s is %s already: nothing to play", match_id, status)
            return Played(match_id, None, status)
        log.info("match %s: attempt %d", match_id, attempt)
        await _play_attempt(match_id, attempt, settings, plain)
        match = await asyncio.to_thread(plain.get_match, match_id)
        return Played(match_id, attempt, "missing" if match is None else match.status)
    finally:
        plain.close()


async def _play_attempt(match_id: str, attempt: int, settings: Settings, plain: Store) -> None:
    from server.host import MatchHost
    from server.matches import SeatRequest

    match = await asyncio.to_thread(plain.get_match, match_id)
    seats = await asyncio.to_thread(plain.seats, match_id)
    if match is None:  # deleted between begin_attempt and now: nothing to play
        return
    options: dict[str, Any] = dict(match.options or {})
    clocks = Clocks(**options["clocks"]) if options.get("clocks") else None
    store = AttemptStore(settings.database_url, match_id, attempt)
    config = ServerConfig.from_settings(settings, host="127.0.0.1", tcp_port=0,
                                        http_port=None, save_replays=False,
                                        admin_password=secrets.token_urlsafe(16))
    redis = _redis(settings)
    outlets: list[Any] = []

    def observe(room: Room) -> None:
        # A listener after the match service (which tracks the room): the live frames go
        # to the spectators of every API node.
        if redis is not None:
            from server.worker.outlet import RedisOutlet

            outlet = RedisOutlet(redis, room, attempt)
            outlet.begin()
            outlets.append(outlet)

    # A host without the single server's chores (no ladder, no recovery of other matches,
    # which are not this worker's), recording through the attempt's store.
    host = MatchHost(config, store=store, room_listeners=[observe])
    await host.start()
    try:
        requests = [SeatRequest(name=s.display_name or None, bot=s.bot_id) for s in seats]
        # The room takes the match's id: the store has its row already.
        room, _ = await host.matches.create_match(match.game, requests, seed=match.seed,
                                                  clocks=clocks, match_id=match_id)
        if room.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(room.task)
        # The spectators' stream ends (`end`: their sockets close) only once the stored log
        # holds every frame they got, the last one (`closed`) included: a reader of the
        # store after the live stream sees the same seqs.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(_recorded(host.matches, match_id), STORE_WAIT)
        if host.writer is not None:
            with contextlib.suppress(Exception):
                await host.writer.flush()
        for outlet in outlets:
            outlet.end()
    finally:
        for outlet in outlets:
            await outlet.close()
        await host.close()  # closes its writer too
        store.close()
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose()


STORE_WAIT = 30.0
"""Seconds a finished match's last entries get to reach the store writer."""


async def _recorded(service: Any, match_id: str) -> None:
    """Until the recorder's pump has handed every entry of the match to the writer."""
    while True:
        record = service.recorder.records.get(match_id)
        if record is None or record.failed:
            return
        pump = record.pump
        if pump is not None and not pump.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(pump)
        elif not record.queue:
            return
        else:
            await asyncio.sleep(0.01)


def _redis(settings: Settings) -> Any:
    url = settings.pubsub_url
    if not url:
        return None
    import redis.asyncio

    return redis.asyncio.Redis.from_url(url)


OPEN = {s.value for s in (MatchStatus.WAITING, MatchStatus.RUNNING, MatchStatus.PAUSED)}
