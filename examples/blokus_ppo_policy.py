"""The model `train_blokus_ppo.py` saved, as a policy the server plays.

`policy(observation, action_mask) -> action` is what `gauntlet bot blokus --policy
examples/blokus_ppo_policy.py:policy` and a bot registered with
`"bot": "/abs/path/examples/blokus_ppo_policy.py:policy"` call at every move. The model is
loaded once per process, from `GAUNTLET_BLOKUS_MODEL` or `blokus_ppo.zip` beside this file.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


@functools.cache
def _model() -> Any:
    from sb3_contrib import MaskablePPO

    path = os.environ.get("GAUNTLET_BLOKUS_MODEL") or Path(__file__).with_name("blokus_ppo.zip")
    return MaskablePPO.load(path, device="cpu")


def policy(observation: npt.NDArray[np.uint8], action_mask: npt.NDArray[np.int8]) -> int:
    action, _ = _model().predict(observation, action_masks=action_mask.astype(bool),
                                 deterministic=True)
    return int(action)
