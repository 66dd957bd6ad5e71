"""Hooking spectating into a FastAPI app: the hub, the WebSocket router, the viewer at `/`."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from server.rooms import Lobby
from server.spectate.hub import SpectateHub

WEB_DIR = Path(__file__).resolve().parents[2] / "web"


def install(app: FastAPI, lobby: Lobby, *, admin_token: str = "",
            web_dir: Path = WEB_DIR) -> SpectateHub:
    """Add `/ws/...` and the static viewer to `app` (call after the other routers: the
    viewer is mounted at `/` and takes whatever they leave)."""
    from server.api import ws

    hub = SpectateHub(lobby, admin_token=admin_token)
    hub.hook()
    app.state.spectate = hub
    app.include_router(ws.router)
    app.router.add_event_handler("shutdown", hub.close)
    if web_dir.is_dir():
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return hub


def create_spectate_app(lobby: Lobby, *, admin_token: str = "") -> FastAPI:
    """A minimal app with spectating only (tests; servers without the REST API)."""
    app = FastAPI(title="Gauntlet spectators")
    install(app, lobby, admin_token=admin_token)
    return app
