"""Train sb3-contrib's MaskablePPO on Software-Challenge Blokus against the random bot.

    pip install -e '.[train]'                     # sb3-contrib (and PyTorch)
    python examples/train_blokus_ppo.py --steps 20000 --out examples/blokus_ppo.zip

A few minutes on a CPU. The model plays on the server as it is, through
`examples/blokus_ppo_policy.py` (docs/rl.md, "From training to the ladder"):

    gauntlet bot blokus --policy examples/blokus_ppo_policy.py:policy -r CODE

The environment is `games.blokus.env.BlokusEnv`, the one `gymnasium.make("gauntlet/Blokus-v0")`
makes; the network sees the observation only (the mask goes to MaskablePPO through
`action_masks()`, as its masked sampling expects).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from games.blokus.env import BlokusEnv


class ObservationOnly(gymnasium.ObservationWrapper[Any, Any, Any]):
    """The flat observation array of the Dict observation; the mask stays reachable."""

    def __init__(self, env: BlokusEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation["observation"]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        inner: BlokusEnv = self.env.unwrapped  # type: ignore[assignment]
        return inner.action_masks()


def make_env(opponent: str = "random", reward: str = "score") -> ObservationOnly:
    """One team against `opponent`, rewarded by the point difference as the game goes
    (denser than win/loss for a short run)."""
    return ObservationOnly(BlokusEnv(opponent=opponent, team="random", reward=reward))


def train(steps: int, out: Path, seed: int = 0) -> Path:
    """Train for `steps` environment steps and save the model to `out` (a .zip)."""
    from sb3_contrib import MaskablePPO

    env = make_env()
    env.reset(seed=seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=min(512, max(steps, 16)), batch_size=64,
                        seed=seed, verbose=0)
    model.learn(total_timesteps=steps)
    model.save(out)
    return out if out.suffix == ".zip" else out.with_name(out.name + ".zip")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="environment steps")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("blokus_ppo.zip"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"saved {train(args.steps, args.out, args.seed)}")


if __name__ == "__main__":
    main()
