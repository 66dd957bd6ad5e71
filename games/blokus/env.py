"""Learning environments on the Blokus engine: PettingZoo AEC and Gymnasium (docs/rl.md).

The same `games.blokus.State` the server plays, with the numbers of
`games.blokus.rl_encoding` (actions, masks and observations any bot can rebuild from a
state):

- `raw_env()` / `env()`: PettingZoo's AEC environment, the two teams as its agents
  (`team_1` = ONE, BLUE and RED; `team_2` = TWO, YELLOW and GREEN). A team decides for
  both its colours; the observation says which colour moves. An illegal index raises
  `IllegalAction` (a ValueError with the reason) and changes nothing. `env()` is wrapped
  in PettingZoo's `OrderEnforcingWrapper`. There is no `parallel_env()`: nobody in Blokus
  ever decides at the same time as somebody else.
- `BlokusEnv`: a Gymnasium environment that plays one team against an opponent (a bundled
  bot by name, a bot object with `move(state)`, or any `policy(observation, action_mask)`).
  An illegal index is answered with `illegal_reward`, no move and `info["illegal"]`, never
  an exception. Registered as `gauntlet/Blokus-v0`.

Seeds: `reset(seed=s)` plays the game a server room plays with game seed s (the same start
piece: `games.blokus.new_game(seed=s)`), and the same actions give the same game.

>>> e = raw_env()
>>> e.reset(seed=7)
>>> e.agent_selection, e.state.current_color, e.state.start_piece
('team_1', 'BLUE', 'PENTO_I')
>>> obs = e.observe("team_1")
>>> sorted(obs), int(obs["action_mask"].sum())
(['action_mask', 'observation'], 136)
>>> try:
...     e.step(SKIP_ACTION)
... except IllegalAction as error:
...     print(error.mistake.name, error.agent, error.color)
SKIP_FIRST_TURN team_1 BLUE
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from games.blokus.errors import IllegalMove, Mistake
from games.blokus.moves import Move
from games.blokus.rl_encoding import (
    ACTION_COUNT,
    AGENTS,
    OBSERVATION_SIZE,
    SKIP_ACTION,
    action_mask,
    check_action,
    move_of,
    observation_high,
    observe,
)
from games.blokus.shapes import TEAMS
from games.blokus.state import ALL_SHAPES, State, new_game
from games.rl_common import opponent as opponent_of
from games.rl_common import render

ENV_ID: Final = "gauntlet/Blokus-v0"
REWARDS: Final = ("win", "score")

Observation = dict[str, npt.NDArray[Any]]
Policy = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.int8]], int]


class IllegalAction(ValueError):
    """An action the position does not allow: `.action` (as given), `.agent`, `.color`, and
    `.mistake`, the engine's reason (None when the action is no index at all)."""

    def __init__(self, message: str, action: object, agent: str, color: str,
                 mistake: Mistake | None) -> None:
        super().__init__(message)
        self.action = action
        self.agent = agent
        self.color = color
        self.mistake = mistake


def observation_space() -> spaces.Dict:
    """The observation space of every environment here (one per call: spaces carry an RNG)."""
    return spaces.Dict({
        "observation": spaces.Box(0, observation_high(), (OBSERVATION_SIZE,), np.uint8),
        "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
    })


def action_space() -> spaces.Discrete:
    return spaces.Discrete(ACTION_COUNT)


def _check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def _start(seed: int, options: dict[str, Any] | None) -> State:
    """The game of seed `seed`, or of the start piece `options["start_piece"]` if given."""
    start_piece = (options or {}).get("start_piece")
    return new_game(start_piece=start_piece, seed=seed if start_piece is None else None)


def _refusal(state: State, index: int, agent: str) -> IllegalAction:
    """Why `index` is illegal now, in the engine's words."""
    color = state.current_color
    move = move_of(index, state)
    try:
        state.validate(move)
    except IllegalMove as error:
        return IllegalAction(f"action {index} ({move!r}) is illegal for {agent} ({color}): "
                             f"{error.mistake.name}, {error.text}",
                             index, agent, color, error.mistake)
    raise AssertionError(f"{move!r} is legal but not in the mask")  # the engine disagrees


