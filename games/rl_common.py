"""What the two games' learning environments share: `render`, the opponent factory and
the reading of an `opponent` argument.

>>> render("ansi", lambda: "board")
'board'
>>> class Seeded:
...     def __init__(self, seed=None): self.seed = seed
>>> bot_factory(Seeded)(7).seed
7
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import gymnasium

__all__ = ["Opponent", "bot_factory", "opponent", "render"]


def render(mode: str | None, text: Callable[[], str]) -> str | None:
    """An environment's `render()`: the position as text (`ansi`) or printed (`human`)."""
    if mode is None:
        gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
        return None
    shown = text()
    if mode == "human":
        print(shown)
        return None
    return shown


def bot_factory(spec: Any) -> Callable[[int], Any]:
    """A factory seed -> bot for a class or a `module:Class` name; the class gets `seed=`
    when its constructor takes one. (games/ never imports bots/: a name is imported only
    when an environment is asked for that opponent.)"""
    if isinstance(spec, str):
        module_name, _, name = spec.partition(":")
        spec = getattr(importlib.import_module(module_name), name)
    cls = spec
    try:
        takes_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_seed = False
    if takes_seed:
        return lambda seed: cls(seed=seed)
    return lambda seed: cls()


@dataclass(frozen=True)
class Opponent:
    """An environment's opponent, one of three: a `factory` seed -> bot (a new bot each
    game), a `bot` kept for every game, or a `policy` (observation, mask) -> action; all
    None: the environment's own random play."""

    factory: Callable[[int], Any] | None = None
    bot: Any = None
    policy: Callable[..., Any] | None = None


def opponent(given: Any, bundled: Mapping[str, str | None], method: str) -> Opponent:
    """`given` as an environment takes it: a bundled name (`bundled`: name -> `module:Class`,
    None for the environment's own random play), a `module:Class` name, a bot class, a bot
    (an object with `method`) or a policy function.

    >>> opponent("random", {"random": None}, "move")
    Opponent(factory=None, bot=None, policy=None)
    >>> opponent("chess", {"random": None}, "move")
    Traceback (most recent call last):
    ...
    ValueError: unknown opponent 'chess': use random or module:Class
    """
    if isinstance(given, str):
        if given not in bundled and ":" not in given:
            raise ValueError(f"unknown opponent {given!r}: use {', '.join(bundled)} or "
                             "module:Class")
        spec = bundled.get(given, given)
        return Opponent(factory=None if spec is None else bot_factory(spec))
    if isinstance(given, type):
        return Opponent(factory=bot_factory(given))
    if callable(getattr(given, method, None)):
        return Opponent(bot=given)
    if callable(given):
        return Opponent(policy=given)
    raise TypeError(f"opponent must be a name, a bot or a policy, not {given!r}")
