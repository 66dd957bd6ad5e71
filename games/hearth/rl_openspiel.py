"""Hearth as a Python OpenSpiel game: `pyspiel.load_game("gauntlet_hearth")`.

Needs `open-spiel` (in the `test` extra; not a dependency of Gauntlet). Importing this
module registers the game. Players 0 and 1 are PlayerID 1 and 2; actions are those of
`games.hearth.rl_encoding`. The first node is a chance node drawing the game seed
(`seeds` outcomes, uniformly: parameter `seeds`, default 64); the game seed fixes
everything random after it (the engine's own seeded RNG: who goes first, the shuffles,
random effects), and both decks are drawn from the ten class decks by it unless the
parameters `deck_1` / `deck_2` name class decks. The mulligan is taken in turn (player 0,
then 1); neither sees the other's. Imperfect information: the information state and
observation tensors are both `rl_encoding.observe(state, player)` as float32, what that
player sees now (not the whole history of it). Returns +1/0/-1; a game that passes the
turn cap (parameter `turn_cap`, default 89) is a draw.

>>> import pyspiel
>>> game = pyspiel.load_game("gauntlet_hearth", {"deck_1": "mage", "deck_2": "warrior"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 64)
>>> state.apply_action(3)
>>> state.current_player(), len(state.legal_actions()) in (8, 16)
(0, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from . import new_game
from .game import State
from .rl_encoding import (
    ACTION_COUNT,
    OBSERVATION_SIZE,
    action_fields,
    legal_actions,
    observe,
)
from .rl_env import TURN_CAP, _deck, class_decks

_RANDOM = ""
GAME_TYPE = pyspiel.GameType(
    short_name="gauntlet_hearth",
    long_name="Hearth (Gauntlet)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"seeds": 64, "deck_1": _RANDOM, "deck_2": _RANDOM,
                             "turn_cap": TURN_CAP},
)
# Per turn at most about 10 cards, 10 hero-power uses... a generous bound: OpenSpiel
# only needs an upper limit.
_MAX_LENGTH = 1 + 2 + TURN_CAP * 60


def _info(seeds: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=ACTION_COUNT,
        max_chance_outcomes=seeds,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=_MAX_LENGTH,
    )


class HearthGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]  # untyped pyspiel
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        seeds = int((params or {}).get("seeds", 64))
        if seeds < 1:
            raise ValueError("seeds must be at least 1")
        super().__init__(GAME_TYPE, _info(seeds), params or {})
        for key in ("deck_1", "deck_2"):  # a bad name fails here, not at the chance node
            if self.get_parameters()[key] != _RANDOM:
                _deck(self.get_parameters()[key])

    # Read from the parameters each time: a pickled game comes back through them, without
    # this object's attributes.
    @property
    def seeds(self) -> int:
        return int(self.get_parameters()["seeds"])

    @property
    def turn_cap(self) -> int:
        return int(self.get_parameters()["turn_cap"])

    @property
    def fixed(self) -> tuple[tuple[str, tuple[str, ...]] | None, ...]:
        p = self.get_parameters()
        return tuple(None if p[k] == _RANDOM else _deck(p[k]) for k in ("deck_1", "deck_2"))

    def new_initial_state(self) -> HearthState:
        return HearthState(self)

    def start(self, seed: int) -> State:
        """The game of game seed `seed`: the decks not fixed are drawn by the seed."""
        rng = np.random.default_rng(seed)
        pool = class_decks()
        picks = rng.integers(len(pool), size=2)
        decks = [fixed if fixed is not None else pool[int(k)]
                 for fixed, k in zip(self.fixed, picks, strict=True)]
        return new_game(seed=seed, decks=decks, turn_cap=self.turn_cap)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(params)


class _Game:
    """The engine state of one OpenSpiel state and the actions that made it. The engine
    holds card scripts (closures) that pickle cannot write, and OpenSpiel serialises a
    Python state by pickling its attributes: this pickles as its actions and replays them
    (the game seed fixes every random draw)."""

    def __init__(self, game: HearthGame) -> None:
        self.game = game
        self.engine: State | None = None
        self.actions: list[int] = []  # the chance outcome, then every action

    def apply(self, action: int) -> None:
        self.actions.append(action)
        if self.engine is None:
            self.engine = self.game.start(action)
            return
        player = self.engine.pending()[0]
        self.engine.apply(legal_actions(self.engine, player)[action], player)

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game, "actions": list(self.actions)}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__init__(saved["game"])  # type: ignore[misc]
        for action in saved["actions"]:
            self.apply(action)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Game:
        twin = _Game(self.game)
        twin.engine = None if self.engine is None else self.engine.clone()
        twin.actions = list(self.actions)
        return twin


class HearthState(pyspiel.State):  # type: ignore[misc, unused-ignore]  # untyped pyspiel
    def __init__(self, game: HearthGame) -> None:
        super().__init__(game)
        self.hearth = game
        self.box = _Game(game)

    @property
    def engine(self) -> State | None:
        """The engine state (None before the chance node)."""
        return self.box.engine

    def current_player(self) -> int:
        engine = self.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.pending()[0] - 1

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return list(legal_actions(self.engine, player + 1))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.hearth.seeds
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        self.box.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"game seed {action}"
        return repr(action_fields(action))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def returns(self) -> list[float]:
        engine = self.engine
        result = None if engine is None else engine.result()
        if result is None or result.winner not in (1, 2):
            return [0.0, 0.0]
        return [1.0, -1.0] if result.winner == 1 else [-1.0, 1.0]

    def __str__(self) -> str:
        return "(game seed not drawn yet)" if self.engine is None else repr(self.engine)


class Observer:
    """`rl_encoding.observe` as OpenSpiel's observer: one player's view, float32."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HearthState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = observe(state.engine, player + 1)

    def string_from(self, state: HearthState, player: int) -> str:
        if state.engine is None:
            return "(game seed not drawn yet)"
        return " ".join(str(int(v)) for v in observe(state.engine, player + 1))


pyspiel.register_game(GAME_TYPE, HearthGame)
