from __future__ import annotations

from fastapi import APIRouter

from server.api.deps import ContextDep
from server.api.schemas import HealthOut

router = APIRouter(tags=["health"])


@router.get("/health", summary="Is the server up")
def health(context: ContextDep) -> HealthOut:
    """`status` is `store_failing` (with `store_error`) while the store refuses writes: new
    matches are refused then (503), running ones end without a result."""
    error = context.service.store_error
    return HealthOut(status="ok" if error is None else "store_failing",
                     store=context.store is not None, store_error=error,
                     rooms=len(context.service.lobby.rooms), tcp_port=context.tcp_port())
