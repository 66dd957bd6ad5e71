"""A policy of the Blokus environments as a bot of the Blokus kit.

>>> from games import blokus
>>> from games.blokus.rl_encoding import SKIP_ACTION
>>> def first_legal(observation, action_mask):
...     return int(action_mask.argmax())
>>> bot = PolicyBot(first_legal, keep=True)
>>> state = blokus.new_game("PENTO_X")
>>> bot.move(state)
SetMove('BLUE', 'PENTO_X', rotation='NONE', flipped=False, x=0, y=0)
>>> observation, mask = bot.seen[0]            # what it was shown
>>> observation.shape, int(mask.sum())
((1719,), 68)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bots.blokus.kit import Bot
from bots.policy import Policy, ask, policy_name
from games.blokus import Move, State
from games.blokus.rl_encoding import action_fields, action_mask, move_of, observe

__all__ = ["PolicyBot"]


class PolicyBot(Bot):
    """Plays `policy(observation, action_mask)`: the observation of the team to move
    (`games.blokus.rl_encoding.observe`, as `env.observe(agent)["observation"]`) and the
    mask of the colour to move. `seen` keeps every (observation, mask) it was shown, when
    `keep` is set (tests)."""

    def __init__(self, policy: Policy, keep: bool = False) -> None:
        self.policy = policy
        self.label = policy_name(policy)
        self.seen: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]] = []
        self._keep = keep

    @property
    def name(self) -> str:
        return self.label

    def move(self, state: State) -> Move:
        observation = observe(state, state.current_team)
        mask = action_mask(state)
        if self._keep:
            self.seen.append((observation, mask))
        index = ask(self.policy, observation, mask, action_fields)
        return move_of(index, state)

