"""What the routes depend on: the server's context, its store, and the admin check."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from server.matches import MatchService
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


StoreDep = Annotated[Store, Depends(get_store)]
ServiceDep = Annotated[MatchService, Depends(get_service)]
ContextDep = Annotated["ApiContext", Depends(get_context)]
Admin = Depends(require_admin)
IsAdmin = Annotated[bool, Depends(is_admin)]
