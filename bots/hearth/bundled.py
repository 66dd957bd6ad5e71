"""The bundled Hearth bots, ``hearth-random`` and ``hearth-greedy``, and how bots are found.

Both are pure policies on the engine's ``State`` and deterministic given their seed and
the states they are shown.

>>> from games import hearth
>>> g = hearth.new_game(seed=4)
>>> p = g.pending()[0]
>>> choices = sorted({c for a in g.legal_actions(p) for c in a.cards})
>>> GreedyBot(seed=1).mulligan(g.clone(), choices) == sorted(
...     c for c in choices if g.entities()[c][1][48] > 3)        # 48 = COST
True
>>> RandomBot(seed=3).mulligan(g.clone(), choices) == RandomBot(seed=3).mulligan(g, choices)
True
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bots.hearth.bot import Bot, owner_of_hand_card
from bots.policy import is_policy
from games.hearth import END_TURN, Action, Kind, State

__all__ = ["BUNDLED", "GreedyBot", "RandomBot", "bot_factory", "evaluate", "load_bot"]

COIN = "GAME_005"
COST, CONTROLLER = 48, 50  # GameTag numbers (the engine's entity tree keys)
WIN = 1_000_000.0


class RandomBot(Bot):
    """Uniformly random over the legal actions (and over the subsets to mulligan); seeded.

    Every legal action counts once, so a minion with four board slots is four options.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return "hearth-random"

    def mulligan(self, state: State, choices: Sequence[int]) -> list[int]:
        return [c for c in choices if self.rng.random() < 0.5]

    def choose(
        self, state: State, choices: Sequence[int], count_min: int, count_max: int
    ) -> list[int]:
        n = self.rng.randint(count_min, min(count_max, len(choices)))
        return self.rng.sample(list(choices), n)

    def act(self, state: State, options: Sequence[Action]) -> Action:
        # A mid-turn choice (Kind.CHOOSE) is one of the options like any other.
        return options[self.rng.randrange(len(options))]


# --- the greedy policy --------------------------------------------------------------

Char = dict[str, Any]


def _value(c: Char) -> int:
    """What a minion is worth on the board: attack plus current health."""
    return int(c["atk"]) + int(c["health"])


def evaluate(state: State, player: int) -> float:
    """A board score from ``player``'s side: heroes, minions (twice), weapon, cards in hand.

    Decided games score +-1e6. Reads only ``state.observation(player)``.

    >>> from games import hearth
    >>> g = hearth.new_game(seed=1)
    >>> evaluate(g, 1) == -evaluate(g, 2) != 0      # the same board, one card less in hand
    True
    """
    result = state.result()
    if result is not None:
        return 0.0 if result.winner == 0 else (WIN if result.winner == player else -WIN)
    obs = state.observation(player)
    score = 0.0
    for side, sign in ((obs["you"], 1.0), (obs["opponent"], -1.0)):
        hero = side["hero"]
        part = float(hero["health"] + hero["armor"])
        for minion in side["board"]:
            part += 2 * _value(minion) + (1 if minion["taunt"] else 0)
            part += 1 if minion["divine_shield"] else 0
        weapon = side["weapon"]
        if weapon is not None:
            part += weapon["atk"] * weapon["durability"]
        part += side["hand_count"]
        score += sign * part
    return score


