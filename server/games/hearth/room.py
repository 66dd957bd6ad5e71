"""The Hearth card game as a room game (registered as `hearth`), on the engine's own API.

Seats 0 and 1 are the engine's PlayerID 1 and 2. `pending()` is the engine's: both seats
during the mulligan (answered in any order, at the same time), then the current player.
Each decision runs on the per-decision clock, inside the per-turn budget of its turn. An
illegal answer is refused with a nack and the same decision stays open (its clock keeps
running). News are the engine's Kettle history, one stream per viewer: each seat gets its
own stream (the opponent's hand and deck without card ids), observers the full stream.

>>> game = HearthGame(seed=7)
>>> sorted(game.pending()), {d.payload.kind for d in game.pending().values()}
([0, 1], {'mulligan'})
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import hearth
from server.rooms.game import Clock, Decision, OnRefusal, RuleViolation, Views
from server.rooms.result import Outcome

GAME_TYPE = hearth.GAME_TYPE
MULLIGAN = "mulligan"
OPTIONS = "options"
CHOOSE = "choose"  # a mid-turn choice (Kind.CHOOSE): one of `cards`, offered by `source`
ILLEGAL = "ILLEGAL_ACTION"


@dataclass(frozen=True)
class HearthAsk:
    """The payload of a Hearth `Decision`.

    `kind` MULLIGAN: choose which of `cards` (entity ids) to replace, as one of `actions`
    (`Kind.MULLIGAN` with the chosen ids); OPTIONS: one of `actions` (`actions[0]` is
    END_TURN when it is legal).
    """

    kind: str
    actions: tuple[hearth.Action, ...]
    cards: tuple[int, ...] = ()
    source: int = 0  # CHOOSE: the entity whose text offers the cards


@dataclass(frozen=True)
class HearthView:
    """Everything one recipient may see: its history stream so far, and for a seat its
    observation (own hand in full, the opponent's as entities without cards)."""

    history: tuple[dict[str, Any], ...]
    observation: dict[str, Any] | None


class HearthGame:
    """The `server.rooms.game.Game` adapter of `games.hearth`."""

    game_type = GAME_TYPE
    seat_count = 2
    on_refusal = OnRefusal.NACK

    def __init__(self, seed: int | None = None,
                 decks: Sequence[tuple[str, Sequence[str]]] | None = None) -> None:
        if seed is None:
            # Wide enough that no search finds it from what a player sees (its own cards and
            # their entity ids pin its shuffles): 32 bits are searched in minutes. 63: the
            # store's BIGINT and the API's seed range.
            seed = secrets.randbits(63)
        self.seed = seed
        self.decks = tuple((hero, tuple(cards)) for hero, cards in (decks or hearth.DEFAULT_DECKS))
        self.state = hearth.new_game(seed=seed, decks=self.decks, history=True)
        # How far each history stream was handed out: [full (observers), player 1, player 2].
        self._marks = [0, 0, 0]
        # Counts ended turns: decisions of one turn share the per-turn clock.
        self._turn = 0

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def use_deck(self, seat: int, hero: str, cards: Sequence[str]) -> None:
        """Before any news: `seat` plays this deck (the game is dealt again, same seed)."""
        if any(self._marks):
            raise RuntimeError("decks are fixed once the game has started")
        decks = list(self.decks)
        decks[seat] = (hero, tuple(cards))
        self.decks = tuple(decks)
        self.state = hearth.new_game(seed=self.seed, decks=self.decks, history=True)

    def stored_options(self) -> dict[str, Any]:
        """What the store keeps of the deal beyond the seed: each deck that is not the
        seat's default one (a Kettle client's own, from `queue_player`), as {hero, cards}.

        >>> game = HearthGame(seed=1)
        >>> game.stored_options()
        {}
        >>> game.use_deck(1, *hearth.DEFAULT_DECKS[0])
        >>> game.stored_options()["decks"]["1"]["hero"]
        'HERO_08'
        """
        found = {str(seat): {"hero": hero, "cards": list(cards)}
                 for seat, (hero, cards) in enumerate(self.decks)
                 if (hero, tuple(cards)) != (hearth.DEFAULT_DECKS[seat][0],
                                             tuple(hearth.DEFAULT_DECKS[seat][1]))}
        return {"decks": found} if found else {}

    def pending(self) -> Mapping[int, Decision]:
        state = self.state
        asked: dict[int, Decision] = {}
        for player in state.pending():
            actions = tuple(state.legal_actions(player))
            if actions and actions[0].kind == hearth.Kind.MULLIGAN:
                cards = tuple(state.mulligan_cards(player))
                asked[player - 1] = Decision(HearthAsk(MULLIGAN, actions, cards), Clock.DECISION)
            elif actions and actions[0].kind == hearth.Kind.CHOOSE:
                offered = tuple(a.cards[0] for a in actions)
                source = state.choices[0].source
                asked[player - 1] = Decision(HearthAsk(CHOOSE, actions, offered, source),
                                             Clock.DECISION, turn=self._turn)
            else:
                asked[player - 1] = Decision(HearthAsk(OPTIONS, actions), Clock.DECISION,
                                             turn=self._turn)
        return asked

    def accepts(self, data: object) -> bool:
        return isinstance(data, hearth.Action)

    def apply(self, seat: int, answer: Any) -> None:
        try:
            self.state.apply(answer, player=seat + 1)
        except hearth.IllegalAction as exc:
            raise RuleViolation(ILLEGAL, str(exc), answer) from exc
        if answer.kind == hearth.Kind.END_TURN:
            self._turn += 1

    def news(self, seats: Collection[int], observers: bool) -> Views:
        public: tuple[dict[str, Any], ...] = ()
        if observers:
            public = self._since(0)
        return Views(public, {seat: self._since(seat + 1) for seat in seats})

    def _since(self, stream: int) -> tuple[dict[str, Any], ...]:
        entries = self.state.history(None if stream == 0 else stream, self._marks[stream])
        self._marks[stream] += len(entries)
        return tuple(entries)

    def view(self, seat: int | None) -> HearthView:
        if seat is None:
            return HearthView(tuple(self.state.history(None)), None)
        return HearthView(tuple(self.state.history(seat + 1)), self.state.observation(seat + 1))

    def outcome(self) -> Outcome | None:
        result = self.state.result()
        if result is None:
            return None
        winner = result.winner - 1 if result.winner in (1, 2) else None
        return Outcome(winner, result.reason, self._wins(winner))

    def scores(self) -> tuple[int, ...]:
        outcome = self.outcome()
        return outcome.scores if outcome is not None else (0, 0)

    def stopped(self) -> Outcome:
        return Outcome(None, "stopped", (0, 0))

    def concede(self, seat: int) -> bool:
        self.state.concede(seat + 1)
        return True

    @staticmethod
    def _wins(winner: int | None) -> tuple[int, ...]:
        return tuple(1 if seat == winner else 0 for seat in range(2))


def new_game(seed: int | None = None) -> HearthGame:
    return HearthGame(seed=seed)
