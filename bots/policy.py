"""A trained policy as a bot: ``policy(observation, action_mask) -> action``.

The learning environments (`games.blokus.env`, `games.hearth.rl_env`) show an agent a numpy
observation and a 0/1 mask over a fixed action space. A function with that signature,
the way a trained model is called (``model.predict(obs, action_masks=mask)[0]``), plays on
the server as it is: `bots.blokus.policy.PolicyBot` and `bots.hearth.policy.PolicyBot` build
the observation and the mask from the state the bot kit rebuilds from the protocol, with
the very functions the environments use, and turn the index back into the protocol's move.

Wherever a bot spec is taken (`gauntlet bot`, `gauntlet play`, `POST /api/bots` with
``"bot"``, the ladder), ``module:function`` or ``file.py:function`` naming a function (not a
`Bot` class) is such a policy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

import numpy as np
import numpy.typing as npt

__all__ = ["Policy", "PolicyError", "ask", "is_policy", "policy_name"]

Policy = Callable[[npt.NDArray[Any], npt.NDArray[np.int8]], Any]
"""``policy(observation, action_mask) -> action index`` (an int or a numpy integer)."""


class PolicyError(ValueError):
    """The policy answered something that is not a legal action index."""


def is_policy(thing: object) -> TypeGuard[Policy]:
    """A plain function (or any callable that is not a class): a policy, not a bot class."""
    return callable(thing) and not isinstance(thing, type)


def policy_name(policy: Policy) -> str:
    """``module:function`` of a policy, for the bot's name."""
    name = getattr(policy, "__qualname__", None) or type(policy).__name__
    module = getattr(policy, "__module__", None)
    return f"{module}:{name}" if module and not module.startswith("_gauntlet_") else name


def ask(policy: Policy, observation: npt.NDArray[Any], mask: npt.NDArray[np.int8],
        describe: Callable[[int], object]) -> int:
    """The policy's index for this observation, checked against the mask.

    The policy gets copies, so one that keeps or changes its arrays cannot change the bot's.
    PolicyError names the answer and, for an index in range, what it means (`describe`).
    """
    answer = policy(observation.copy(), mask.copy())
    if isinstance(answer, np.ndarray) and answer.size == 1:
        answer = answer.reshape(()).item()  # MaskablePPO's predict gives a 0-d array
    if isinstance(answer, bool) or not isinstance(answer, int | np.integer):
        raise PolicyError(f"the policy returned {answer!r}, not an action index (an int)")
    index = int(answer)
    if not 0 <= index < mask.shape[0]:
        raise PolicyError(f"the policy returned {index}, outside the action space "
                          f"0..{mask.shape[0] - 1}")
    if not mask[index]:
        raise PolicyError(f"the policy returned {index} ({describe(index)}), which the mask "
                          f"forbids: {int(mask.sum())} actions are legal")
    return index
