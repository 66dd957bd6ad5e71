"""Spectator WebSockets: `/ws/matches/{id}?since=N` and `/ws/lobby`.

A match stream starts with a `hello` (the match, the game's constants, whether this
spectator sees hidden cards), then either a `snapshot` of the current state (no `since`) or
every frame from `since` on, then each frame as it happens; each frame carries the room
log's `seq`. The stream closes with 1000 when the match is over and everything was sent,
with 4008 when the spectator fell behind (reconnect with the `since` in the reason), with
4004 for an unknown match. A Hearth spectator sees both hands only with the admin token
or once the match is over and nothing still to be played shares its seed
(`server.store.secrecy`). The token comes in `Authorization: Bearer <token>`, or, from a
browser (which cannot set that header on a WebSocket), as the subprotocol
`token.<the token's UTF-8 bytes in hex>` next to `gauntlet`, which the server then selects;
never in the URL.

A match this server does not hold in memory (an earlier run's, or one older than the hub
keeps) is read back from the store: its stored frames, exactly as they were streamed live
and under the same seqs, then a close 1000 (`server.spectate.stored`).

`/ws/lobby` starts with the list of matches (live first, then the finished ones in memory,
then a page of the stored ones, newest first: `?offset=&limit=`, and `stored` says the
page's `offset`, `limit` and `total`) and then says `created`, `started`, `paused`,
`resumed` and `finished` as it happens. A client may ask for another page of stored matches with
`{"type": "page", "offset": N}` (and `"limit"`); the answer is `{"type": "page", "offset",
"limit", "total", "matches", "filter"}`. A page request may carry a filter, `"game"` (an
id or an alias), `"bot"` (a player's name as listed) and `"status"`, each optional: the
stored matches are then filtered in the database (`total` counts those that pass), and
the first page (offset 0) starts with the matches in memory that pass, live first, as the
first message would list them; an unknown game or status is an error frame, never an
empty list. The lobby's events are not filtered: a client applies its filter to them.

Whatever else a client sends (another type, a field out of range or of the wrong type,
not JSON, a binary frame; a match stream takes no messages at all) is answered with
`{"type": "error", "error": "<what is wrong>"}` and the socket stays open; the first such
message of a socket is logged, the others are not. Messages over `WS_MAX_BYTES` close the
socket with 1009 (uvicorn's `ws_max_size`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, WebSocket, WebSocketDisconnect

from server.api.http import WS_MAX_BYTES
from server.games.registry import GameRegistry
from server.spectate.filters import FIELDS as FILTER_FIELDS
from server.spectate.filters import FilterError, MatchFilter
from server.spectate.hub import MATCH_OVER, Close, SpectateHub, Watcher
from server.spectate.render import dumps
from server.spectate.stored import LOBBY_PAGE, MAX_LOBBY_PAGE, load_match, stored_page
from server.store import Store
from server.store.secrecy import is_revealed

log = logging.getLogger(__name__)
router = APIRouter(tags=["spectate"])

UNKNOWN_MATCH = 4004
CLOSE_TIMEOUT = 2.0
MAX_OFFSET = 2**31
SUBPROTOCOL = "gauntlet"
TOKEN_PREFIX = "token."


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


def _token(websocket: WebSocket) -> str | None:
    """The admin token: `Authorization: Bearer`, else a `token.<hex>` subprotocol."""
    scheme, _, value = websocket.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    for offered in websocket.scope.get("subprotocols", ()):
        if isinstance(offered, str) and offered.startswith(TOKEN_PREFIX):
            try:
                return bytes.fromhex(offered.removeprefix(TOKEN_PREFIX)).decode()
            except ValueError:
                return None
    return None


async def _accept(websocket: WebSocket) -> None:
    """Accept, selecting `gauntlet` if the client offered it (a browser that offers
    subprotocols fails the connection unless one is selected)."""
    offered = websocket.scope.get("subprotocols", ())
    await websocket.accept(SUBPROTOCOL if SUBPROTOCOL in offered else None)


async def _revealed(websocket: WebSocket, match_id: str) -> bool:
    """Whether everyone may see all of a match that has ended: nothing still to be
    played shares its seed (no store, or a match it does not hold: nothing can)."""
    store = get_store(websocket)
    if store is None:
        return True

    def check(store: Store) -> bool:
        match = store.get_match(match_id)
        return match is None or is_revealed(store, match)

    try:
        return await asyncio.to_thread(check, store)
    except Exception:
        log.exception("match %s: its seed not checked; shown as to a neutral spectator",
                      match_id)
        return False


@router.websocket("/ws/matches/{match_id}")
async def watch_match(
    websocket: WebSocket,
    match_id: Annotated[str, Path(min_length=1, max_length=64)],
    since: Annotated[int | None, Query(ge=-MAX_OFFSET, le=MAX_OFFSET)] = None,
) -> None:
    hub = get_hub(websocket)
    admin = hub.is_admin(_token(websocket))
    await _accept(websocket)
    feed = hub.feed(match_id)
    if feed is None:
        await _replay_stored(websocket, hub, match_id, admin, since)
        return
    reveal = admin or feed.status != "finished" or await _revealed(websocket, match_id)
    watcher, first = feed.attach(admin, None if since is None else max(0, since),
                                 hub.queue_size, reveal=reveal)
    try:
        await _serve(websocket, watcher, first, _Requests(websocket, "match stream"))
    finally:
        feed.detach(watcher)


async def _replay_stored(websocket: WebSocket, hub: SpectateHub, match_id: str, full: bool,
                         since: int | None) -> None:
    """A match the hub does not hold: its stored frames, then 1000 (4004: not stored)."""
    store = get_store(websocket)
    stored = None
    if store is not None:
        try:
            stored = await asyncio.to_thread(load_match, store, match_id, hub.lobby.games)
        except Exception:
            log.exception("match %s: not read from the store", match_id)
    if stored is None:
        await websocket.close(UNKNOWN_MATCH, "no such match on this server")
        return
    reveal = full or not stored.finished or await _revealed(websocket, match_id)
    first: list[str | Close] = [
        *stored.texts(full, None if since is None else max(0, since), reveal=reveal),
        Close(MATCH_OVER, "match over")]
    await _serve(websocket, Watcher(full, hub.queue_size), first,
                 _Requests(websocket, "match stream"))


async def _page(store: Store | None, offset: int, limit: int,
                chosen: MatchFilter | None = None) -> dict[str, Any] | None:
    if store is None:
        return None
    try:
        return await asyncio.to_thread(stored_page, store, offset, limit, chosen)
    except Exception:
        log.exception("stored matches not listed")
        return None


class BadMessage(ValueError):
    """A client's message this socket does not act on; `str()` says why."""


