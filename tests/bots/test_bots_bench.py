"""bench/sc_server.py runs end to end on a tiny plan (figures are not asserted)."""

from __future__ import annotations

import pytest

from bench import sc_server


def test_tiny_benchmark_run(capsys: pytest.CaptureFixture[str]) -> None:
    sc_server.main(["--games", "1", "--concurrent-games", "2", "--concurrency", "2",
                    "--peer-games", "1"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    header, *phases = rows
    assert "server ms/move p50" in header
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in phases]
    assert [(c[0], c[1]) for c in cells] == [("1", "1"), ("2", "2")]  # concurrency, games
    for c in cells:
        assert float(c[2]) > 0  # some games/s (timeouts are load-dependent: not asserted)
    assert "Engine only" in out and "without a result" not in out


def test_percentile() -> None:
    assert sc_server._percentile([], 0.5) == 0.0
    assert sc_server._percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert sc_server._percentile([float(i) for i in range(101)], 0.99) == 99.0
