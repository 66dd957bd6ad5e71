"""Spectator WebSockets: `/ws/matches/{id}?since=N` and `/ws/lobby`.

A match stream starts with a `hello` (the match, the game's constants, whether this
spectator sees hidden cards), then either a `snapshot` of the current state (no `since`) or
every frame from `since` on, then each frame as it happens; each frame carries the room
log's `seq`. The stream closes with 1000 when the match is over and everything was sent,
with 4008 when the spectator fell behind (reconnect with the `since` in the reason), with
4004 for an unknown match. A Hearth spectator sees both hands only with the admin token
(`?token=` or `Authorization: Bearer`) or once the match is over.

`/ws/lobby` starts with the list of matches (live first) and then says `created`, `started`
and `finished` as it happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from server.spectate.hub import Close, SpectateHub, Watcher

log = logging.getLogger(__name__)
router = APIRouter(tags=["spectate"])

UNKNOWN_MATCH = 4004
CLOSE_TIMEOUT = 2.0


def get_hub(websocket: WebSocket) -> SpectateHub:
    hub: SpectateHub = websocket.app.state.spectate
    return hub


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
        await websocket.close(UNKNOWN_MATCH, "no such match on this server")
        return
    watcher, first = feed.attach(full, None if since is None else max(0, since), hub.queue_size)
    try:
        await _serve(websocket, watcher, first)
    finally:
        feed.detach(watcher)


@router.websocket("/ws/lobby")
async def watch_lobby(websocket: WebSocket) -> None:
    hub = get_hub(websocket)
    await websocket.accept()
    watcher, first = hub.attach_lobby()
    try:
        await _serve(websocket, watcher, first)
    finally:
        hub.detach_lobby(watcher)


async def _serve(websocket: WebSocket, watcher: Watcher, first: list[str | Close]) -> None:
    """Send `first`, then the watcher's queue, until a `Close`, a drop or a disconnect."""
    sender = asyncio.create_task(_send(websocket, watcher, first))
    reader = asyncio.create_task(_until_gone(websocket))
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


async def _until_gone(websocket: WebSocket) -> None:
    """Spectators say nothing; read until the disconnect."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
