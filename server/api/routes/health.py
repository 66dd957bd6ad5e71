from __future__ import annotations

from fastapi import APIRouter

from server.api.deps import ContextDep
from server.api.schemas import HealthOut

router = APIRouter(tags=["health"])


@router.get("/health", summary="Is the server up")
def health(context: ContextDep) -> HealthOut:
    return HealthOut(status="ok", store=context.store is not None,
                     rooms=len(context.service.lobby.rooms), tcp_port=context.tcp_port())
