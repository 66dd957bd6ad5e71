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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.games.registry import GamePlugin, PositionError, StoredPosition
from server.matches import MatchError
from server.rooms.game import Game
from server.store import Store

__all__ = ["Event", "Reader", "Recorded", "Start", "check_openings", "decision_seqs",
           "from_match", "from_opening", "from_recorded", "from_replay", "origin_of",
           "store_reader"]

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


@dataclass(frozen=True)
class Event:
    """A stored event as a `Reader` outside the server has it (the events API's JSON)."""

    seq: int
    kind: str
    payload: Any


@dataclass(frozen=True)
class Recorded:
    """What a position needs of a stored match: its game, seed, options and events (each
    with `.seq`, `.kind`, `.payload`; in seq order, each once)."""

    match_id: str
    game: str
    seed: int | None
    options: dict[str, Any]
    events: list[Any]


Reader = Callable[[str], "Recorded | None"]
"""A stored match by id (None: no such match); `MatchError` 422 when its events are gone.
The server reads its store (`store_reader`); `gauntlet ask` reads the API."""

MAX_CHAIN = 32
"""Matches from a position of a match from a position...: how deep a chain is followed."""


def store_reader(store: Store) -> Reader:
    """Blocking reads of the store as a `Reader`."""

    def read(match_id: str) -> Recorded | None:
        match = store.get_match(match_id)
        if match is None:
            return None
        if store.events_dropped(match_id) is not None:
            raise MatchError(f"from.match: match {match_id}'s events were dropped by the "
                             "retention", 422)
        events = store.events_since(match_id)  # in seq order, each once
        options = match.options if isinstance(match.options, dict) else {}
        return Recorded(match_id, match.game, match.seed, options, events)

    return read


def from_match(store: Store, plugin: GamePlugin, match_id: str, turn: int,
               rng: str = "same", seed: int | None = None) -> Start:
    """The position before decision `turn` of stored match `match_id` (blocking: it reads
    the store). `seed`: the fresh stream's seed with rng "fresh" (None: a random one)."""
    return from_recorded(store_reader(store), plugin, match_id, turn, rng, seed)


def from_recorded(read: Reader, plugin: GamePlugin, match_id: str, turn: int,
                  rng: str = "same", seed: int | None = None, depth: int = 0) -> Start:
    """`from_match` with any `Reader`."""
    if plugin.position is None:
        raise MatchError(f"from: {plugin.game_id} cannot start from a stored position", 422)
    if rng not in RNG:
        raise MatchError(f"from.rng: 'same' or 'fresh', not {rng!r}", 422)
    match = read(match_id)
    if match is None:
        raise MatchError(f"from.match: no match {match_id}", 422)
    if match.game != plugin.game_id:
        raise MatchError(f"from.match: match {match_id} is a {match.game} match, not "
                         f"{plugin.game_id}", 422)
    seqs = decision_seqs(match.events)
    if turn >= len(seqs):
        raise MatchError(f"from.turn: match {match_id} has {len(seqs)} decisions (turns 0 to "
                         f"{len(seqs) - 1}); turn {turn} is past its end", 422)
    fresh = None
    if rng == "fresh":
        fresh = seed if seed is not None else secrets.randbits(63)
    stored = StoredPosition(match.seed, match.options,
                            [e for e in match.events if e.seq < seqs[turn]], rng, fresh,
                            origin_of(read, plugin, match.options, depth))
    try:
        game = plugin.position(stored)
    except PositionError as exc:
        raise MatchError(f"{exc.field}: {exc}", 422) from None
    origin: dict[str, Any] = {"match": match_id, "turn": turn, "rng": rng}
    if fresh is not None:
        origin["seed"] = fresh
    return Start(game, match.seed if fresh is None else fresh, origin)


def check_openings(store: Store, plugin: GamePlugin, openings: list[dict[str, Any]]) -> None:
    """Blocking: each opening ({"match", "turn"}: a ladder's or a test's) rebuilds, else
    `MatchError` 422 naming `openings[i]` and what is wrong."""
    for i, opening in enumerate(openings):
        try:
            from_match(store, plugin, opening["match"], opening["turn"])
        except MatchError as exc:
            raise MatchError(f"openings[{i}]: {exc}", 422) from None


def from_opening(store: Store, plugin: GamePlugin, opening: dict[str, Any],
                 seed: int) -> Start:
    """Blocking: a game of a ladder round or a test pair from `opening`. Both games of a
    round or pair get the same position: a game with randomness after its start (Hearth)
    draws it fresh from their `seed`, so two rounds of one opening differ."""
    return from_match(store, plugin, str(opening["match"]), int(opening["turn"]),
                      "fresh" if plugin.fresh_rng else "same", seed)


def origin_of(read: Reader, plugin: GamePlugin, options: Any, depth: int = 0
              ) -> Callable[[], Game] | None:
    """For a match that started from another stored match's position (its options'
    "from"), the game at its own start, rebuilt on each call from the match it came from
    (and so on up the chain); None for any other match. A game whose log alone does not
    rebuild a position (Hearth: its deal and answers from the very start) calls it."""
    found = options.get("from") if isinstance(options, dict) else None
    if not isinstance(found, dict) or not isinstance(found.get("match"), str):
        return None
    origin: dict[str, Any] = found

    def rebuild() -> Game:
        if depth >= MAX_CHAIN:
            raise MatchError(f"from.match: a chain of more than {MAX_CHAIN} matches from "
                             "positions", 422)
        try:
            return from_recorded(read, plugin, origin["match"], int(origin["turn"]),
                                 str(origin.get("rng", "same")), origin.get("seed"),
                                 depth + 1).game
        except MatchError as exc:
            raise MatchError(f"{exc} (rebuilding the position match {origin['match']} "
                             f"started from)", exc.status) from None

    return rebuild


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