class GreedyBot(Bot):
    """Most expensive card first, favourable trades, face otherwise; seeded tie-breaks.

    One decision at a time, in this order:

    1. **Lethal**: if the attackers that may hit the enemy hero deal enough, go face.
    2. **Cards**, most expensive affordable first: a minion without a target is played at
       the right end of the board; anything with a choice to make (a target, a spell, a
       weapon) is tried on a clone for each option and played with its best option if that
       raises ``evaluate`` (so a Whirlwind that hurts us more than them stays in hand).
       The Coin is played only when it makes a card in hand affordable.
    3. **Hero power**, tried the same way, when it raises ``evaluate``.
    4. **Trades**: an attack on a minion that it kills and survives, or that kills a more
       valuable minion (attack + health); the best such trade first. A hero trades only
       when it keeps more than 10 health. Against Taunt an even trade is taken too.
    5. **Face** with anything that may attack the enemy hero.
    6. **End the turn.**

    Mulligan: replace the cards costing more than 3.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return "hearth-greedy"

    def mulligan(self, state: State, choices: Sequence[int]) -> list[int]:
        if not choices:
            return []
        player = owner_of_hand_card(state, choices[0])
        if not player:
            return []
        cost = {c["entity"]: c["cost"] for c in state.observation(player)["you"]["hand"]}
        return [c for c in choices if cost.get(c, 0) > 3]

    def choose(
        self, state: State, choices: Sequence[int], count_min: int, count_max: int
    ) -> list[int]:
        """The dearest card we can play next turn, else the cheapest (Tracking, Sightless
        Watcher); the offered cards are ours, so ``state`` names them."""
        if not choices or count_max < 1:
            return []
        tree = state.entities()
        owner = tree[choices[0]][1].get(CONTROLLER, 0)
        crystals = state.observation(owner)["you"]["max_mana"] if owner in (1, 2) else 0
        cost = {c: tree[c][1].get(COST, 0) for c in choices}
        soon = [c for c in choices if cost[c] <= crystals + 1]
        if soon:
            return [max(soon, key=lambda c: (cost[c], self.rng.random()))]
        return [min(choices, key=lambda c: (cost[c], self.rng.random()))]

    def act(self, state: State, options: Sequence[Action]) -> Action:
        if options and options[0].kind == Kind.CHOOSE:
            picked = self.choose(state, [a.cards[0] for a in options], 1, 1)
            return next(a for a in options if a.cards == tuple(picked))
        me = state.current
        obs = state.observation(me)
        you, opp = obs["you"], obs["opponent"]
        plays: dict[int, list[Action]] = {}
        powers: list[Action] = []
        attacks: dict[int, list[Action]] = {}
        for a in options:
            if a.kind == Kind.PLAY:
                plays.setdefault(a.entity, []).append(a)
            elif a.kind == Kind.POWER:
                powers.append(a)
            elif a.kind == Kind.ATTACK:
                attacks.setdefault(a.entity, []).append(a)
        chars: dict[int, Char] = {c["entity"]: c for c in you["board"]}
        chars[you["hero"]["entity"]] = you["hero"]
        enemies: dict[int, Char] = {c["entity"]: c for c in opp["board"]}
        enemy_hero = opp["hero"]
        enemies[enemy_hero["entity"]] = enemy_hero
        weapon_atk = you["weapon"]["atk"] if you["weapon"] is not None else 0

        def power_of(attacker: int) -> int:
            c = chars[attacker]
            return int(c["atk"]) + (weapon_atk if attacker == you["hero"]["entity"] else 0)

        face = [group for group in attacks.values()
                if any(a.target == enemy_hero["entity"] for a in group)]
        # 1. lethal
        if face and sum(power_of(g[0].entity) for g in face) >= (
                enemy_hero["health"] + enemy_hero["armor"]):
            return next(a for a in face[0] if a.target == enemy_hero["entity"])
        # 2. cards
        base: list[float] = []

        def base_score() -> float:
            if not base:
                base.append(evaluate(state, me))
            return base[0]

        hand = {c["entity"]: c for c in you["hand"]}
        order = sorted(plays, key=lambda e: (-hand[e]["cost"] if e in hand else 0,
                                             self.rng.random()))
        coin: list[Action] = []
        for entity in order:
            group = plays[entity]
            if hand.get(entity, {}).get("card") == COIN:
                coin = group
                continue
            if all(a.target == 0 for a in group) and group[0].position >= 0:
                return max(group, key=lambda a: a.position)  # a plain minion: rightmost
            best = self._best(state, me, _rightmost(group))
            if best is not None and best[1] > base_score():
                return best[0]
        if coin:
            mana = you["mana"]
            if any(c["cost"] == mana + 1 for c in you["hand"] if c["card"] != COIN):
                return coin[0]
        # 3. hero power
        if powers:
            best = self._best(state, me, powers)
            if best is not None and best[1] > base_score():
                return best[0]
        # 4. trades
        trades: list[tuple[float, float, Action]] = []
        hero_id = you["hero"]["entity"]
        for attacker, group in attacks.items():
            mine = chars[attacker]
            dealt = power_of(attacker)
            for a in group:
                if a.target == enemy_hero["entity"]:
                    continue
                target = enemies[a.target]
                kills = not target["divine_shield"] and dealt >= target["health"]
                if not kills:
                    continue
                taken = int(target["atk"])
                if attacker == hero_id:
                    if mine["health"] + mine["armor"] - taken <= 10:
                        continue
                    survives = True
                else:
                    survives = bool(mine["divine_shield"]) or taken < mine["health"]
                gain = _value(target) - (0 if survives else _value(mine))
                if survives or gain > 0 or (target["taunt"] and gain == 0):
                    trades.append((gain, self.rng.random(), a))
        if trades:
            return max(trades)[2]
        # 5. face
        if face:
            group = max(face, key=lambda g: (power_of(g[0].entity), self.rng.random()))
            return next(a for a in group if a.target == enemy_hero["entity"])
        return END_TURN

    def _best(self, state: State, me: int, candidates: Sequence[Action]
              ) -> tuple[Action, float] | None:
        """The candidate whose outcome (on a reseeded clone) scores best, and that score."""
        best: tuple[Action, float] | None = None
        for a in candidates:
            trial = state.clone(reseed=self.rng.getrandbits(32))
            trial.apply(a)
            score = evaluate(trial, me)
            if best is None or score > best[1]:
                best = (a, score)
        return best


def _rightmost(group: Sequence[Action]) -> list[Action]:
    """One board position per target (the rightmost) for minions; others as they are."""
    if group[0].position < 0:
        return list(group)
    right = max(a.position for a in group)
    return [a for a in group if a.position == right]


# --- finding bots by name -----------------------------------------------------------

BotFactory = Callable[[int | None], Bot]

BUNDLED: dict[str, BotFactory] = {"hearth-random": RandomBot, "hearth-greedy": GreedyBot}
"""The bundled Hearth bots by name."""


def bot_factory(spec: str) -> BotFactory:
    """Resolve a bundled name, ``package.module:Class`` or ``path/to/file.py:Class`` once.

    The class is called with ``seed=`` when its constructor takes one, else without
    arguments. Raises ValueError for anything that does not name a ``bots.hearth.Bot``.

    >>> bot_factory("bots.hearth.bundled:GreedyBot")(1).name
    'hearth-greedy'
    """
    if spec in BUNDLED:
        return BUNDLED[spec]
    where, sep, class_name = spec.rpartition(":")
    if not (sep and where and class_name):
        known = ", ".join(sorted(BUNDLED))
        raise ValueError(f"unknown bot {spec!r}: use one of {known}, module:Class or file.py:Class")
    cls = getattr(_module(where), class_name, None)
    if is_policy(cls):  # policy(observation, action_mask) -> action, as the envs train
        # it; imported here: only a policy needs numpy and the encodings
        from bots.hearth.policy import PolicyBot

        return lambda seed: PolicyBot(cls)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise ValueError(f"{spec}: {class_name} is neither a bots.hearth.Bot subclass nor a "
                         f"policy function in {where}")
    bot_class: type[Bot] = cls
    try:
        takes_seed = "seed" in inspect.signature(bot_class).parameters
    except (TypeError, ValueError):
        takes_seed = False
    if takes_seed:
        return lambda seed: bot_class(seed=seed)  # type: ignore[call-arg]
    return lambda seed: bot_class()


def _module(where: str) -> Any:
    """The module named by ``package.module`` or by the path of a ``.py`` file."""
    if not where.endswith(".py"):
        try:
            return importlib.import_module(where)
        except ImportError as error:
            raise ValueError(f"cannot import {where}: {error}") from None
    path = Path(where)
    if not path.is_file():
        raise ValueError(f"no such file: {where}")
    name = f"_gauntlet_hearth_bot_{path.stem}_{abs(hash(path.resolve()))}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {where}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_bot(spec: str, seed: int | None = None) -> Bot:
    """A Hearth bot from a bundled name or ``module:Class`` / ``file.py:Class``.

    >>> load_bot("hearth-greedy", seed=2).name
    'hearth-greedy'
    """
    return bot_factory(spec)(seed)
