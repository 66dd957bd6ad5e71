"""Learning environments on the Hearth engine: PettingZoo AEC and Parallel, Gymnasium
(docs/rl.md, "Hearth").

The same `games.hearth.State` the server plays, with the numbers of
`games.hearth.rl_encoding` (actions, masks and observations built from one player's view
only, so a bot on the server computes the same ones):

- `raw_env()` / `env()`: PettingZoo's AEC environment, agents `player_1` and `player_2`
  (PlayerID 1 and 2; who goes first is the game seed's draw). The mulligan is taken in
  turn, `player_1` first: neither sees the other's. An illegal index raises
  `IllegalAction` (a ValueError with the reason) and changes nothing.
- `parallel_env()`: PettingZoo's Parallel environment. Its first step is the mulligan of
  both players at once; after it the game goes on turn by turn: every step takes the
  action of the one agent that decides now (its mask is the only one not all 0) and
  ignores the others' (send anything; PettingZoo's checker sends 0).
- `HearthGymEnv`: Gymnasium, one seat against an opponent (a bundled bot by name, a bot
  object, or any `policy(observation, action_mask)`), registered as `gauntlet/Hearth-v0`.
  An illegal index is answered with `illegal_reward`, no move and `info["illegal"]`.

Decks: by default each game draws both decks (independently, from the environment's RNG)
from the ten class decks of `games.hearth.decks`; `decks=` gives another pool, and
`reset(options={"decks": (deck_1, deck_2)})` fixes one game's. A deck is a class deck
name, a `Deck` or `(hero id, [30 card ids])`.

Rewards +1/0/-1 at the end. A game that passes `turn_cap` (default 89, the game's own
limit: a draw) is truncated: reward 0, `truncations` True.

>>> e = raw_env()
>>> e.reset(seed=7)
>>> e.agent_selection, sorted(e.observe("player_1"))
('player_1', ['action_mask', 'observation'])
>>> try:
...     e.step(0)                      # END_TURN during the mulligan
... except IllegalAction as error:
...     print(error.agent, error.action)
player_1 0
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from ..rl_common import opponent as opponent_of
from ..rl_common import render
from . import new_game
from .actions import Action, Kind
from .game import State
from .rl_encoding import (
    ACTION_COUNT,
    AGENTS,
    CHOOSE_KIND,
    OBSERVATION_SIZE,
    IllegalActionIndex,
    action_fields,
    action_mask,
    check_action,
    legal_actions,
    observation_bounds,
    observe,
)

ENV_ID: Final = "gauntlet/Hearth-v0"
TURN_CAP: Final = 89

Observation = dict[str, npt.NDArray[Any]]
Policy = Callable[[npt.NDArray[np.int32], npt.NDArray[np.int8]], int]
DeckSpec = Any  # a class deck name, a games.hearth.decks.Deck or (hero id, [card ids])


class IllegalAction(ValueError):
    """An index the agent may not play now; the state is unchanged. `.agent`, `.action`."""

    def __init__(self, message: str, action: object, agent: str) -> None:
        super().__init__(message)
        self.action = action
        self.agent = agent


def observation_space() -> spaces.Dict:
    """A new Dict space: `observation` (OBSERVATION_SIZE int32) and `action_mask`."""
    low, high = observation_bounds()
    return spaces.Dict({
        "observation": spaces.Box(low, high, (OBSERVATION_SIZE,), np.int32),
        "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
    })


def action_space() -> spaces.Discrete:
    return spaces.Discrete(ACTION_COUNT)


def _deck(spec: DeckSpec) -> tuple[str, tuple[str, ...]]:
    from .decks import Deck, named

    if isinstance(spec, str):
        spec = named(spec)
    if isinstance(spec, Deck):
        return spec.hero, spec.ids
    hero, ids = spec
    return str(hero), tuple(ids)


@functools.cache
def class_decks() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ten class decks, in `games.hearth.decks.class_decks()` order."""
    from .decks import class_decks as decks

    return tuple(_deck(name) for name in decks())


