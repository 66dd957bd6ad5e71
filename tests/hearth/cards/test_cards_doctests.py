"""The examples in the card modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["mage", "neutral", "priest", "warrior", "druid", "hunter", "demonhunter", "set_stats"]


@pytest.mark.parametrize("name", MODULES)
def test_card_module_doctests(name: str) -> None:
    module = importlib.import_module(f"games.hearth.cards.{name}")
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