def _outcome(state: State) -> tuple[float, float]:
    """+1/0/-1 per team from the final points."""
    one, two = (state.team_points(team) for team in TEAMS)
    return (0.0, 0.0) if one == two else ((1.0, -1.0) if one > two else (-1.0, 1.0))


def _difference(state: State) -> int:
    """Team ONE's points minus team TWO's."""
    return state.team_points("ONE") - state.team_points("TWO")


# -- PettingZoo ---------------------------------------------------------------------------


class BlokusAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]  # untyped PettingZoo
    """Software-Challenge 2027 Blokus as a PettingZoo AEC environment (docs/rl.md).

    `reward="win"`: +1/0/-1 per team when the game ends. `reward="score"`: after every
    move each team gets the change of its points minus the other team's, so that a game's
    rewards add up to the final point difference (the Software-Challenge game points).
    `env.state` is the engine state (read it; change it only through `step`).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's class attribute
        "name": "gauntlet_blokus_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, reward: str = "win") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.reward_mode = _check_reward(reward)
        self.possible_agents: list[str] = list(AGENTS)
        self.observation_spaces = {agent: observation_space() for agent in AGENTS}
        self.action_spaces = {agent: action_space() for agent in AGENTS}
        self._rng = np.random.default_rng()
        self.state = new_game(seed=0)
        self._mask = np.zeros(ACTION_COUNT, np.int8)
        self._public_mask = self._mask

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: that of server game seed `seed`; without one, the next seed drawn from
        the last seeded one (or from fresh entropy). `options={"start_piece": "PENTO_X"}`
        picks the start piece instead; other options are ignored."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._rng.integers(2**63))
        self.state = _start(game_seed, options)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        """After a move: who decides now, the mask, and that agent's info."""
        state = self.state
        self.agent_selection = AGENTS[state._turn % 2]
        self._mask = action_mask(state)
        self._public_mask = self._mask.copy()
        other = AGENTS[1 - state._turn % 2]
        self.infos[other] = {}
        self.infos[self.agent_selection] = {
            "action_mask": self._public_mask, "color": state.current_color}

    def observe(self, agent: str) -> Observation:
        """The observation of `agent`; the mask is all 0 when it is not `agent`'s move."""
        state = self.state
        mine = agent == self.agent_selection and not state.is_over
        return {
            "observation": observe(state, agent),
            "action_mask": self._public_mask if mine else np.zeros(ACTION_COUNT, np.int8),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        try:
            index = check_action(action)
        except ValueError as error:
            raise IllegalAction(f"{error} (for {agent}, {state.current_color} to move)",
                                action, agent, state.current_color, None) from None
        if not self._mask[index]:
            raise _refusal(state, index, agent)
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for name in AGENTS:
            rewards[name] = 0.0
        before = _difference(state) if self.reward_mode == "score" else 0
        state.push(move_of(index, state))
        if self.reward_mode == "score":
            change = float(_difference(state) - before)
            rewards[AGENTS[0]], rewards[AGENTS[1]] = change, -change
        if state.is_over:
            if self.reward_mode == "win":
                rewards[AGENTS[0]], rewards[AGENTS[1]] = _outcome(state)
            points = {team: state.team_points(team) for team in TEAMS}
            for name in AGENTS:
                self.terminations[name] = True
                self.infos[name] = {"points": dict(points)}
            self._mask = np.zeros(ACTION_COUNT, np.int8)
            self._public_mask = self._mask
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as text (`ansi`), or printed (`human`)."""
        return render(self.render_mode, lambda: _board_text(self.state))

    def close(self) -> None:
        pass



def _board_text(state: State) -> str:
    points = ", ".join(f"{team} {state.team_points(team)}" for team in TEAMS)
    status = "over" if state.is_over else f"{state.current_color} to move"
    return f"{state.board_text()}\nround {state.round}, {status}; points {points}\n"


def raw_env(render_mode: str | None = None, reward: str = "win") -> BlokusAECEnv:
    """The AEC environment without wrappers."""
    return BlokusAECEnv(render_mode=render_mode, reward=reward)


def env(render_mode: str | None = None, reward: str = "win") -> Any:
    """The AEC environment in PettingZoo's `OrderEnforcingWrapper` (reset first, and so on).

    Not in `AssertOutOfBoundsWrapper` (an AssertionError without a reason, gone under
    `python -O`): the environment refuses an out-of-range index itself, with IllegalAction.
    Not in `TerminateIllegalWrapper` either: an illegal index is refused, the game goes on.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(render_mode=render_mode, reward=reward))


