"""`gauntlet demo` plays a whole seeded Blokus game and prints its result."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from server.cli import app


def run_demo(seed: int) -> str:
    result = CliRunner().invoke(app, ["demo", "--seed", str(seed), "--no-animate"])
    assert result.exit_code == 0, result.output
    return result.output


def test_demo_prints_board_scores_and_result() -> None:
    output = run_demo(4)
    assert "Result" in output
    assert re.search(r"Team (ONE|TWO) \((greedy|random)\) wins \d+ to \d+\.|A tie", output)
    # 20 board rows of 20 cells each.
    rows = [line for line in output.splitlines() if re.fullmatch(r"(?:██|· ){20}\s*", line)]
    assert len(rows) == 20


def test_demo_is_seeded() -> None:
    assert run_demo(7) == run_demo(7)
