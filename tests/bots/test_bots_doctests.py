"""Run the docstring examples of the bot kit (they are part of its documentation)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bots.blokus",
    "bots.blokus.kit",
    "bots.blokus.aio",
    "bots.blokus.bundled",
    "server.series",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
    assert attempted > 0