# -- Gymnasium ----------------------------------------------------------------------------


class Bot(Protocol):
    """What the opponent of `BlokusEnv` may be, besides a policy: any `move(state)` bot
    (the interface of `bots.blokus.Bot`: a private copy of the state in, a Move out)."""

    def move(self, state: State) -> Move: ...


# Bundled opponents by name. `random` is built in; the others are the bundled bots of
# `bots.blokus`, loaded only when asked for (games/ itself never imports bots/).
BUNDLED_OPPONENTS: Final = {
    "random": None,
    "greedy": "bots.blokus.bundled:GreedyBot",
}



class BlokusEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One team of Software-Challenge 2027 Blokus against an opponent, for Gymnasium.

    - `opponent`: `"random"` (uniform over the legal moves, the pass included, drawn from
      the environment's seeded RNG), `"greedy"` or another bundled bot's name, a
      `"module:Class"` bot name, a bot class (made anew each episode with a seed drawn from
      the environment's RNG), a bot object with `move(state) -> Move` (used as it is), or a
      `policy(observation, action_mask) -> action` on the opponent's own observation.
    - `team`: `"ONE"` (BLUE and RED, moves first), `"TWO"` or `"random"` (drawn each
      episode from the environment's RNG).
    - `reward`: `"win"` (+1/0/-1 at the end) or `"score"` (after each step the change of the
      team's points minus the opponent's: an episode adds up to the final difference).
    - `illegal_reward`: the reward of an illegal index, which plays no move.

    An opponent that answers with an illegal move raises (IllegalAction or the engine's
    IllegalMove): that is a bug of the opponent, not a state of the game.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # Gymnasium's class attribute
        "render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        opponent: Any = "random",
        team: str = "ONE",
        reward: str = "win",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if team not in ("ONE", "TWO", "random"):
            raise ValueError(f"team must be ONE, TWO or random, not {team!r}")
        self.render_mode = render_mode
        self.team_choice = team
        self.reward_mode = _check_reward(reward)
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_space()
        self.action_space = action_space()
        found = opponent_of(opponent, BUNDLED_OPPONENTS, "move")
        self._policy: Policy | None = found.policy
        self._bot: Bot | None = found.bot
        self._factory: Callable[[int], Bot] | None = found.factory
        self.state = new_game(seed=0)
        self.team = 0
        self._mask = np.zeros(ACTION_COUNT, np.int8)
        self._difference = 0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """A new game: server game seed `seed`, or the next seed drawn from the environment's
        RNG; `options={"start_piece": ...}` picks the start piece instead."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = seed if seed is not None else int(rng.integers(2**63))
        self.state = _start(game_seed, options)
        if self.team_choice == "random":
            self.team = int(rng.integers(2))
        else:
            self.team = TEAMS.index(self.team_choice)
        if self._factory is not None:
            self._bot = self._factory(int(rng.integers(2**63)))
        self._difference = 0
        self._play_opponent()
        return self._observation(), self._info(False)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal indices now as booleans: the method sb3-contrib's `MaskablePPO` calls
        (`info["action_mask"]` holds the same, as 0/1 int8)."""
        return self._mask.astype(bool)

    def _observation(self) -> Observation:
        return {"observation": observe(self.state, AGENTS[self.team]),
                "action_mask": self._mask.copy()}

    def _info(self, illegal: bool, reason: str | None = None) -> dict[str, Any]:
        state = self.state
        info: dict[str, Any] = {"action_mask": self._mask.copy(), "illegal": illegal,
                                "color": state.current_color}
        if reason is not None:
            info["reason"] = reason
        if state.is_over:
            info["points"] = {team: state.team_points(team) for team in TEAMS}
        return info

    def _play_opponent(self) -> None:
        """The opponent's moves until it is our team's turn or the game is over; the mask."""
        state = self.state
        while not state.is_over and state._turn % 2 != self.team:
            if self._policy is not None:
                other = AGENTS[1 - self.team]
                mask = action_mask(state)
                index = check_action(self._policy(observe(state, other), mask))
                if not mask[index]:
                    raise _refusal(state, index, f"the opponent {other}")
                state.push(move_of(index, state))
            elif self._bot is not None:
                state.apply(self._bot.move(state.clone()))
            else:
                self._random_move()
        self._mask = (np.zeros(ACTION_COUNT, np.int8) if state.is_over
                      else action_mask(state))

    def _random_move(self) -> None:
        state = self.state
        color = state._turn % 4
        pids = state._placement_ids(color)
        first = state._undeployed[color] == ALL_SHAPES
        pick = int(self.np_random.integers(len(pids) + (0 if first else 1)))
        state.push(move_of(pids[pick] if pick < len(pids) else SKIP_ACTION, state))

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state.is_over:
            return (self._observation(), 0.0, True, False,
                    self._info(True, "the game is over: call reset()"))
        try:
            index = check_action(action)
        except ValueError as error:
            return (self._observation(), self.illegal_reward, False, False,
                    self._info(True, str(error)))
        if not self._mask[index]:
            reason = str(_refusal(state, index, AGENTS[self.team]))
            return (self._observation(), self.illegal_reward, False, False,
                    self._info(True, reason))
        state.push(move_of(index, state))
        self._play_opponent()
        sign = 1 if self.team == 0 else -1
        reward = 0.0
        if self.reward_mode == "score":
            difference = _difference(state)
            reward = float(sign * (difference - self._difference))
            self._difference = difference
        elif state.is_over:
            reward = _outcome(state)[self.team]
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, state.is_over, False, self._info(False)

    def render(self) -> str | None:
        """The board as text (`ansi`), or printed (`human`)."""
        return render(self.render_mode, lambda: _board_text(self.state))


def register_envs() -> None:
    """Register `gauntlet/Blokus-v0` and `gauntlet/Hearth-v0` with Gymnasium (idempotent;
    done on import; Hearth's by its entry point string, so nothing of it is imported).

    Also the `gymnasium.envs` entry point of the package: Gymnasium 0.26-0.29 call it
    inside the entry point's namespace (`gauntlet`); Gymnasium 1.x loads no entry points,
    so there `import games.blokus.env` or `gymnasium.make("games.blokus.env:gauntlet/Blokus-v0")`
    registers it (docs/rl.md).
    """
    registration = gymnasium.envs.registration
    name = "Blokus-v0" if registration.current_namespace is not None else ENV_ID
    full = name if registration.current_namespace is None else \
        f"{registration.current_namespace}/{name}"
    if full not in gymnasium.registry:
        gymnasium.register(id=name, entry_point=f"{__name__}:BlokusEnv")
    # The package's one entry point registers Hearth's environment too, by name: nothing
    # of the Hearth engine is imported until gymnasium.make asks for it.
    hearth = "Hearth-v0" if registration.current_namespace is not None else "gauntlet/Hearth-v0"
    hearth_full = hearth if registration.current_namespace is None else \
        f"{registration.current_namespace}/{hearth}"
    if hearth_full not in gymnasium.registry:
        gymnasium.register(id=hearth, entry_point="games.hearth.rl_env:HearthGymEnv")


register_envs()

__all__ = [
    "BUNDLED_OPPONENTS",
    "ENV_ID",
    "REWARDS",
    "BlokusAECEnv",
    "BlokusEnv",
    "Bot",
    "IllegalAction",
    "Policy",
    "action_space",
    "env",
    "observation_space",
    "raw_env",
    "register_envs",
]
