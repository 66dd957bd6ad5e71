"""Many Blokus games stepped at once in one process, for self-play (docs/rl.md).

`BatchedBlokusEnv(n)` holds n games. Every call takes or gives one row per game: numpy
arrays of observations, masks, rewards, and the legal actions as a flat list with offsets
(so that a policy can sample or score only the legal actions without scanning 30,434
mask entries per game). Both teams are played by the caller: `team[i]` says which team
moves in game i, and the observation of row i is that team's (`rl_encoding.observe`).
A finished game is replaced by a new one in the same step (auto-reset); its final points
are in `info["final_points"]` and its rewards in that step's `rewards`.

>>> import numpy as np
>>> batch = BatchedBlokusEnv(3, seed=10)
>>> step = batch.reset()
>>> step.observations.shape, step.action_masks.shape, step.team.tolist()
((3, 1719), (3, 30434), [0, 0, 0])
>>> rng = np.random.default_rng(0)
>>> step = batch.step(batch.sample(rng))
>>> step.team.tolist(), step.rewards.shape
([1, 1, 1], (3, 2))
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from games.blokus.rl_encoding import (
    ACTION_COUNT,
    SKIP_ACTION,
    check_action,
    move_of,
    observe_many,
    team_points,
)
from games.blokus.state import ALL_SHAPES, State, new_game


@dataclass
class BatchStep:
    """One row per game. `rewards[i, t]` is team t's reward in game i for this step."""

    observations: npt.NDArray[np.uint8]
    action_masks: npt.NDArray[np.int8] | None
    legal_actions: npt.NDArray[np.int32]
    legal_offsets: npt.NDArray[np.int64]
    team: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    info: dict[str, Any] = field(default_factory=dict)

    def legal(self, game: int) -> npt.NDArray[np.int32]:
        """The legal actions of game `game`, increasing (the skip last when allowed)."""
        return self.legal_actions[self.legal_offsets[game]:self.legal_offsets[game + 1]]


def _difference(state: State) -> int:
    one, two = team_points(state)
    return one - two


class BatchedBlokusEnv:
    """`num_envs` games of self-play; games are seeded seed, seed + 1, ... as they start.

    `reward="win"`: +1/0/-1 per team when a game ends; `"score"`: each move's change of
    each team's points minus the other's. `masks=False` leaves `action_masks` out (None):
    the legal action lists say the same for far less memory.
    """

    def __init__(self, num_envs: int, seed: int = 0, reward: str = "win",
                 masks: bool = True) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be win or score, not {reward!r}")
        self.num_envs = num_envs
        self.reward_mode = reward
        self.masks = masks
        self.seed = seed
        self._next_seed = seed
        self.states: list[State] = []
        self._legal: list[list[int]] = []

    def _new_game(self) -> State:
        state = new_game(seed=self._next_seed)
        self._next_seed += 1
        return state

    def reset(self, seed: int | None = None) -> BatchStep:
        """Start `num_envs` new games (seeded from `seed`, or from where the seeds were)."""
        if seed is not None:
            self._next_seed = self.seed = seed
        self.states = [self._new_game() for _ in range(self.num_envs)]
        rewards = np.zeros((self.num_envs, 2), np.float32)
        return self._answer(rewards, np.zeros(self.num_envs, np.bool_), {})

    def _answer(self, rewards: npt.NDArray[np.float32], terminated: npt.NDArray[np.bool_],
                info: dict[str, Any]) -> BatchStep:
        n = self.num_envs
        states = self.states
        lists: list[list[int]] = []
        teams: list[int] = []
        for state in states:
            turn = state._turn
            color = turn % 4
            pids = state._placement_ids(color)
            pids.sort()
            if state._undeployed[color] != ALL_SHAPES:
                pids.append(SKIP_ACTION)
            lists.append(pids)
            teams.append(turn % 2)
        self._legal = lists
        counts = np.fromiter(map(len, lists), np.int64, n)
        offsets = np.zeros(n + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        flat = np.array(list(chain.from_iterable(lists)), np.int32)
        masks = None
        if self.masks:
            masks = np.zeros((n, ACTION_COUNT), np.int8)
            masks[np.repeat(np.arange(n), counts), flat] = 1
        return BatchStep(observe_many(states, teams), masks, flat, offsets,
                         np.array(teams, np.int8), rewards, terminated, info)

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (for random play and benchmarks)."""
        lists = self._legal
        picks = rng.random(self.num_envs)
        return np.array([pids[int(p * len(pids))] for p, pids in zip(picks, lists, strict=True)],
                        np.int64)

    def step(self, actions: Any) -> BatchStep:
        """Play `actions[i]` in game i. ValueError if any is illegal, and then nothing moves."""
        if len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(actions)}")
        indices = []
        for i, (action, legal) in enumerate(zip(actions, self._legal, strict=True)):
            try:
                index = check_action(action)
            except ValueError as error:
                raise ValueError(f"game {i}: {error}; no game moved") from None
            # The legal lists are sorted: a binary search instead of a set per game.
            at = bisect_left(legal, index)
            if at >= len(legal) or legal[at] != index:
                move = move_of(index, self.states[i])
                raise ValueError(f"game {i}: action {index} ({move!r}) is illegal now; "
                                 "no game moved")
            indices.append(index)
        n = self.num_envs
        rewards = np.zeros((n, 2), np.float32)
        terminated = np.zeros(n, np.bool_)
        final_points = np.zeros((n, 2), np.int16)
        score = self.reward_mode == "score"
        for i, index in enumerate(indices):
            state = self.states[i]
            if score:
                before = _difference(state)
                state.push(move_of(index, state))
                change = _difference(state) - before
                rewards[i] = (change, -change)
            else:
                state.push(move_of(index, state))
            if state.is_over:
                one, two = state.team_points("ONE"), state.team_points("TWO")
                terminated[i] = True
                final_points[i] = (one, two)
                if not score:
                    rewards[i] = (0, 0) if one == two else ((1, -1) if one > two else (-1, 1))
                self.states[i] = self._new_game()
        return self._answer(rewards, terminated, {"final_points": final_points})


__all__ = ["BatchStep", "BatchedBlokusEnv"]
