"""Start-up chores of a server with a store: what a previous run left, and the bundled bots.

Blocking (run on a thread before the server listens): `server.runtime.GauntletServer`
calls them once its store's schema is upgraded.
"""

from __future__ import annotations

import contextlib

from server.games.registry import GameRegistry
from server.store import MatchStatus, Store

__all__ = ["abort_stale_waiting", "bundled_bots", "register_bundled_bots"]


def bundled_bots(games: GameRegistry) -> list[tuple[str, str, list[str]]]:
    """(name, game, argv) of the bots every game of `games` brings (`GamePlugin.bundled`);
    `--host --port` are appended (the reservation is in their environment)."""
    return [(bot.name, plugin.game_id, list(bot.argv))
            for plugin in games for bot in plugin.bundled()]


def register_bundled_bots(store: Store, games: GameRegistry) -> list[str]:
    """Register the bundled bots that are not registered yet (blocking; at start-up)."""
    added = []
    for name, game, argv in bundled_bots(games):
        if store.get_bot_by_name(name) is None:
            with contextlib.suppress(Exception):
                store.create_bot(name, game, argv)
                added.append(name)
    return added


def abort_stale_waiting(store: Store, *, keep_dispatched: bool = False) -> list[str]:
    """Waiting matches of a previous run: their rooms and reservations died with it.

    With a broker (`keep_dispatched`, as `Store.recover`) the matches queued for the workers
    stay: they are not this node's."""
    from server.store.store import dispatched

    ids: list[str] = []
    kept = 0
    while True:
        page = store.list_matches(status=MatchStatus.WAITING, limit=500, offset=kept)
        progress = False
        for match in page.items:
            if keep_dispatched and dispatched(match.options):
                kept += 1
                continue
            with contextlib.suppress(Exception):
                store.set_status(match.id, MatchStatus.ABORTED)
                ids.append(match.id)
                progress = True
        if not progress:
            return ids
