"""What the routes depend on: the server's context, its store, and the admin check."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, HTTPException, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from server.games.registry import GameRegistry
from server.matches import MatchError, MatchService
from server.store import Store

if TYPE_CHECKING:
    from server.api.app import ApiContext

bearer = HTTPBearer(auto_error=False, description="The admin token (GAUNTLET_ADMIN_TOKEN "
                    "or <data dir>/admin-token).")


def get_context(request: Request) -> ApiContext:
    context: ApiContext = request.app.state.gauntlet
    return context


def get_store(request: Request) -> Store:
    store = get_context(request).store
    if store is None:
        raise HTTPException(503, "this server runs without a store")
    return store


def get_service(request: Request) -> MatchService:
    return get_context(request).service


def is_admin(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> bool:
    """Whether the caller holds the admin token (reading routes show it more, never less)."""
    token = get_context(request).admin_token
    given = credentials.credentials if credentials is not None else ""
    return bool(token) and secrets.compare_digest(given.encode(), token.encode())


def require_admin(caller_is_admin: Annotated[bool, Depends(is_admin)]) -> None:
    if not caller_is_admin:
        raise HTTPException(401, "this endpoint needs `Authorization: Bearer <admin token>`",
                            headers={"WWW-Authenticate": "Bearer"})


def game_id(games: GameRegistry, name: str, field: str = "game", status: int = 422) -> str:
    """The game id `name` stands for (an id or an alias, as the command line takes them);
    `MatchError` naming the field and every accepted name otherwise."""
    found = games.resolve(name)
    if found not in games:
        raise MatchError(f"{field}: unknown game {name!r}; known: {games.listing()}", status)
    return found


def game_filter(
    request: Request,
    game: Annotated[str | None, Query(max_length=32, description="A game id or alias.",
                                      examples=["blokus"])] = None,
) -> str | None:
    """`?game=`: an id or an alias; an unknown one is a 422 listing the known ones, never
    an empty answer."""
    return None if game is None else game_id(get_context(request).games, game)


StoreDep = Annotated[Store, Depends(get_store)]
GameFilter = Annotated[str | None, Depends(game_filter)]
ServiceDep = Annotated[MatchService, Depends(get_service)]
ContextDep = Annotated["ApiContext", Depends(get_context)]
Admin = Depends(require_admin)
IsAdmin = Annotated[bool, Depends(is_admin)]
