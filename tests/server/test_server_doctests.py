"""The examples in the server's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["server.config", "server.rooms.events", "server.rooms.lobby", "server.rooms.game",
           "server.rooms.room",
           "server.rooms.result",
           "server.net.sniff", "server.runtime", "server.net.ratelimit", "server.net.sc_translate",
           "server.host", "server.net.slots", "server.net.lockout", "server.games.blokus.bots",
           "server.spectate.frames",
           "server.games.registry", "server.games.blokus", "server.games.blokus.room",
           "server.games.blokus.record", "server.games.hearth", "server.games.hearth.room"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
