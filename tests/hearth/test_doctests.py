"""The examples in the engine's docstrings run (claims are checked)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "games.hearth",
    "games.hearth.actions",
    "games.hearth.decks",
    "games.hearth.entity",
    "games.hearth.env",
    "games.hearth.game",
    "games.hearth.playout",
    "games.hearth.rng",
    "games.hearth.scenario",
    "games.hearth.tree",
    "games.hearth.view",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
