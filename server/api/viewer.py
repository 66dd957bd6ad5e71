"""Hooking spectating into a FastAPI app: the hub, the WebSocket router, the viewer at `/`.

The spectators' machinery (`server.spectate`: the hub, its feeds, the frames) knows no
HTTP; this is where it meets the API's routers and guards."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from server.api.http import HostGuard
from server.games.registry import GamePlugin
from server.rooms import Lobby
from server.spectate.hub import SpectateHub
from server.store import Store

WEB_DIR = Path(__file__).resolve().parents[2] / "web"


def install(app: FastAPI, lobby: Lobby, *, admin_token: str = "",
            web_dir: Path = WEB_DIR, store: Store | None = None,
            pubsub: str | None = None) -> SpectateHub:
    """Add `/ws/...` and the static viewer to `app` (call after the other routers: the
    viewer is mounted at `/` and takes whatever they leave). `store`: stored matches are
    listed and replayed from it (None: the API context's store, if there is one).
    `pubsub`: a cluster's Redis URL, on which the matches of its workers are followed."""
    from server.api.ws import router as ws_router

    hub = SpectateHub(lobby, admin_token=admin_token, store=store)
    hub.hook()
    if pubsub:  # a cluster: matches played on workers are followed on Redis
        from server.worker.remote import follow

        hub.follower = follow(hub, pubsub)
    app.state.spectate = hub
    app.include_router(ws_router)
    app.router.add_event_handler("shutdown", hub.close)
    _serve_viewers(app, lobby)
    if web_dir.is_dir():
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return hub


def _serve_viewers(app: FastAPI, lobby: Lobby) -> None:
    """`/games.json` (each game's id, name and viewer module) and the viewer modules the
    game packages bring (`GamePlugin.viewer`): the web page names no game."""

    @app.get("/games.json", include_in_schema=False)
    def games() -> list[dict[str, str | int | bool | None]]:
        # `positions`, `freshRng`: whether "play from here" is offered, and with the choice
        # of the random stream (docs/api.md, "Starting from a position").
        return [{"id": p.game_id, "name": p.name,
                 "viewer": f"/games/{p.game_id}/viewer.js" if _viewer(p, ".js") else None,
                 "style": f"/games/{p.game_id}/viewer.css" if _viewer(p, ".css") else None,
                 "seats": p.seat_count, "positions": p.position is not None,
                 "freshRng": p.fresh_rng}
                for p in sorted(lobby.games, key=lambda p: p.game_id)]

    @app.get("/games/{game_id}/viewer.{kind}", include_in_schema=False)
    def viewer(game_id: str, kind: str) -> FileResponse:
        plugin = lobby.games.get(game_id) if game_id in lobby.games else None
        path = _viewer(plugin, f".{kind}") if plugin is not None else None
        if path is None:
            raise HTTPException(404, f"no viewer.{kind[:8]} for game {game_id[:64]!r}")
        return FileResponse(path, media_type=_MEDIA[kind])


_MEDIA = {"js": "text/javascript", "css": "text/css"}


def _viewer(plugin: GamePlugin, suffix: str) -> Path | None:
    """The plugin's viewer module (".js") or the style sheet beside it (".css")."""
    if plugin.viewer is None or suffix[1:] not in _MEDIA:
        return None
    path = plugin.viewer.with_suffix(suffix)
    return path if path.is_file() else None


def create_spectate_app(lobby: Lobby, *, admin_token: str = "",
                        store: Store | None = None) -> FastAPI:
    """A minimal app with spectating only (tests; servers without the REST API)."""
    app = FastAPI(title="Gauntlet spectators")
    install(app, lobby, admin_token=admin_token, store=store)
    app.add_middleware(HostGuard)
    return app
