"""The bundled Blokus bots, ``random`` and ``greedy``, and how bots are found by name.

Both are deterministic given their seed and the positions they see.

>>> from games import blokus
>>> state = blokus.new_game("PENTO_U")
>>> move = GreedyBot(seed=1).move(state.clone())
>>> move.kind, state.is_legal(move)
('PENTO_U', True)
>>> RandomBot(seed=3).move(state.clone()) == RandomBot(seed=3).move(state.clone())
True
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from bots.blokus.kit import Bot
from bots.policy import is_policy
from games.blokus import COLORS, SHAPE_SIZE, SetMove, SkipMove, State, attach_corners
from games.blokus.bitboard import SIZE

__all__ = ["BUNDLED", "BotLoadError", "GreedyBot", "RandomBot", "bot_factory", "greedy_score",
           "load_bot"]

Move = SetMove | SkipMove


class RandomBot(Bot):
    """Uniformly random over ``state.legal_moves()`` (SkipMove included when legal)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return "random"

    def move(self, state: State) -> Move:
        return self.rng.choice(list(state.legal_moves()))


# --- the greedy score, on the engine's bitboards (games.blokus.bitboard) ----------------
_CENTRE = (SIZE - 1) / 2


class _Position:
    """The boards the score needs, taken once per decision from the state."""

    def __init__(self, state: State) -> None:
        self.occupied = state.occupied
        me = state.current_color
        index = COLORS.index(me)
        partner = state.board(COLORS[(index + 2) % 4])
        self.own = state.board(me)
        self.own_attach = attach_corners(self.own, self.occupied).bit_count()
        self.partner_attach = attach_corners(partner, self.occupied) if partner else 0
        self.opponent_attach = 0
        for color in (COLORS[(index + 1) % 4], COLORS[(index + 3) % 4]):
            board = state.board(color)
            if board:
                self.opponent_attach |= attach_corners(board, self.occupied)


def greedy_score(position: _Position, move: SetMove) -> int:
    """Attach corners gained, plus opponent corners covered, minus partner corners covered.

    `move` is a placement on the board (as every move of `legal_moves()` is).
    """
    mask = move.mask
    own = position.own | mask
    gained = attach_corners(own, position.occupied | mask).bit_count() - position.own_attach
    blocked = (mask & position.opponent_attach).bit_count()
    hurt = (mask & position.partner_attach).bit_count()
    return gained + blocked - hurt


def _centre_distance(move: SetMove) -> float:
    return sum(abs(x - _CENTRE) + abs(y - _CENTRE) for x, y in move.cells)


class GreedyBot(Bot):
    """Largest piece first; among those, the best ``greedy_score``, then nearest the centre.

    The last ties are broken by a seeded random draw, so the bot is deterministic given
    its seed. It skips only when it cannot place anything.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return "greedy"

    def move(self, state: State) -> Move:
        largest: list[SetMove] = []
        size = 0
        fallback: Move | None = None
        for move in state.legal_moves():
            if not isinstance(move, SetMove):
                fallback = move
                continue
            piece = SHAPE_SIZE[move.kind]
            if piece > size:
                size, largest = piece, [move]
            elif piece == size:
                largest.append(move)
        if not largest:
            if fallback is None:
                raise RuntimeError("no legal move at all (the game should be over)")
            return fallback
        position = _Position(state)
        draw = self.rng.random
        return max(largest, key=lambda m: (greedy_score(position, m), -_centre_distance(m),
                                           draw()))


BotFactory = Callable[[int | None], Bot]


class BotLoadError(ValueError):
    """The bot's own module raised while it was imported (a syntax error, a bad import).

    ``str()`` is one line; ``user_traceback`` is the traceback of the user's code alone,
    without the frames of the import machinery and of this loader.
    """

    def __init__(self, message: str, user_traceback: str) -> None:
        super().__init__(message)
        self.user_traceback = user_traceback


def _user_traceback(error: BaseException) -> str:
    """The traceback of ``error`` without importlib's frames and ours."""
    here = str(Path(__file__).resolve())
    info = traceback.TracebackException.from_exception(error)
    info.stack = traceback.StackSummary.from_list(
        [frame for frame in info.stack
         if not frame.filename.startswith("<frozen importlib")
         and str(Path(frame.filename).resolve()) != here])
    return "".join(info.format())


def _exec_user_module(spec: str, run: Callable[[], object]) -> object:
    try:
        return run()
    except Exception as error:
        raise BotLoadError(f"cannot load {spec}: {type(error).__name__}: {error}",
                           _user_traceback(error)) from None

BUNDLED: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
"""The bundled bots by name (``gauntlet bot blokus-<name>``, ``gauntlet play blokus <name>``)."""


def load_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a bundled name, ``package.module:Class`` or ``path/to/file.py:Class``.

    >>> load_bot("greedy", seed=2).name
    'greedy'
    >>> load_bot("bots.blokus.bundled:RandomBot").name
    'random'
    """
    return bot_factory(spec)(seed)


def bot_factory(spec: str) -> BotFactory:
    """What ``load_bot`` calls: resolve ``spec`` once, then make a fresh bot per seed.

    A class is called with ``seed=`` if its constructor takes one, else without arguments.
    Raises ValueError for anything that does not name a ``Bot`` subclass.
    """
    if spec in BUNDLED:
        return BUNDLED[spec]
    where, sep, class_name = spec.rpartition(":")
    if not sep or not where or not class_name:
        known = ", ".join(sorted(BUNDLED))
        raise ValueError(f"unknown bot {spec!r}: use one of {known}, module:Class or file.py:Class")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise ValueError(f"no such file: {where}")
        module_name = f"_gauntlet_bot_{path.stem}_{abs(hash(path.resolve()))}"
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load {where}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_name] = module
        loader = module_spec.loader
        _exec_user_module(where, lambda: loader.exec_module(module))
    else:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as error:
            if error.name is not None and where.startswith(error.name):
                raise ValueError(f"cannot import {where}: {error}") from None
            raise BotLoadError(f"cannot load {where}: {type(error).__name__}: {error}",
                               _user_traceback(error)) from None
        except Exception as error:
            raise BotLoadError(f"cannot load {where}: {type(error).__name__}: {error}",
                               _user_traceback(error)) from None
    cls = getattr(module, class_name, None)
    if is_policy(cls):  # policy(observation, action_mask) -> action, as the envs train
        # it; imported here: only a policy needs numpy and the encodings
        from bots.blokus.policy import PolicyBot

        return lambda seed: PolicyBot(cls)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise ValueError(f"{spec}: {class_name} is neither a Bot subclass nor a policy "
                         f"function in {where}")
    try:
        takes_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_seed = False
    bot_class: type[Bot] = cls
    if takes_seed:
        return lambda seed: bot_class(seed=seed)  # type: ignore[call-arg]
    return lambda seed: bot_class()
