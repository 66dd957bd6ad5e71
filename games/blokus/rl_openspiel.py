"""SC 2027 Blokus as a Python OpenSpiel game: `pyspiel.load_game("gauntlet_blokus")`.

Needs `open-spiel` (in the `test` extra; not a dependency of Gauntlet). Importing this
module registers the game. Players are the teams (0 = ONE: BLUE and RED, 1 = TWO: YELLOW
and GREEN); actions are those of `games.blokus.rl_encoding`; the first node is a chance
node drawing the start piece (the 12 pentominoes, uniformly) unless the game parameter
`start_piece` names one. Returns are +1/0/-1 at the end; the observation tensor is
`rl_encoding.observe` as float32.

>>> import pyspiel
>>> game = pyspiel.load_game("gauntlet_blokus", {"start_piece": "PENTO_X"})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 68)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from games.blokus.rl_encoding import (
    ACTION_COUNT,
    OBSERVATION_SIZE,
    legal_actions,
    move_of,
    observe,
)
from games.blokus.shapes import PENTOMINOES, TEAMS
from games.blokus.state import TURN_LIMIT, State, new_game

_NO_START = ""
GAME_TYPE = pyspiel.GameType(
    short_name="gauntlet_blokus",
    long_name="Software-Challenge 2027 Blokus (Gauntlet)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"start_piece": _NO_START},
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=ACTION_COUNT,
    max_chance_outcomes=len(PENTOMINOES),
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    # One decision per colour slot; the chance node adds one.
    max_game_length=TURN_LIMIT + 1,
)


class BlokusGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]  # untyped pyspiel
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})
        start = self.get_parameters()["start_piece"]
        if start != _NO_START and start not in PENTOMINOES:
            raise ValueError(f"start_piece must be a pentomino, not {start!r}")
        self.start_piece: str | None = start or None

    def new_initial_state(self) -> BlokusState:
        return BlokusState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(params)


class BlokusState(pyspiel.State):  # type: ignore[misc, unused-ignore]  # untyped pyspiel
    def __init__(self, game: BlokusGame) -> None:
        super().__init__(game)
        self.engine: State | None = (
            None if game.start_piece is None else new_game(start_piece=game.start_piece))

    def current_player(self) -> int:
        engine = self.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return engine._turn % 2

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return legal_actions(self.engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1.0 / len(PENTOMINOES)) for i in range(len(PENTOMINOES))]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.engine = new_game(start_piece=PENTOMINOES[action])
            return
        self.engine.apply(move_of(action, self.engine))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"start piece {PENTOMINOES[action]}"
        assert self.engine is not None
        return repr(move_of(action, self.engine))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def returns(self) -> list[float]:
        engine = self.engine
        if engine is None or not engine.is_over:
            return [0.0, 0.0]
        one, two = (engine.team_points(team) for team in TEAMS)
        if one == two:
            return [0.0, 0.0]
        return [1.0, -1.0] if one > two else [-1.0, 1.0]

    def __str__(self) -> str:
        if self.engine is None:
            return "(start piece not drawn yet)"
        return self.engine.board_text()


class Observer:
    """`rl_encoding.observe` as OpenSpiel's observer (a flat float32 tensor)."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BlokusState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = observe(state.engine, TEAMS[player])

    def string_from(self, state: BlokusState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, BlokusGame)
