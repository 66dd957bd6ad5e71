"""Run the docstring examples of the Kettle codec modules (they are part of the API docs)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "protocols.kettle",
    "protocols.kettle.connection",
    "protocols.kettle.frames",
    "protocols.kettle.messages",
    "protocols.kettle.reasons",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0
    assert failures == 0
