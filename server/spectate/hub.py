"""The spectator hub: one feed per room, fanned out to bounded per-spectator queues.

The hub subscribes to every room the lobby creates (to its `FrameMaker`: each observer
entry of the room's `MatchLog` with its frame, rendered once for every subscriber), keeps
the frames while the match is live and for the latest finished matches (a JSON text per
visibility), and offers each frame to the spectators of that match. `on_entry` never
blocks and never refuses: the room is never slowed by a spectator. Each spectator has its
own bounded queue; one that falls behind is dropped with close code 4008 and a reason
naming the `since` to resume from.

Sequence numbers are the room log's: a spectator that got frame `n` reconnects with
`since=n+1` and neither misses nor repeats a frame (the same numbers the store keeps).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from server.rooms import Lobby, Room
from server.rooms.events import (
    Entry,
    GameOver,
    PauseChanged,
    RoomClosed,
    StateChanged,
)
from server.spectate.filters import MatchFilter
from server.spectate.frames import Frame, frames_for, names_of
from server.spectate.render import Renderer, dumps
from server.store import Store
from server.store.models import MatchStatus

log = logging.getLogger(__name__)

# A feed's status (the store's match status) once the match is over.
_OVER = (MatchStatus.FINISHED, MatchStatus.ABORTED)

QUEUE_SIZE = 256
"""Frames a spectator may lag behind before it is dropped."""
RETAIN_FINISHED = 200
"""Finished matches whose frames stay in memory (older ones: the store, `stored.py`)."""
TOO_SLOW = 4008
MATCH_OVER = 1000
GOING_AWAY = 1001


@dataclass(frozen=True)
class Close:
    """The end of a spectator's stream: a WebSocket close code and reason."""

    code: int
    reason: str


class Watcher:
    """One spectator: a bounded queue of texts (with their seq), then a `Close`."""

    def __init__(self, full: bool, size: int = QUEUE_SIZE) -> None:
        self.full = full
        self.queue: asyncio.Queue[tuple[int, str] | Close] = asyncio.Queue(size)
        self.next_seq = 0  # the first seq not handed to the socket yet
        self.dropped: Close | None = None
        self.dropped_event = asyncio.Event()
        self.ended = False

    def offer(self, seq: int, text: str) -> None:
        if self.dropped is not None or self.ended:
            return
        try:
            self.queue.put_nowait((seq, text))
        except asyncio.QueueFull:
            self.drop(Close(TOO_SLOW, f"too slow: reconnect with since={self.next_seq}"))

    def end(self, close: Close) -> None:
        """No more frames: the stream closes with `close` once the queue is sent."""
        if self.dropped is not None or self.ended:
            return
        self.ended = True
        try:
            self.queue.put_nowait(close)
        except asyncio.QueueFull:
            self.drop(Close(TOO_SLOW, f"too slow: reconnect with since={self.next_seq}"))

    def drop(self, close: Close) -> None:
        """Close out of band: whatever is queued is discarded."""
        if self.dropped is None:
            self.dropped = close
            self.dropped_event.set()
            while not self.queue.empty():
                self.queue.get_nowait()

    async def next(self) -> tuple[int, str] | Close:
        item = await self.queue.get()
        if not isinstance(item, Close):
            self.next_seq = item[0] + 1
        return item


