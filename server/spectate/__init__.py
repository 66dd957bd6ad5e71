"""Spectating: the hub that fans room events out to browsers, and the frames it sends.

Its HTTP side (the WebSocket routes, the viewer's files) is `server.api.viewer`."""

from server.spectate.hub import Close, MatchFeed, SpectateHub, Watcher

__all__ = ["Close", "MatchFeed", "SpectateHub", "Watcher"]
