"""The examples in the card modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.hearth.cards as cards

# Every card module that shows an example (a module without one is listed in NO_EXAMPLE).
NO_EXAMPLE = {"basic", "targets"}
MODULES = sorted(m.name for m in pkgutil.iter_modules(cards.__path__) if m.name not in NO_EXAMPLE)


@pytest.mark.parametrize("name", MODULES)
def test_card_module_doctests(name: str) -> None:
    module = importlib.import_module(f"games.hearth.cards.{name}")
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