def _integer(request: dict[str, object], name: str, default: int, low: int, high: int) -> int:
    value = request.get(name, default)
    # bool is an int subclass: `true` is no offset.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadMessage(f"{name}: an integer from {low} to {high}")
    return value


def page_request(request: dict[str, object], limit: int,
                 games: GameRegistry | None = None) -> tuple[int, int, MatchFilter]:
    """(offset, limit, filter) of a `{"type": "page", "offset": N, "limit": M, "game": G,
    "bot": B, "status": S}` message (each field optional; `server.spectate.filters`).

    >>> page_request({"type": "page", "offset": 20}, 20)
    (20, 20, MatchFilter(game=None, bot=None, status=None))
    >>> page_request({"type": "page", "offset": 10**30}, 20)
    Traceback (most recent call last):
    ...
    server.api.ws.BadMessage: offset: an integer from 0 to 2147483648
    >>> page_request({"type": "page", "status": "lost"}, 20)[2]
    Traceback (most recent call last):
    ...
    server.api.ws.BadMessage: status: one of waiting, running, paused, finished, aborted, \
cancelled
    """
    kind = request.get("type")
    if kind != "page":
        raise BadMessage("type: the lobby takes `page` messages only")
    known = ("type", "offset", "limit", *FILTER_FIELDS)
    unknown = sorted(str(key)[:40] for key in request if key not in known)
    if unknown:
        raise BadMessage(f"unknown fields: {', '.join(unknown[:5])}")
    offset = _integer(request, "offset", 0, 0, MAX_OFFSET)
    size = _integer(request, "limit", limit, 1, MAX_LOBBY_PAGE)
    try:
        chosen = MatchFilter.parse(request, games)
    except FilterError as exc:
        raise BadMessage(str(exc)) from None
    return offset, size, chosen


class _Requests:
    """A socket's incoming messages: each JSON object to `handle`; anything it refuses, or
    that is no JSON object, answered with an error frame and logged once per socket."""

    def __init__(self, websocket: WebSocket, what: str,
                 handle: Callable[[dict[str, object]], Awaitable[None]] | None = None) -> None:
        self.websocket = websocket
        self.what = what
        self.handle = handle
        self.logged = False

    async def __call__(self, message: Mapping[str, Any]) -> None:
        try:
            if self.handle is None:
                raise BadMessage(f"a {self.what} takes no messages")
            await self.handle(_parse(message))
        except BadMessage as exc:
            if not self.logged:
                self.logged = True
                client = self.websocket.client
                log.info("%s %s: bad message (%s); its further bad messages are not logged",
                         self.what, f"{client.host}:{client.port}" if client else "?", exc)
            await self.websocket.send_text(dumps({"type": "error", "error": str(exc)}))


def _parse(message: Mapping[str, Any]) -> dict[str, object]:
    text = message.get("text")
    if not isinstance(text, str):
        raise BadMessage("send JSON objects in text frames")
    if len(text) > WS_MAX_BYTES:
        raise BadMessage(f"a message is at most {WS_MAX_BYTES} bytes")
    try:
        request = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than Python's
        raise BadMessage("not JSON") from None
    if not isinstance(request, dict):
        raise BadMessage("a message is a JSON object")
    return request


@router.websocket("/ws/lobby")
async def watch_lobby(
    websocket: WebSocket,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_LOBBY_PAGE)] = LOBBY_PAGE,
) -> None:
    hub = get_hub(websocket)
    store = get_store(websocket)
    await _accept(websocket)
    page = await _page(store, offset, limit)
    watcher, first = hub.attach_lobby(page)

    async def asked(message: dict[str, object]) -> None:
        """`{"type": "page", "offset": N}`: another page of the stored matches (with
        `game`, `bot`, `status`: of those that pass that filter)."""
        at, size, chosen = page_request(message, limit, hub.lobby.games)
        # Without a store the hub's memory is all there is: an empty stored page.
        found = {"offset": at, "limit": size, "total": 0, "matches": []} if store is None \
            else await _page(store, at, size, chosen)
        if found is not None:
            watcher.offer(hub.lobby_feed._seq, dumps(hub.lobby_page(found, chosen)))

    try:
        await _serve(websocket, watcher, first, _Requests(websocket, "lobby", asked))
    finally:
        hub.detach_lobby(watcher)


async def _serve(websocket: WebSocket, watcher: Watcher, first: list[str | Close],
                 asked: Callable[[Mapping[str, Any]], Awaitable[None]]) -> None:
    """Send `first`, then the watcher's queue, until a `Close`, a drop or a disconnect.
    `asked`: what to do with each message the client sends."""
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
                      asked: Callable[[Mapping[str, Any]], Awaitable[None]]) -> None:
    """Read until the disconnect; each message goes to `asked`."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            await asked(message)