class _Games:
    """Seeds and decks shared by the environments: the same seed, the same game."""

    def __init__(self, decks: Sequence[DeckSpec] | None, turn_cap: int | None) -> None:
        self.pool = class_decks() if decks is None else tuple(_deck(d) for d in decks)
        if not self.pool:
            raise ValueError("decks: give at least one deck")
        self.turn_cap = turn_cap
        self.rng = np.random.default_rng()

    def start(self, seed: int | None, options: Mapping[str, Any] | None) -> State:
        """`seed`: reseed the RNG with it and play game seed `seed`; else draw the next
        game seed from the RNG. Then the decks (see `make`)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            return self.make(int(seed), options)
        return self.make(int(self.rng.integers(2**63)), options)

    def make(self, game_seed: int, options: Mapping[str, Any] | None) -> State:
        """Game seed `game_seed` with both decks drawn from the pool by the RNG (drawn also
        when `options["decks"]` fixes them, so that the RNG moves on the same way)."""
        picks = self.rng.integers(len(self.pool), size=2)
        decks = [self.pool[int(k)] for k in picks]
        fixed = (options or {}).get("decks")
        if fixed is not None:
            decks = [_deck(d) for d in fixed]
            if len(decks) != 2:
                raise ValueError("options['decks']: two decks, player 1's and player 2's")
        return new_game(seed=game_seed, decks=decks, turn_cap=self.turn_cap)


def _outcome(state: State) -> tuple[float, float, bool]:
    """(player 1's reward, player 2's, truncated) of a finished game."""
    result = state.result()
    assert result is not None
    if result.reason == "turn cap":
        return 0.0, 0.0, True
    if result.winner == 1:
        return 1.0, -1.0, False
    if result.winner == 2:
        return -1.0, 1.0, False
    return 0.0, 0.0, False


def _refusal(state: State, index: int, player: int, agent: str) -> IllegalAction:
    try:
        fields = repr(action_fields(index))
    except IllegalActionIndex:
        fields = "no action"
    pending = state.pending()
    if state.is_over:
        why = "the game is over"
    elif player not in pending:
        why = f"it is not its decision (player {pending[0]} decides)"
    else:
        why = "not among its legal actions now"
    return IllegalAction(f"action {index} ({fields}) is illegal for {agent}: {why}",
                         index, agent)


def _index(action: object, state: State, player: int, agent: str) -> int:
    try:
        return check_action(action)
    except IllegalActionIndex as error:
        raise IllegalAction(f"{error} (for {agent})", action, agent) from None


def _player(agent: str) -> int:
    return AGENTS.index(agent) + 1


# -- PettingZoo AEC ---------------------------------------------------------------------------


class HearthAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]  # untyped PettingZoo
    """Hearth as a PettingZoo AEC environment (docs/rl.md). `env.state` is the engine state
    (read it; change it only through `step`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's class attribute
        "name": "gauntlet_hearth_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, decks: Sequence[DeckSpec] | None = None,
                 turn_cap: int | None = TURN_CAP) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._games = _Games(decks, turn_cap)
        self.possible_agents: list[str] = list(AGENTS)
        self.observation_spaces = {agent: observation_space() for agent in AGENTS}
        self.action_spaces = {agent: action_space() for agent in AGENTS}
        self.state = new_game(seed=0)
        self._masks = {agent: np.zeros(ACTION_COUNT, np.int8) for agent in AGENTS}
        self._views: dict[str, dict[str, Any]] = {}
        self._table: dict[int, Action] = {}  # the legal actions of agent_selection

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game of game seed `seed` (else the next seed from the last seeded one);
        `options={"decks": (d1, d2)}` fixes the decks; other options are ignored."""
        self.state = self._games.start(seed, options)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        state = self.state
        pending = state.pending()
        self.agent_selection = AGENTS[pending[0] - 1]
        # The player's view dict, built once per move: the mask and the observation both
        # read it (building it is most of a step's cost).
        self._views = {}
        for agent in AGENTS:
            mine = agent == self.agent_selection
            self._masks[agent] = np.zeros(ACTION_COUNT, np.int8)
            if mine:
                self._table = legal_actions(self._view(agent), _player(agent))
                self._masks[agent][list(self._table)] = 1
            self.infos[agent] = {"action_mask": self._masks[agent].copy()} if mine else {}

    def _view(self, agent: str) -> dict[str, Any]:
        view = self._views.get(agent)
        if view is None:
            view = self._views[agent] = self.state.observation(_player(agent))
        return view

    def observe(self, agent: str) -> Observation:
        """`agent`'s own view; its mask is all 0 when it does not decide now."""
        return {"observation": observe(self._view(agent), _player(agent)),
                "action_mask": self._masks[agent].copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        player = _player(agent)
        index = _index(action, state, player, agent)
        if not self._masks[agent][index]:
            raise _refusal(state, index, player, agent)
        self._cumulative_rewards[agent] = 0.0
        for name in AGENTS:
            self.rewards[name] = 0.0
        state.apply(self._table[index], player)
        if state.is_over:
            one, two, truncated = _outcome(state)
            self.rewards[AGENTS[0]], self.rewards[AGENTS[1]] = one, two
            result = state.result()
            self._views = {}
            for name in AGENTS:
                if truncated:
                    self.truncations[name] = True
                else:
                    self.terminations[name] = True
                self.infos[name] = {"reason": result.reason if result else ""}
                self._masks[name] = np.zeros(ACTION_COUNT, np.int8)
            # the other agent is told first, then the one that ended the game
            self.agent_selection = AGENTS[2 - player]
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.render_mode, lambda: _text(self.state))

    def close(self) -> None:
        pass



