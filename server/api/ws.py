"""Spectator WebSockets: `/ws/matches/{id}?since=N` and `/ws/lobby`.

A match stream starts with a `hello` (the match, the game's constants, whether this
spectator sees hidden cards), then either a `snapshot` of the current state (no `since`) or
every frame from `since` on, then each frame as it happens; each frame carries the room
log's `seq`. The stream closes with 1000 when the match is over and everything was sent,
with 4008 when the spectator fell behind (reconnect with the `since` in the reason), with
4004 for an unknown match. A Hearth spectator sees both hands only with the admin token
(`?token=` or `Authorization: Bearer`) or once the match is over.

A match this server does not hold in memory (an earlier run's, or one older than the hub
keeps) is read back from the store: its stored frames, exactly as they were streamed live
and under the same seqs, then a close 1000 (`server.spectate.stored`).

`/ws/lobby` starts with the list of matches (live first, then the finished ones in memory,
then a page of the stored ones, newest first: `?offset=&limit=`, and `stored` says the
page's `offset`, `limit` and `total`) and then says `created`, `started` and `finished` as
it happens. A client may ask for another page of stored matches with
`{"type": "page", "offset": N}`; the answer is `{"type": "page", "offset", "limit",
"total", "matches"}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from server.spectate.hub import MATCH_OVER, Close, SpectateHub, Watcher
from server.spectate.render import dumps
from server.spectate.stored import LOBBY_PAGE, load_match, stored_page
from server.store import Store

log = logging.getLogger(__name__)
router = APIRouter(tags=["spectate"])

UNKNOWN_MATCH = 4004
CLOSE_TIMEOUT = 2.0


def get_hub(websocket: WebSocket) -> SpectateHub:
    hub: SpectateHub = websocket.app.state.spectate
    return hub


def get_store(websocket: WebSocket) -> Store | None:
    """The store of stored matches: the hub's, else the API's (None: memory only)."""
    hub = get_hub(websocket)
    if hub.store is not None:
        return hub.store
    context = getattr(websocket.app.state, "gauntlet", None)
    store = getattr(context, "store", None)
    return store if isinstance(store, Store) else None


def _token(websocket: WebSocket, token: str | None) -> str | None:
    if token:
        return token
    scheme, _, value = websocket.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


@router.websocket("/ws/matches/{match_id}")
async def watch_match(websocket: WebSocket, match_id: str, since: int | None = None,
                      token: str | None = None) -> None:
    hub = get_hub(websocket)
    full = hub.is_admin(_token(websocket, token))
    await websocket.accept()
    feed = hub.feed(match_id)
    if feed is None:
        await _replay_stored(websocket, hub, match_id, full, since)
        return
    watcher, first = feed.attach(full, None if since is None else max(0, since), hub.queue_size)
    try:
        await _serve(websocket, watcher, first)
    finally:
        feed.detach(watcher)


async def _replay_stored(websocket: WebSocket, hub: SpectateHub, match_id: str, full: bool,
                         since: int | None) -> None:
    """A match the hub does not hold: its stored frames, then 1000 (4004: not stored)."""
    store = get_store(websocket)
    stored = None
    if store is not None:
        try:
            stored = await asyncio.to_thread(load_match, store, match_id)
        except Exception:
            log.exception("match %s: not read from the store", match_id)
    if stored is None:
        await websocket.close(UNKNOWN_MATCH, "no such match on this server")
        return
    first: list[str | Close] = [*stored.texts(full, None if since is None else max(0, since)),
                                Close(MATCH_OVER, "match over")]
    await _serve(websocket, Watcher(full, hub.queue_size), first)


async def _page(store: Store | None, offset: int, limit: int) -> dict[str, Any] | None:
    if store is None:
        return None
    try:
        return await asyncio.to_thread(stored_page, store, offset, limit)
    except Exception:
        log.exception("stored matches not listed")
        return None


@router.websocket("/ws/lobby")
async def watch_lobby(websocket: WebSocket, offset: int = 0, limit: int = LOBBY_PAGE) -> None:
    hub = get_hub(websocket)
    store = get_store(websocket)
    await websocket.accept()
    page = await _page(store, offset, limit)
    watcher, first = hub.attach_lobby(page)

    async def asked(message: dict[str, object]) -> None:
        """`{"type": "page", "offset": N}`: another page of the stored matches."""
        if message.get("type") != "page":
            return
        at, size = message.get("offset", 0), message.get("limit", limit)
        found = await _page(store, at if isinstance(at, int) else 0,
                            size if isinstance(size, int) else limit)
        if found is not None:
            found = {**found, "matches": hub.unknown(found["matches"])}
            watcher.offer(hub.lobby_feed._seq, dumps({"type": "page", **found}))

    try:
        await _serve(websocket, watcher, first, asked)
    finally:
        hub.detach_lobby(watcher)


async def _serve(websocket: WebSocket, watcher: Watcher, first: list[str | Close],
                 asked: Callable[[dict[str, object]], Awaitable[None]] | None = None) -> None:
    """Send `first`, then the watcher's queue, until a `Close`, a drop or a disconnect.
    `asked`: what to do with a JSON object the client sends (None: ignore it)."""
    sender = asyncio.create_task(_send(websocket, watcher, first))
    reader = asyncio.create_task(_until_gone(websocket, asked))
    dropped = asyncio.create_task(watcher.dropped_event.wait())
    tasks = {sender, reader, dropped}
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    if reader in done:
        return  # the spectator left
    close = watcher.dropped
    if close is None and sender in done and not sender.cancelled() \
            and sender.exception() is None:
        close = sender.result()
    if close is None:
        return
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await websocket.close(close.code, close.reason)


async def _send(websocket: WebSocket, watcher: Watcher, first: list[str | Close]) -> Close:
    for item in first:
        if isinstance(item, Close):
            return item
        await websocket.send_text(item)
    while True:
        news = await watcher.next()
        if isinstance(news, Close):
            return news
        await websocket.send_text(news[1])


async def _until_gone(websocket: WebSocket,
                      asked: Callable[[dict[str, object]], Awaitable[None]] | None) -> None:
    """Read until the disconnect; a JSON object goes to `asked`, anything else is ignored."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if asked is None or not text or len(text) > 1000:
                continue
            try:
                request = json.loads(text)
            except ValueError:
                continue
            if isinstance(request, dict):
                await asked(request)
