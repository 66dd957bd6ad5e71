"""A policy of the Hearth environments as a bot of the Hearth kit.

Every decision (the mulligan, a mid-turn choice, an action) is one index of
`games.hearth.rl_encoding`: the policy sees what the environments show the same player,
`observe(state, player)` and `action_mask(state, player, options)`.

>>> from games import hearth
>>> def end_turn_first(observation, action_mask):
...     return int(action_mask.argmax())        # the lowest legal index
>>> bot = PolicyBot(end_turn_first)
>>> bot.on_start(1)
>>> g = hearth.new_game(seed=1)
>>> bot.mulligan(g, [a for a in g.legal_actions(1) if a.cards][0].cards)  # index 0 of 16: keep all
[]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bots.hearth.bot import Bot, owner_of_hand_card
from bots.policy import Policy, ask, policy_name
from games.hearth import Action, State
from games.hearth.rl_encoding import action_fields, action_mask, move_of, observe

__all__ = ["PolicyBot"]


class PolicyBot(Bot):
    """Plays `policy(observation, action_mask)` at every decision of its player. `seen`
    keeps every (observation, mask) it was shown when `keep` is set (tests)."""

    def __init__(self, policy: Policy, keep: bool = False) -> None:
        self.policy = policy
        self.label = policy_name(policy)
        self.player: int | None = None
        self.seen: list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]] = []
        self._keep = keep

    @property
    def name(self) -> str:
        return self.label

    def on_start(self, player: int) -> None:
        self.player = player

    def _decide(self, state: State, player: int, options: Sequence[Action] | None = None
                ) -> Action:
        observation = observe(state, player)
        mask = action_mask(state, player, options)
        if self._keep:
            self.seen.append((observation, mask))
        index = ask(self.policy, observation, mask, action_fields)
        return move_of(index, state, player, options)

    def mulligan(self, state: State, choices: Sequence[int]) -> list[int]:
        player = self.player or owner_of_hand_card(state, choices[0])
        return list(self._decide(state, player).cards)

    def choose(self, state: State, choices: Sequence[int], count_min: int, count_max: int
               ) -> list[int]:
        player = self.player or owner_of_hand_card(state, choices[0])
        return list(self._decide(state, player).cards)

    def act(self, state: State, options: Sequence[Action]) -> Action:
        return self._decide(state, self.player or int(state.current), options)
