"""A Gymnasium-style wrapper (no gymnasium dependency): ``reset(seed)`` / ``step(action)``.

Both seats are driven through the same object; ``info["to_move"]`` says whose decision it
is and ``info["legal_actions"]`` lists the choices. The reward is from player 1's point of
view (+1 win, -1 loss, 0 draw or running).

>>> env = HearthEnv()
>>> obs, info = env.reset(seed=5)
>>> obs, reward, terminated, truncated, info = env.step(info["legal_actions"][0])
>>> terminated
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import new_game
from .actions import Action
from .game import State


class HearthEnv:
    def __init__(
        self,
        decks: Sequence[tuple[str, Sequence[str]]] | None = None,
        turn_cap: int | None = 89,
    ) -> None:
        self.decks = decks
        self.turn_cap = turn_cap
        self.state: State | None = None

    def _info(self) -> dict[str, Any]:
        s = self.state
        assert s is not None
        pending = s.pending()
        to_move = pending[0] if pending else 0
        return {
            "to_move": to_move,
            "pending": pending,
            "legal_actions": s.legal_actions(to_move) if to_move else [],
        }

    def reset(self, seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
        self.state = new_game(seed=seed, decks=self.decks, turn_cap=self.turn_cap)
        info = self._info()
        return self.state.observation(info["to_move"] or 1), info

    def step(self, action: Action) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        s = self.state
        if s is None:
            raise RuntimeError("call reset() first")
        s.apply(action)
        info = self._info()
        reward = 0.0
        truncated = False
        if s.over:
            r = s.result()
            assert r is not None
            reward = 1.0 if r.winner == 1 else -1.0 if r.winner == 2 else 0.0
            truncated = r.reason == "turn cap"
        terminated = s.over and not truncated
        return s.observation(info["to_move"] or 1), reward, terminated, truncated, info

    def clone(self) -> HearthEnv:
        env = HearthEnv(self.decks, self.turn_cap)
        env.state = None if self.state is None else self.state.clone()
        return env
