"""Run the docstring examples of the SC codec modules (they are part of the API docs)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "protocols.base",
    "protocols.sc",
    "protocols.sc.blokus",
    "protocols.sc.codec",
    "protocols.sc.connection",
    "protocols.sc.messages",
    "protocols.sc.stream",
    "protocols.sc.texts",
    "protocols.sc.xmltree",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
