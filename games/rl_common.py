"""What the two games' learning environments share: `render` and the opponent factory.

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
from collections.abc import Callable
from typing import Any

import gymnasium

__all__ = ["bot_factory", "render"]


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
