"""Spectating: per-game JSON renderers and the hub that fans room events out to browsers."""

from server.spectate.app import create_spectate_app, install
from server.spectate.hub import Close, MatchFeed, SpectateHub, Watcher

__all__ = ["Close", "MatchFeed", "SpectateHub", "Watcher", "create_spectate_app", "install"]
