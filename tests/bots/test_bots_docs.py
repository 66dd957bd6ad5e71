"""The Python examples in docs/bots.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

from bots.blokus import Bot, GreedyBot
from games import blokus

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_examples_play_legal_games() -> None:
    namespace: dict[str, object] = {"__name__": "docs_example"}
    blocks = python_blocks()
    assert len(blocks) >= 3
    exec(blocks[0], namespace)  # the ten-line bot (not run: __name__ is not __main__)
    exec("from bots.blokus import Bot\n" + blocks[2], namespace)  # the lookahead
    for name in ("MyBot", "Lookahead"):
        cls = namespace[name]
        assert isinstance(cls, type) and issubclass(cls, Bot)
        bot = cls()
        bot.on_start("ONE")
        state = blokus.new_game("PENTO_T")
        opponent = GreedyBot(seed=1)
        while not state.is_over:
            player = bot if state.current_team == "ONE" else opponent
            state.apply(player.move(state.clone()))
        assert state.result().points["ONE"] > 0