class MatchFeed:
    """One match's rendered frames and spectators; a subscriber of the room's frames."""

    def __init__(self, hub: SpectateHub, room: Room) -> None:
        self.hub = hub
        self.room = room
        self.id = room.id
        self.game = room.game_type
        self.created = room.created_at
        maker = frames_for(room)
        self.renderer: Renderer = maker.renderer
        # From now on; what the room logged before comes from `backfill`.
        self._unsubscribe = maker.subscribe(self.on_entry)
        self.frames: list[Frame] = []
        self.seqs: list[int] = []
        self.first_seq = 0  # frames before this one were never rendered (late subscription)
        self.watchers: set[Watcher] = set()
        self.status = MatchStatus.WAITING
        self.paused = room.paused
        self.result: dict[str, Any] | None = None
        self.closed = False
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self._state: tuple[dict[str, Any], dict[str, Any] | None] | None = None

    # ------------------------------------------------------------------ what it is
    def names(self) -> list[str]:
        return names_of(self.room)

    @property
    def live(self) -> bool:
        return not self.closed and self.status not in _OVER

    def info(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "status": self.status, "live": self.live,
                "players": self.names(), "created": self.created,
                "started": self.started_at, "finished": self.finished_at,
                "result": self.result,
                "lastSeq": self.seqs[-1] if self.seqs else None}

    # ------------------------------------------------------------------ the room's side
    def on_entry(self, entry: Entry, frame: Frame | None) -> None:
        """A `FrameMaker` subscriber: each frame to every spectator; never blocks."""
        if frame is not None:
            try:
                self._take(entry, frame)
            except Exception:  # a bug here must not touch the match
                log.exception("match %s: entry %d not followed", self.id, entry.seq)
            else:
                self._publish(frame)
        if isinstance(entry.event, RoomClosed):
            self.room_done()

    def _take(self, entry: Entry, frame: Frame) -> None:
        """What the entry's frame changes here."""
        match entry.event:
            case StateChanged():
                state = frame.full["state"] if frame.full is not None else None
                self._state = (frame.neutral["state"], state)
                if self.status == MatchStatus.WAITING:
                    self.status = MatchStatus.PAUSED if self.paused else MatchStatus.RUNNING
                    self.started_at = time.time()
                    self.hub.lobby_event("started", self)
            case PauseChanged(paused=paused):
                self.paused = paused
                if self.status in (MatchStatus.RUNNING, MatchStatus.PAUSED):
                    before = self.status
                    self.status = MatchStatus.PAUSED if paused else MatchStatus.RUNNING
                    # The match list shows the status: it is told of each change.
                    if self.status != before:
                        self.hub.lobby_event("paused" if paused else "resumed", self)
            case GameOver():
                self._state = (frame.neutral["state"], None)
                self.result = frame.neutral["result"]
                self.status = MatchStatus.FINISHED
                self.finished_at = time.time()
                self.hub.lobby_event("finished", self)

    def _publish(self, frame: Frame) -> None:
        self.frames.append(frame)
        self.seqs.append(frame.seq)
        for watcher in list(self.watchers):
            watcher.offer(frame.seq, frame.text(watcher.full))

    def room_done(self) -> None:
        """The room's task ended (or it logged `RoomClosed`): the streams end here."""
        if self.closed:
            return
        self.closed = True
        if self.status != MatchStatus.FINISHED:
            self.status = MatchStatus.ABORTED
            self.finished_at = time.time()
            self.hub.lobby_event("finished", self)
        for watcher in list(self.watchers):
            watcher.end(Close(MATCH_OVER, "match over"))
        self.watchers.clear()
        self._unsubscribe()
        self.hub.retire(self)

    def backfill(self) -> None:
        """A late subscription: render what the room logged so far (or its state now)."""
        entries = [e for e in self.room.log.entries if e.observers]
        if not self.renderer.from_entries and entries:
            self.first_seq = entries[-1].seq
            entries = entries[-1:]
        maker = frames_for(self.room)
        for entry in entries:
            self.on_entry(entry, maker.frame(entry))

    # ------------------------------------------------------------------ spectators' side
    def attach(self, full: bool, since: int | None, size: int = QUEUE_SIZE, *,
               reveal: bool = True) -> tuple[Watcher, list[str | Close]]:
        """A new spectator: its first texts (hello, then a snapshot or the frames from
        `since` on) and its watcher, registered for what comes next, with nothing between.
        `full`: the admin's view; `reveal`: a finished match shows it to everyone (False
        while something still to be played shares its seed, server.store.secrecy)."""
        full = full or (reveal and self.status == MatchStatus.FINISHED)
        watcher = Watcher(full, size)
        first: list[str | Close] = [dumps({
            "type": "hello", "match": self.info(), "meta": self.renderer.meta(), "full": full,
        })]
        if since is None or since < self.first_seq:
            first.append(dumps(self.snapshot(full)))
            watcher.next_seq = (self.seqs[-1] + 1) if self.seqs else 0
        else:
            start = bisect_left(self.seqs, since)
            first.extend(frame.text(full) for frame in self.frames[start:])
            watcher.next_seq = max(since, (self.seqs[-1] + 1) if self.seqs else 0)
        if self.closed:
            first.append(Close(MATCH_OVER, "match over"))
        else:
            self.watchers.add(watcher)
        return watcher, first

    def detach(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def snapshot(self, full: bool) -> dict[str, Any]:
        if self._state is None:
            neutral = self.renderer.state(None, False)
            state = self.renderer.state(None, True) if full else neutral
        else:
            neutral, full_state = self._state
            state = full_state if full and full_state is not None else neutral
        return {"type": "snapshot", "seq": self.seqs[-1] if self.seqs else -1,
                "status": self.status, "paused": self.paused, "result": self.result,
                "state": state}


class LobbyFeed:
    """Spectators of the match list: created, started, paused, resumed, finished."""

    def __init__(self) -> None:
        self.watchers: set[Watcher] = set()
        self._seq = 0

    def publish(self, event: str, info: dict[str, Any]) -> None:
        self._seq += 1
        text = dumps({"type": "match", "event": event, "seq": self._seq, "match": info})
        for watcher in list(self.watchers):
            watcher.offer(self._seq, text)


class SpectateHub:
    """Feeds per match, the lobby feed, the admin check. One per server (see `install`)."""

    def __init__(self, lobby: Lobby, *, admin_token: str = "", queue_size: int = QUEUE_SIZE,
                 retain: int = RETAIN_FINISHED, store: Store | None = None) -> None:
        self.lobby = lobby
        self.admin_token = admin_token
        self.queue_size = queue_size
        self.retain = retain
        self.feeds: dict[str, MatchFeed] = {}  # live matches
        self.finished: OrderedDict[str, MatchFeed] = OrderedDict()
        self.lobby_feed = LobbyFeed()
        self.store: Store | None = store  # stored matches (None: the memory only)
        # Matches played on workers (server.worker.remote: followed on Redis), and the
        # task following them (None: no broker, everything is played here).
        self.remote: dict[str, Any] = {}
        self.follower: Any = None
        self._hooked = False

    def hook(self) -> None:
        """Subscribe to every room the lobby creates from now on (and those it has)."""
        if self._hooked:
            return
        self._hooked = True
        # After the store's recorder (the server's listener comes first): it swaps the log.
        self.lobby.room_listeners.append(self.subscribe)
        for room in list(self.lobby.rooms.values()):
            self.subscribe(room)

    def subscribe(self, room: Room) -> MatchFeed | None:
        found = self.feeds.get(room.id)
        if found is not None:
            return found
        if room.closed:
            return None
        feed = MatchFeed(self, room)
        self.feeds[room.id] = feed
        feed.backfill()
        task = room.task
        if task is not None:
            task.add_done_callback(lambda _t: feed.room_done())
        self.lobby_event("created", feed)
        return feed

    def retire(self, feed: MatchFeed) -> None:
        self.feeds.pop(feed.id, None)
        self.finished[feed.id] = feed
        while len(self.finished) > self.retain:
            self.finished.popitem(last=False)

    def feed(self, match_id: str) -> MatchFeed | None:
        found = (self.feeds.get(match_id) or self.remote.get(match_id)
                 or self.finished.get(match_id))
        if found is None:
            room = self.lobby.rooms.get(match_id)
            if room is not None:
                found = self.subscribe(room)
        return found

    def lobby_event(self, event: str, feed: MatchFeed) -> None:
        self.lobby_feed.publish(event, feed.info())

    def matches(self, chosen: MatchFilter | None = None) -> list[dict[str, Any]]:
        """Live matches (newest first), then the finished ones (latest first); `chosen`:
        those that pass it."""
        live = sorted([*self.feeds.values(), *self.remote.values()], key=lambda f: f.created,
                      reverse=True)
        done = list(reversed(self.finished.values()))
        infos = [f.info() for f in live + done]
        return infos if chosen is None else [i for i in infos if chosen.fits(i)]

    def attach_lobby(self, stored: dict[str, Any] | None = None
                     ) -> tuple[Watcher, list[str | Close]]:
        """A new spectator of the match list. `stored`: a page of the stored matches
        (`stored.stored_page`); those the hub holds are listed once, from memory."""
        watcher = Watcher(False, self.queue_size)
        self.lobby_feed.watchers.add(watcher)
        message: dict[str, Any] = {"type": "matches", "seq": self.lobby_feed._seq,
                                   "matches": self.matches()}
        if stored is not None:
            message["matches"] += self.unknown(stored["matches"])
            message["stored"] = {k: stored[k] for k in ("offset", "limit", "total")}
        return watcher, [dumps(message)]

    def lobby_page(self, stored: dict[str, Any], chosen: MatchFilter) -> dict[str, Any]:
        """The answer to a page request: the stored page's matches the hub does not hold;
        the first page (offset 0) starts with those it holds that pass `chosen`, so that
        it lists what the first message would have under that filter."""
        found = self.unknown(stored["matches"])
        if stored["offset"] == 0:
            found = self.matches(chosen) + found
        return {"type": "page", **stored, "matches": found, "filter": chosen.as_dict()}

    def unknown(self, infos: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The stored matches' infos of those the hub does not hold."""
        return [i for i in infos if i["id"] not in self.feeds and i["id"] not in self.finished
                and i["id"] not in self.remote]

    def detach_lobby(self, watcher: Watcher) -> None:
        self.lobby_feed.watchers.discard(watcher)

    def is_admin(self, token: str | None) -> bool:
        return bool(self.admin_token and token
                    and secrets.compare_digest(token.encode(), self.admin_token.encode()))

    def close(self) -> None:
        """Server shutdown: every spectator is told, at once."""
        going = Close(GOING_AWAY, "server shutting down")
        if self.follower is not None:
            self.follower.close()
        for feed in [*self.feeds.values(), *self.remote.values()]:
            for watcher in list(feed.watchers):
                watcher.drop(going)
        for watcher in list(self.lobby_feed.watchers):
            watcher.drop(going)
