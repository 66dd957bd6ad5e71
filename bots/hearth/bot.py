"""The Hearth bot interface: ``Bot`` (two decisions) and ``Outcome`` (how a game ended).

This module needs no codec and no socket: a bot is a pure policy on the engine's own
``games.hearth.State``, so the same class plays over Kettle (``bots.hearth.kit``) and in a
tight engine loop (``bots.hearth.local.play_game``).

>>> from games import hearth
>>> class EndTurn(Bot):
...     def act(self, state, options):
...         return hearth.END_TURN
>>> EndTurn().name
'EndTurn'
>>> EndTurn().mulligan(hearth.new_game(seed=1), [4, 5, 6])    # the default keeps everything
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.hearth import Action, State

__all__ = ["Bot", "Outcome", "owner_of_hand_card"]


class Bot:
    """Base class of a Hearth bot: implement ``act``; ``mulligan`` and the hooks are optional.

    Both decisions get a ``State`` that the bot may search, clone and apply actions to
    (it is the bot's own copy; the caller never looks at it again). Over Kettle it is
    rebuilt from what this player may see (the opponent's hand and deck are hidden cards),
    in ``bots.hearth.local`` it is a clone of the real game: a fair bot reads only
    ``state.observation(player)`` and its own simulations.
    """

    @property
    def name(self) -> str:
        return type(self).__name__

    def on_start(self, player: int) -> None:
        """The game starts; we are ``player`` (PlayerID 1 or 2)."""

    def mulligan(self, state: State, choices: Sequence[int]) -> list[int]:
        """The entity ids among ``choices`` to replace (send back to the deck); default none."""
        return []

    def choose(
        self, state: State, choices: Sequence[int], count_min: int, count_max: int
    ) -> list[int]:
        """A mid-turn pick (``entity_choices`` GENERAL; the engine's ``Kind.CHOOSE``:
        Tracking, Sightless Watcher): between ``count_min`` and ``count_max`` of
        ``choices``, our own cards; default the first ``count_min``."""
        return list(choices[:count_min])

    def act(self, state: State, options: Sequence[Action]) -> Action:
        """One of ``options`` (the legal actions of ``state.current``, ``END_TURN`` first).

        ``Action(kind, entity, target, position)``: ``PLAY`` a hand card (target 0 = none;
        minions: ``position`` = board index), ``POWER`` the hero power, ``ATTACK`` with
        ``entity`` at ``target``, or ``END_TURN``.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement act(state, options)")

    def on_result(self, outcome: Outcome) -> None:
        """The game is over."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended, for one player.

    ``player``: our PlayerID (None if the game never started for us); ``winner``: 1, 2, 0
    for a draw, None when not known; ``reason``: the server's or the engine's words.

    >>> o = Outcome(player=1, winner=2, reason="hero died")
    >>> o.lost, o.won, o.describe()
    (True, False, 'player 2 won: hero died (we are player 1)')
    """

    player: int | None
    winner: int | None
    reason: str = ""

    @property
    def won(self) -> bool:
        return self.player is not None and self.winner == self.player

    @property
    def drew(self) -> bool:
        return self.winner == 0

    @property
    def lost(self) -> bool:
        return self.player is not None and self.winner not in (None, 0, self.player)

    def describe(self) -> str:
        if self.winner is None:
            head = "no result"
        elif self.winner == 0:
            head = "draw"
        else:
            head = f"player {self.winner} won"
        tail = f": {self.reason}" if self.reason else ""
        me = "?" if self.player is None else str(self.player)
        return f"{head}{tail} (we are player {me})"


def owner_of_hand_card(state: State, entity: int) -> int:
    """The player holding ``entity`` in hand, as ``state.observation`` tells it (0 if none).

    >>> from games import hearth
    >>> g = hearth.new_game(seed=2, first_player=1)
    >>> [owner_of_hand_card(g, a.cards[0]) for a in g.legal_actions() if len(a.cards) == 1][:2]
    [1, 1]
    """
    for p in (1, 2):
        if any(card["entity"] == entity for card in state.observation(p)["you"]["hand"]):
            return p
    return 0
