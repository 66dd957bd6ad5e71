"""Hooking spectating into a FastAPI app: the hub, the WebSocket router, the viewer at `/`."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from server.rooms import Lobby
from server.spectate.hub import SpectateHub
from server.store import Store

WEB_DIR = Path(__file__).resolve().parents[2] / "web"


def install(app: FastAPI, lobby: Lobby, *, admin_token: str = "",
            web_dir: Path = WEB_DIR, store: Store | None = None) -> SpectateHub:
    """Add `/ws/...` and the static viewer to `app` (call after the other routers: the
    viewer is mounted at `/` and takes whatever they leave). `store`: stored matches are
    listed and replayed from it (None: the API context's store, if there is one)."""
    from server.api import ws

    hub = SpectateHub(lobby, admin_token=admin_token, store=store)
    hub.hook()
    pubsub = _pubsub_url()
    if pubsub:  # a cluster: matches played on workers are followed on Redis
        from server.worker.remote import follow

        hub.follower = follow(hub, pubsub)
    app.state.spectate = hub
    app.include_router(ws.router)
    app.router.add_event_handler("shutdown", hub.close)
    if web_dir.is_dir():
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return hub


def _pubsub_url() -> str | None:
    from server.settings import load_settings

    settings = load_settings()
    return settings.redis_url or settings.broker_url


def create_spectate_app(lobby: Lobby, *, admin_token: str = "",
                        store: Store | None = None) -> FastAPI:
    """A minimal app with spectating only (tests; servers without the REST API)."""
    from server.api.http import HostGuard

    app = FastAPI(title="Gauntlet spectators")
    install(app, lobby, admin_token=admin_token, store=store)
    app.add_middleware(HostGuard)
    return app
