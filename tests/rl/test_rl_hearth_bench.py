"""`bench.rl_hearth` runs (a tiny round) and prints one row per loop with figures."""

from __future__ import annotations

import pytest

from bench import rl_hearth


def test_the_benchmark_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    rl_hearth.main(["--rounds", "1", "--seconds", "0.05"])
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("| ") and not line.startswith("| environment")]
    assert len(rows) == 5
    for row in rows:
        wall, cpu = (float(cell.replace(",", "")) for cell in row.strip("| ").split(" | ")[1:])
        assert wall > 0 and cpu > 0
