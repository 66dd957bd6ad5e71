"""Run the docstring examples of the Hearth bot kit (they are part of its documentation)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bots.hearth",
    "bots.hearth.aio",
    "bots.hearth.bot",
    "bots.hearth.bundled",
    "bots.hearth.kit",
    "bots.hearth.local",
    "bots.hearth.options",
    "bots.hearth.tree",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
    assert attempted > 0
