"""`gauntlet ladder status` in 80 columns (issue #30): no name cut, no column lost."""

from __future__ import annotations

from rich.console import Console

from server.commands.ladder import standings_table

LONG = "/home/student/bots/version-41/my_bot.py:MyBotV41"


def _line(rank: int, bot: str, failures: dict[str, int]) -> dict[str, object]:
    return {"rank": rank, "bot": bot, "rating": 20.1, "mu": 25.0, "sigma": 1.6, "elo": 100,
            "elo_low": 50, "elo_high": 150, "games": 1000, "wins": 500, "draws": 100,
            "losses": 400, "failures": failures}


def test_the_standings_fit_80_columns_with_every_name_whole() -> None:
    state = {"game": "swc_2027_blokus", "running": True, "rated": 10,
             "games_per_minute": 3.0, "live": 1, "queued": 0,
             "standings": [_line(1, LONG, {"timeout": 3, "crash": 2}),
                           _line(2, "greedy", {})]}
    console = Console(width=80, record=True)
    console.print(standings_table(state))
    text = console.export_text()
    lines = text.splitlines()
    assert "…" not in text and all(len(line) <= 80 for line in lines)
    assert lines[1].split() == ["#", "bot", "rating", "mu", "sigma", "Elo", "(95", "%)",
                                "games", "W", "D", "L"]
    assert LONG in "".join(line[4:24].strip() for line in lines[3:6])
    assert lines[3].rstrip().endswith("400")  # the last column is there
    assert f"failures of {LONG}: crash 2, timeout 3" in text
