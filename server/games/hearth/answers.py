"""A stored Hearth match's answers, as `server.ask` reads them (`GamePlugin.answers`).

Each state event an answer produced holds it: `payload["answer"] = {"seat": s, "move":
[kind, entity, target, position, [cards]]}` (a `games.hearth.Action` as a list). The game
is rebuilt from the match's seed (its decks are given by the caller, from the match's
options).

>>> events = [(0, "decision", {"seat": 0}), (1, "decision", {"seat": 1}),
...           (2, "state", {"answer": {"seat": 1, "move": [5, 1, 0, -1, []]}})]
>>> HearthAnswers().answers(events)
[(2, 1, [5, 1, 0, -1, []])]
>>> HearthAnswers().decode([5, 1, 0, -1, []])
Action(kind=<Kind.MULLIGAN: 5>, entity=1, target=0, position=-1, cards=())
>>> HearthAnswers().encode(hearth.Action(hearth.Kind.ATTACK, 12, 5))
[4, 12, 5, -1, []]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import hearth
from server.games.hearth.room import HearthGame


class HearthAnswers:
    """The plugin's `answers` (`server.games.registry.StoredAnswers`)."""

    def answers(self, events: list[tuple[int, str, Any]]) -> list[tuple[int, int, Any]]:
        found: list[tuple[int, int, Any]] = []
        for seq, kind, payload in events:
            answer = payload.get("answer") if kind == "state" and isinstance(payload, dict) \
                else None
            if isinstance(answer, dict) and isinstance(answer.get("seat"), int):
                found.append((seq, answer["seat"], answer.get("move")))
        return found

    def first_game(self, seed: int | None, events: list[tuple[int, str, Any]],
                   origin: Callable[[], Any] | None = None) -> HearthGame:
        if origin is not None:  # a match from a position: the game there
            game = origin()
            assert isinstance(game, HearthGame)
            return game
        if seed is None:
            raise ValueError("the match has no stored seed: its deal cannot be rebuilt")
        return HearthGame(seed=seed)

    def decode(self, move: Any) -> hearth.Action:
        try:
            kind, entity, target, position, cards = move
            return hearth.Action(hearth.Kind(kind), int(entity), int(target), int(position),
                                 tuple(int(c) for c in cards))
        except (TypeError, ValueError) as error:
            raise ValueError(f"not a Hearth action: {move!r} ({error})") from None

    def encode(self, answer: Any) -> list[Any]:
        if isinstance(answer, hearth.Action):
            return [int(answer.kind), int(answer.entity), int(answer.target),
                    int(answer.position), [int(c) for c in answer.cards]]
        return [repr(answer)]
