"""The `>>>` examples in the package's docstrings run and hold."""

from __future__ import annotations

import doctest
from types import ModuleType

import connect4.board
import connect4.bots
import connect4.bundled
import connect4.game
import connect4.plugin
import connect4.replay
import connect4.spectate
import pytest

MODULES = [connect4.board, connect4.bots, connect4.game, connect4.spectate, connect4.replay,
           connect4.bundled, connect4.plugin]


@pytest.mark.parametrize("module", MODULES,
                         ids=lambda module: module.__name__)
def test_doctests(module: ModuleType) -> None:
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert results.failed == 0
    assert results.attempted > 0


def test_the_board_module_has_a_worked_example() -> None:
    # the module docstring itself plays a game to its end
    assert connect4.board.__doc__ is not None
    examples = doctest.DocTestParser().get_examples(connect4.board.__doc__)
    assert len(examples) >= 5
    assert any("result()" in example.source for example in examples)
