"""The spectate renderers' docstring examples."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["server.games.blokus.spectate", "server.games.hearth.spectate",
                                  "server.api.ws", "server.api.http"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
