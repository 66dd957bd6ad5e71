"""The examples in the launcher's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["server.launcher.failures", "server.launcher.spec", "server.launcher.log",
           "server.launcher.process", "server.launcher.reaping"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
