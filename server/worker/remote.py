"""Spectating matches played on workers: an API node follows their Redis channels.

`follow(hub)` starts one task per API node that subscribes to every match channel and the
lobby channel (`server.worker.channels`). A match this node does not host gets a
`RemoteFeed`: the same frames under the same seqs as the worker's room log, offered to the
spectators attached to it exactly as the hub's `MatchFeed` does (hello, snapshot or frames
from `since`, each frame live, close 1000 at the end). A restarted match (the next attempt)
starts its feed again: its spectators are closed with 1012 and reconnect. Once over, a
remote feed is kept among the hub's finished feeds; older ones are read from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from bisect import bisect_left
from typing import Any

from server.spectate.frames import Frame
from server.spectate.hub import MATCH_OVER, QUEUE_SIZE, Close, SpectateHub, Watcher
from server.spectate.render import dumps
from server.store.models import MatchStatus
from server.worker.channels import LOBBY, MATCH_PREFIX

log = logging.getLogger(__name__)

# A feed's status (the store's match status) once the match is over.
_OVER = (MatchStatus.FINISHED, MatchStatus.ABORTED)

RESTARTED = 1012
RECONNECT_DELAY = 1.0


class RemoteFeed:
    """A match played elsewhere, as the hub's spectators see it (MatchFeed's interface)."""

    def __init__(self, hub: SpectateHub, message: dict[str, Any]) -> None:
        self.hub = hub
        self._info: dict[str, Any] = dict(message["info"])
        self.id: str = message["match"]
        self.attempt: int = message["attempt"]
        self.game = self._info.get("game")
        self.created: float = self._info.get("created") or time.time()
        self.meta: Any = message.get("meta")
        self._empty = (message.get("state"), message.get("fullState"))
        self._state: tuple[Any, Any] | None = None
        self.frames: list[Frame] = []
        self.seqs: list[int] = []
        self.first_seq = 0
        self.watchers: set[Watcher] = set()
        self.status = MatchStatus.WAITING
        self.paused = False
        self.result: Any = None
        self.closed = False
        self.finished_at: float | None = None

    @property
    def live(self) -> bool:
        return not self.closed and self.status not in _OVER

    def info(self) -> dict[str, Any]:
        return {**self._info, "status": self.status, "live": self.live,
                "finished": self.finished_at, "result": self.result,
                "lastSeq": self.seqs[-1] if self.seqs else None}

    def frame(self, seq: int, neutral: dict[str, Any], full: dict[str, Any] | None) -> None:
        if self.closed or (self.seqs and seq <= self.seqs[-1]):
            return
        frame = Frame(seq, neutral, full)
        if "state" in neutral:
            self._state = (neutral["state"], full.get("state") if full else None)
        if neutral.get("kind") == "pause":
            self.paused = bool(neutral.get("paused"))
        if self.status == MatchStatus.WAITING:
            self.status = MatchStatus.RUNNING
        if "result" in neutral and neutral.get("result") is not None:
            self.result = neutral["result"]
            self.status = MatchStatus.FINISHED
        self.frames.append(frame)
        self.seqs.append(seq)
        for watcher in list(self.watchers):
            watcher.offer(seq, frame.text(watcher.full))

    def end(self, status: str, close: Close | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        self.status = (MatchStatus.FINISHED if status == MatchStatus.FINISHED
                       else MatchStatus.ABORTED)
        self.finished_at = time.time()
        for watcher in list(self.watchers):
            watcher.end(close or Close(MATCH_OVER, "match over"))
        self.watchers.clear()

    def attach(self, full: bool, since: int | None, size: int = QUEUE_SIZE, *,
               reveal: bool = True) -> tuple[Watcher, list[str | Close]]:
        """As `MatchFeed.attach` (`reveal` False: the seed is still in play)."""
        full = full or (reveal and self.status == MatchStatus.FINISHED)
        watcher = Watcher(full, size)
        first: list[str | Close] = [dumps({"type": "hello", "match": self.info(),
                                           "meta": self.meta, "full": full})]
        if since is None:
            first.append(dumps(self.snapshot(full)))
            watcher.next_seq = (self.seqs[-1] + 1) if self.seqs else 0
        else:
            start = bisect_left(self.seqs, since)
            first.extend(f.text(full) for f in self.frames[start:])
            watcher.next_seq = max(since, (self.seqs[-1] + 1) if self.seqs else 0)
        if self.closed:
            first.append(Close(MATCH_OVER, "match over"))
        else:
            self.watchers.add(watcher)
        return watcher, first

    def detach(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def snapshot(self, full: bool) -> dict[str, Any]:
        neutral, full_state = self._state if self._state is not None else self._empty
        state = full_state if full and full_state is not None else neutral
        return {"type": "snapshot", "seq": self.seqs[-1] if self.seqs else -1,
                "status": self.status, "paused": self.paused, "result": self.result,
                "state": state}


class Follower:
    """The subscription task of one hub; `close()` stops it."""

    def __init__(self, hub: SpectateHub, url: str) -> None:
        self.hub = hub
        self.url = url
        self.subscribed = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="spectate-redis")

    async def _run(self) -> None:
        import redis.asyncio

        while True:
            client = redis.asyncio.Redis.from_url(self.url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(MATCH_PREFIX + "*")
                    await pubsub.subscribe(LOBBY)
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        if message.get("type") in ("message", "pmessage"):
                            self._handle(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("spectators: Redis subscription lost (%s); reconnecting", exc)
                self.subscribed.clear()
                await asyncio.sleep(RECONNECT_DELAY)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()

    def _handle(self, data: bytes | str) -> None:
        try:
            message = json.loads(data)
            match_id = message["match"]
            kind = message["t"]
        except (ValueError, KeyError, TypeError):
            log.warning("spectators: a Redis message that is not ours was ignored")
            return
        hub = self.hub
        if match_id in hub.feeds:  # played on this node: the hub has it first-hand
            return
        feed = hub.remote.get(match_id)
        if kind == "start":
            if feed is not None:
                if message["attempt"] <= feed.attempt:
                    return
                feed.end("aborted", Close(RESTARTED, "match restarted: reconnect"))
            hub.remote[match_id] = RemoteFeed(hub, message)
            hub.finished.pop(match_id, None)
            return
        if kind in ("created", "started", "finished"):
            hub.lobby_feed.publish(kind, feed.info() if feed is not None else message["info"])
            return
        if feed is None or message.get("attempt") != feed.attempt:
            return  # a frame of an attempt this node never saw start, or an older one
        if kind == "frame":
            feed.frame(message["seq"], message["neutral"], message.get("full"))
        elif kind == "end":
            feed.end(message.get("status", "aborted"))
            hub.remote.pop(match_id, None)
            hub.finished[match_id] = feed
            while len(hub.finished) > hub.retain:
                hub.finished.popitem(last=False)

    def close(self) -> None:
        self._task.cancel()


def follow(hub: SpectateHub, url: str) -> Follower | None:
    """Start following `url`'s channels for `hub` (needs a running loop; None without)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        log.warning("spectators: no event loop yet; matches on workers are not followed")
        return None
    return Follower(hub, url)