def _text(state: State) -> str:
    lines = [repr(state)]
    for p in (1, 2):
        side = state.observation(p)["you"]
        hero = side["hero"]
        board = " ".join(f"{m['card']}({m['atk']}/{m['health']})" for m in side["board"])
        lines.append(f"player {p}: {hero['card']} {hero['health']} hp, "
                     f"{side['mana']}/{side['max_mana']} mana, {side['hand_count']} in hand, "
                     f"board: {board or '-'}")
    return "\n".join(lines)


def raw_env(render_mode: str | None = None, decks: Sequence[DeckSpec] | None = None,
            turn_cap: int | None = TURN_CAP) -> HearthAECEnv:
    """The AEC environment without wrappers."""
    return HearthAECEnv(render_mode=render_mode, decks=decks, turn_cap=turn_cap)


def env(render_mode: str | None = None, decks: Sequence[DeckSpec] | None = None,
        turn_cap: int | None = TURN_CAP) -> Any:
    """The AEC environment in PettingZoo's `OrderEnforcingWrapper`. Not in
    `AssertOutOfBoundsWrapper` nor `TerminateIllegalWrapper`: the environment refuses a bad
    index itself (IllegalAction), and the game goes on."""
    return wrappers.OrderEnforcingWrapper(raw_env(render_mode, decks, turn_cap))


# -- PettingZoo Parallel ------------------------------------------------------------------------


class HearthParallelEnv(ParallelEnv):  # type: ignore[misc, unused-ignore]  # untyped PettingZoo
    """Hearth as a PettingZoo Parallel environment: the mulligan is one step of both
    players; then each step plays the action of the agent that decides (the one whose
    mask is not all 0) and ignores the other's."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's class attribute
        "name": "gauntlet_hearth_parallel_v0",
        "render_modes": ["ansi", "human"],
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, decks: Sequence[DeckSpec] | None = None,
                 turn_cap: int | None = TURN_CAP) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._games = _Games(decks, turn_cap)
        self.possible_agents: list[str] = list(AGENTS)
        self.agents: list[str] = []
        self._observation_spaces = {agent: observation_space() for agent in AGENTS}
        self._action_spaces = {agent: action_space() for agent in AGENTS}
        self.state = new_game(seed=0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def _observations(self) -> dict[str, Observation]:
        out: dict[str, Observation] = {}
        for agent in AGENTS:
            view = self.state.observation(_player(agent))
            out[agent] = {"observation": observe(view, _player(agent)),
                          "action_mask": action_mask(view, _player(agent))}
        return out

    def _infos(self, observations: Mapping[str, Observation]) -> dict[str, dict[str, Any]]:
        return {agent: {"action_mask": observations[agent]["action_mask"].copy()}
                for agent in AGENTS}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.state = self._games.start(seed, options)
        self.agents = list(AGENTS)
        observations = self._observations()
        return observations, self._infos(observations)

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """Every agent that decides now must be in `actions` with a legal index (else
        IllegalAction, nothing played); the other agents' entries are ignored."""
        state = self.state
        if state.is_over or not self.agents:
            raise RuntimeError("the game is over: call reset()")
        moves: list[tuple[Action, int]] = []
        for player in state.pending():
            agent = AGENTS[player - 1]
            if agent not in actions:
                raise IllegalAction(f"{agent} decides now and sent no action", None, agent)
            index = _index(actions[agent], state, player, agent)
            table = legal_actions(state, player)
            if index not in table:
                raise _refusal(state, index, player, agent)
            moves.append((table[index], player))
        for action, player in moves:
            state.apply(action, player)
        rewards = dict.fromkeys(AGENTS, 0.0)
        terminations = dict.fromkeys(AGENTS, False)
        truncations = dict.fromkeys(AGENTS, False)
        observations = self._observations()
        infos = self._infos(observations)
        if state.is_over:
            one, two, truncated = _outcome(state)
            rewards = {AGENTS[0]: one, AGENTS[1]: two}
            result = state.result()
            for agent in AGENTS:
                (truncations if truncated else terminations)[agent] = True
                infos[agent]["reason"] = result.reason if result else ""
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return render(self.render_mode, lambda: _text(self.state))

    def close(self) -> None:
        pass


