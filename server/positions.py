"""Matches that start from a position (issue #29): a stored match's position before its
decision N, or a game's own replay file at a turn.

The decisions of a stored match are its `decision` events numbered 0, 1, 2, ... in seq
order; the position before decision N is the game after every answer whose state event
comes before decision event N (docs/server.md). This module finds those events; the game
plugin rebuilds the position from them (`GamePlugin.position`, `GamePlugin.from_replay`),
so that nothing here names a game. Every refusal is a `MatchError` 422 naming the field.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from server.games.registry import GamePlugin, PositionError, StoredPosition
from server.matches import MatchError
from server.rooms.game import Game
from server.store import Store

__all__ = ["Start", "decision_seqs", "from_match", "from_replay"]

RNG = ("same", "fresh")


@dataclass(frozen=True)
class Start:
    """Where a new match starts: the room's `game` at the position, the `seed` stored with
    the new match, and `origin`, what its options record under "from"."""

    game: Game
    seed: int | None
    origin: dict[str, Any] = field(default_factory=dict)


def decision_seqs(events: list[Any]) -> list[int]:
    """The seq of each decision of a stored match, decision 0 first."""
    return [e.seq for e in events if e.kind == "decision"]


def from_match(store: Store, plugin: GamePlugin, match_id: str, turn: int,
               rng: str = "same", seed: int | None = None) -> Start:
    """The position before decision `turn` of stored match `match_id` (blocking: it reads
    the store). `seed`: the fresh stream's seed with rng "fresh" (None: a random one)."""
    if plugin.position is None:
        raise MatchError(f"from: {plugin.game_id} cannot start from a stored position", 422)
    if rng not in RNG:
        raise MatchError(f"from.rng: 'same' or 'fresh', not {rng!r}", 422)
    match = store.get_match(match_id)
    if match is None:
        raise MatchError(f"from.match: no match {match_id}", 422)
    if match.game != plugin.game_id:
        raise MatchError(f"from.match: match {match_id} is a {match.game} match, not "
                         f"{plugin.game_id}", 422)
    if store.events_dropped(match_id) is not None:
        raise MatchError(f"from.match: match {match_id}'s events were dropped by the "
                         "retention", 422)
    # Each seq once: a pack committed while they were read shows some twice.
    events = sorted({e.seq: e for e in store.events_since(match_id)}.values(),
                    key=lambda e: e.seq)
    seqs = decision_seqs(events)
    if turn >= len(seqs):
        raise MatchError(f"from.turn: match {match_id} has {len(seqs)} decisions (turns 0 to "
                         f"{len(seqs) - 1}); turn {turn} is past its end", 422)
    fresh = None
    if rng == "fresh":
        fresh = seed if seed is not None else secrets.randbits(63)
    options = match.options if isinstance(match.options, dict) else {}
    stored = StoredPosition(match.seed, options, [e for e in events if e.seq < seqs[turn]],
                            rng, fresh)
    try:
        game = plugin.position(stored)
    except PositionError as exc:
        raise MatchError(f"{exc.field}: {exc}", 422) from None
    origin: dict[str, Any] = {"match": match_id, "turn": turn, "rng": rng}
    if fresh is not None:
        origin["seed"] = fresh
    return Start(game, match.seed if fresh is None else fresh, origin)


def from_replay(plugin: GamePlugin, data: bytes, turn: int, name: str = "") -> Start:
    """The position at `turn` of a replay file of the game's (`name`: what the origin
    calls it)."""
    if plugin.from_replay is None:
        raise MatchError(f"from.replay: {plugin.game_id} cannot start from a replay file", 422)
    try:
        game = plugin.from_replay(data, turn)
    except PositionError as exc:
        raise MatchError(f"{exc.field}: {exc}", 422) from None
    return Start(game, None, {"replay": name or "upload", "turn": turn})
