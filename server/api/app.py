"""`create_app`: the FastAPI application, its routers and its JSON error handlers."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from server.api import ladder
from server.api.http import ClientLimits, HostGuard
from server.api.routes import ask, bots, games, health, matches, sprt
from server.api.viewer import install as install_spectate
from server.games.registry import GameRegistry
from server.ladder import Ladder
from server.matches import MatchError, MatchService
from server.store import Conflict, NotFound, Store, StoreError

log = logging.getLogger(__name__)


@dataclass
class ApiContext:
    """What the routes reach: the store (None: in-memory server), the service, the games."""

    store: Store | None
    service: MatchService
    games: GameRegistry
    admin_token: str
    tcp_port: Callable[[], int | None]
    ladder: Ladder | None = None
    max_body_bytes: int = 1 << 20
    max_websockets_per_address: int = 32
    # Host names served besides loopback and IP addresses (`HostGuard`; "*": any).
    allowed_hosts: tuple[str, ...] = ()
    # A cluster's parts: the `server.worker.dispatch.Dispatcher` that queues matches of
    # registered bots for the workers, and the Redis URL its live frames come on.
    dispatcher: Any = None
    pubsub_url: str | None = None
    # The sequential tests (`server.sprt.SprtRunner`; None: no store, no tests).
    sprt: Any = None


def create_app(context: ApiContext) -> FastAPI:
    app = FastAPI(
        title="Gauntlet",
        summary="A local match server for game-AI bots: start matches, read results, "
                "events and replays.",
        version="0.1.0",
        docs_url=None,  # served below from the swagger-ui-bundle wheel: no CDN
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.gauntlet = context
    for module in (health, games, matches, ask, bots, ladder, sprt):
        app.include_router(module.router, prefix="/api")
    _offline_docs(app)
    # Spectators: /ws/matches/{id}, /ws/lobby, and the viewer at / (mounted last).
    install_spectate(app, context.service.lobby, admin_token=context.admin_token,
                     pubsub=context.pubsub_url)
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(MatchError, _match_error)  # type: ignore[arg-type]
    app.add_exception_handler(StoreError, _store_error)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected)
    # Bodies capped before they are read whole, WebSockets capped per address.
    app.add_middleware(ClientLimits, max_body_bytes=context.max_body_bytes,
                       max_websockets=context.max_websockets_per_address)
    # Outermost (added last): a foreign Host or Origin is refused before anything counts.
    app.add_middleware(HostGuard, allowed_hosts=context.allowed_hosts)
    return app


DOCS_ASSETS = "/docs-assets"


def _offline_docs(app: FastAPI) -> None:
    """`/docs` with Swagger UI's script, styles and icon from the `fastapi-offline` wheel's
    static files (FastAPI's default page loads them from a CDN: blank without internet).
    Only the files are used: the application stays a plain FastAPI."""
    from pathlib import Path

    import fastapi_offline
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles

    assets = Path(fastapi_offline.__file__).with_name("static")
    app.mount(DOCS_ASSETS, StaticFiles(directory=assets), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json", title="Gauntlet API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png")


def _field(loc: tuple[int | str, ...] | list[int | str]) -> str:
    return ".".join(str(part) for part in loc)


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = []
    for e in exc.errors():
        loc = tuple(e.get("loc", ()))
        message = _body_message(request, e, exc.body) if loc[:1] == ("body",) else None
        errors.append({"field": "body" if message else _field(loc),
                       "message": message or str(e.get("msg", "invalid")).removeprefix(
                           "Value error, ")})
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors) or "invalid request"
    return JSONResponse({"detail": detail, "errors": errors}, status_code=422)


def _body_message(request: Request, error: Any, body: Any) -> str | None:
    """A sentence for what is wrong with the body as a whole (pydantic's words name its
    own types: "JSON decode error" at a character offset, "a valid dictionary")."""
    kind, loc = error.get("type"), tuple(error.get("loc", ()))
    if kind == "json_invalid":
        reason = str((error.get("ctx") or {}).get("error", "not JSON"))
        offset = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else 0
        raw = body if isinstance(body, bytes | str) else b""
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        before = text[:offset]
        line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        return f"the body is not valid JSON: {reason} at line {line}, column {column}"
    if len(loc) != 1:
        return None
    if kind == "missing":
        return "the body is empty: send a JSON object"
    if kind in ("model_attributes_type", "dict_type"):
        media = request.headers.get("content-type", "").split(";")[0].strip()
        if media != "application/json":
            sent = f"it came as {media!r}" if media else "it came without one"
            return f"send the body as JSON with Content-Type: application/json ({sent})"
        return "the body must be a JSON object ({...})"
    return None


async def _match_error(request: Request, exc: MatchError) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=exc.status)


async def _store_error(request: Request, exc: StoreError) -> JSONResponse:
    status = 404 if isinstance(exc, NotFound) else 409 if isinstance(exc, Conflict) else 503
    return JSONResponse({"detail": str(exc)}, status_code=status)


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("%s %s failed", request.method, request.url.path)
    return JSONResponse({"detail": f"internal error: {type(exc).__name__}"}, status_code=500)