def parallel_env(render_mode: str | None = None, decks: Sequence[DeckSpec] | None = None,
                 turn_cap: int | None = TURN_CAP) -> HearthParallelEnv:
    """The Parallel environment (the mulligan at once, then turn by turn)."""
    return HearthParallelEnv(render_mode=render_mode, decks=decks, turn_cap=turn_cap)


# -- Gymnasium ----------------------------------------------------------------------------------


class Bot(Protocol):
    """What the opponent may be besides a policy: a `bots.hearth.Bot`-like object
    (`act(state, options)`, `mulligan(state, choices)`, `choose(state, choices, lo, hi)`);
    it gets a clone of the game, as `bots.hearth.local` gives one."""

    def act(self, state: State, options: Sequence[Action]) -> Action: ...

    def mulligan(self, state: State, choices: Sequence[int]) -> list[int]: ...

    def choose(self, state: State, choices: Sequence[int], count_min: int, count_max: int
               ) -> list[int]: ...


# `random` is built in; the others are the bundled bots of bots.hearth, loaded only when
# asked for (games/ itself never imports bots/).
BUNDLED_OPPONENTS: Final = {
    "random": None,
    "hearth-random": "bots.hearth.bundled:RandomBot",
    "hearth-greedy": "bots.hearth.bundled:GreedyBot",
    "greedy": "bots.hearth.bundled:GreedyBot",
}



def _bot_decision(bot: Bot, state: State, player: int) -> Action:
    """One decision of a bot, as `bots.hearth.local.play_state` asks it."""
    options = state.legal_actions(player)
    view = state.clone()
    if options[0].kind == Kind.MULLIGAN:
        choices = sorted({c for a in options for c in a.cards})
        replace = bot.mulligan(view, choices)
        return Action(Kind.MULLIGAN, player, cards=tuple(sorted(set(replace))))
    if int(options[0].kind) == CHOOSE_KIND:
        picked = bot.choose(view, [a.cards[0] for a in options], 1, 1)
        return Action(Kind(CHOOSE_KIND), player, cards=tuple(picked))
    return bot.act(view, options)


class HearthGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of Hearth against an opponent, for Gymnasium (`gauntlet/Hearth-v0`).

    - `opponent`: `"random"` (uniform over the legal actions, from the environment's RNG),
      `"hearth-greedy"` / `"greedy"` or `"hearth-random"` (the bundled bots), a
      `"module:Class"` name or a bot class (made anew each episode, with a seed from the
      environment's RNG when it takes one), a bot object (used as it is), or a
      `policy(observation, action_mask) -> index` on the opponent's own observation.
    - `seat`: 1, 2 (PlayerID; who goes first is the seed's draw) or `"random"`.
    - `decks`, `turn_cap`: as for the PettingZoo environments.
    - `illegal_reward` (default -1.0): the reward of an illegal index, which plays nothing.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # Gymnasium's class attribute
        "render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        opponent: Any = "random",
        seat: int | str = 1,
        decks: Sequence[DeckSpec] | None = None,
        turn_cap: int | None = TURN_CAP,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if seat not in (1, 2, "random"):
            raise ValueError(f"seat must be 1, 2 or 'random', not {seat!r}")
        self.render_mode = render_mode
        self.seat_choice = seat
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._games = _Games(decks, turn_cap)
        found = opponent_of(opponent, BUNDLED_OPPONENTS, "act")
        self._policy: Policy | None = found.policy
        self._bot: Bot | None = found.bot
        self._factory: Callable[[int], Bot] | None = found.factory
        self.state = new_game(seed=0)
        self.player = 1
        self._mask = np.zeros(ACTION_COUNT, np.int8)
        self._view: dict[str, Any] | None = None  # our view now (mask and observation)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """A new game of game seed `seed` (else the next seed from the environment's RNG);
        `options={"decks": (d1, d2)}` fixes the decks."""
        super().reset(seed=seed)
        rng = self._games.rng = self.np_random
        game_seed = seed if seed is not None else int(rng.integers(2**63))
        self.state = self._games.make(game_seed, options)
        self.player = (int(rng.integers(1, 3)) if self.seat_choice == "random"
                       else int(self.seat_choice))
        if self._factory is not None:
            self._bot = self._factory(int(rng.integers(2**63)))
        self._play_opponent()
        return self._observation(), self._info(False)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal indices now as booleans: the method sb3-contrib's `MaskablePPO` calls
        (`info["action_mask"]` holds the same, as 0/1 int8)."""
        return self._mask.astype(bool)

    def _observation(self) -> Observation:
        view = self._view if self._view is not None else self.state.observation(self.player)
        return {"observation": observe(view, self.player), "action_mask": self._mask.copy()}

    def _info(self, illegal: bool, reason: str | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask.copy(), "illegal": illegal,
                                "player": self.player}
        if reason is not None:
            info["reason"] = reason
        result = self.state.result()
        if result is not None:
            info["result"] = result.reason
            info["winner"] = result.winner
        return info

    def _play_opponent(self) -> None:
        """The opponent's decisions until ours or the end; then our mask."""
        state = self.state
        other = 3 - self.player
        while not state.is_over and other in state.pending():
            if self._policy is not None:
                mask = action_mask(state, other)
                index = check_action(self._policy(observe(state, other), mask))
                if not mask[index]:
                    raise _refusal(state, index, other, "the opponent")
                state.apply(legal_actions(state, other)[index], other)
            elif self._bot is not None:
                state.apply(_bot_decision(self._bot, state, other), other)
            else:
                options = state.legal_actions(other)
                state.apply(options[int(self.np_random.integers(len(options)))], other)
        self._view = state.observation(self.player)
        self._mask = (np.zeros(ACTION_COUNT, np.int8) if state.is_over
                      else action_mask(self._view, self.player))

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state.is_over:
            truncated = _outcome(state)[2]
            return (self._observation(), 0.0, not truncated, truncated,
                    self._info(True, "the game is over: call reset()"))
        try:
            index = check_action(action)
        except IllegalActionIndex as error:
            return (self._observation(), self.illegal_reward, False, False,
                    self._info(True, str(error)))
        if not self._mask[index]:
            reason = str(_refusal(state, index, self.player, AGENTS[self.player - 1]))
            return (self._observation(), self.illegal_reward, False, False,
                    self._info(True, reason))
        state.apply(legal_actions(state, self.player)[index], self.player)
        self._play_opponent()
        reward, terminated, truncated = 0.0, False, False
        if state.is_over:
            one, two, truncated = _outcome(state)
            reward = one if self.player == 1 else two
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info(False)

    def render(self) -> str | None:
        return render(self.render_mode, lambda: _text(self.state))


def register_envs() -> None:
    """Register `gauntlet/Hearth-v0` with Gymnasium (idempotent; done on import; called by
    `games.blokus.env.register_envs`, the package's entry point, too)."""
    registration = gymnasium.envs.registration
    name = "Hearth-v0" if registration.current_namespace is not None else ENV_ID
    full = name if registration.current_namespace is None else \
        f"{registration.current_namespace}/{name}"
    if full not in gymnasium.registry:
        gymnasium.register(id=name, entry_point=f"{__name__}:HearthGymEnv")


register_envs()

__all__ = [
    "BUNDLED_OPPONENTS",
    "ENV_ID",
    "TURN_CAP",
    "Bot",
    "HearthAECEnv",
    "HearthGymEnv",
    "HearthParallelEnv",
    "IllegalAction",
    "Policy",
    "action_space",
    "class_decks",
    "env",
    "observation_space",
    "parallel_env",
    "raw_env",
    "register_envs",
]
