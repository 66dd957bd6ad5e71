"""Hearth matches that start from a stored match's position (issue #29).

The position is the engine replayed from the match's seed and decks with every stored
answer before it (`payload["answer"]` of its state events), with history on: the room's
history marks are still at 0, so each seat's first news is its whole Kettle stream from the
start, exactly what it would have seen at that point of the original match. With rng
"fresh" the random stream is reseeded at the position (`games.hearth.State.reseed`). A
match that itself started from a position goes on from that position (`StoredPosition.
origin`, rebuilt from the match it came from, and so on).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import hearth
from games.hearth import decks as hearth_decks
from server.games.hearth.room import HearthGame
from server.games.registry import PositionError, StoredPosition
from server.rooms.game import RuleViolation


def stored_position(stored: StoredPosition) -> HearthGame:
    if stored.origin is not None:
        # Its log holds the answers from its own start on: they go on from the position it
        # started from, rebuilt from the match it came from.
        game = stored.origin()
        assert isinstance(game, HearthGame)
    elif "from" in stored.options:
        raise PositionError("that match started from a position that is not a stored "
                            "match's", "from.match")
    elif stored.seed is None:
        raise PositionError("the stored match has no seed: its deal cannot be rebuilt",
                            "from.match")
    else:
        game = HearthGame(seed=stored.seed, decks=_decks(stored.options))
    for event in stored.events:
        payload = event.payload if isinstance(event.payload, dict) else {}
        answer = payload.get("answer") if event.kind == "state" else None
        if answer is None:
            continue
        try:
            seat, action = int(answer["seat"]), _action(answer["move"])
            game.apply(seat, action)
        except (RuleViolation, KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"the stored match does not replay at event {event.seq}: "
                                f"{exc}", "from.match") from None
    if game.is_over:
        raise PositionError("the game is over at that position: nothing is left to play")
    if stored.rng == "fresh":
        if stored.fresh_seed is None:
            raise PositionError("rng 'fresh' needs a seed", "from.rng")
        game.state.reseed(stored.fresh_seed)
    elif stored.rng != "same":
        raise PositionError(f"rng is 'same' or 'fresh', not {stored.rng!r}", "from.rng")
    return game


def _decks(options: Mapping[str, Any]) -> list[tuple[str, Sequence[str]]]:
    """The decks the match was dealt: its stored `decks` (seat -> the deck as given), the
    default decks for the others."""
    found: list[tuple[str, Sequence[str]]] = list(hearth.DEFAULT_DECKS)
    stored = options.get("decks") if isinstance(options, Mapping) else None
    for seat, spec in (stored or {}).items():
        try:
            found[int(seat)] = hearth_decks.resolve(spec).pair()
        except (ValueError, IndexError) as exc:
            raise PositionError(f"the stored match's deck of seat {seat} is not read again: "
                                f"{exc}", "from.match") from None
    return found


def _action(move: Sequence[Any]) -> hearth.Action:
    kind, entity, target, position, cards = move
    return hearth.Action(hearth.Kind(kind), entity, target, position, tuple(cards))
