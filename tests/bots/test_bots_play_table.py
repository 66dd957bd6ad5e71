"""`gauntlet play`'s table keeps a long bot name whole in 80 columns (issue #30: it was cut
to `/home/student/bots/ver…`), and every column stays on the page."""

from __future__ import annotations

from rich.console import Console

from server.commands.play import _table
from server.series import BotSummary

LONG = "/home/student/bots/version-41/my_bot.py:MyBotV41"


def test_a_long_name_folds_whole_and_no_column_is_cut() -> None:
    console = Console(width=80, record=True)
    console.print(_table([BotSummary(LONG, games=10, wins=6, losses=4, points=900,
                                     scored_games=10, causes={"timeout": 1}),
                          BotSummary("greedy", games=10, wins=4, losses=6)], 10, "here"))
    text = console.export_text()
    assert "…" not in text
    assert all(len(line) <= 80 for line in text.splitlines())
    assert LONG in "".join(line[1:25].strip() for line in text.splitlines()[3:6])
    assert "as ONE" in text and "lost by" in text
