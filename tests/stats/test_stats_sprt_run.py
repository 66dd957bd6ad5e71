"""`gauntlet sprt A B` on a real server: paired Blokus games (the same seed twice, seats
swapped) until the sequential test decides, as issue #26 asks of greedy against random."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import server.series
from server.cli import app


@pytest.fixture
def seeds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(pair, seed) of every room the series prepares."""
    found: list[tuple[int, int]] = []
    real = server.series.game_seed

    def spy(seed: int | None, pair: int) -> int:
        value = real(seed, pair)
        found.append((pair, value))
        return value

    monkeypatch.setattr(server.series, "game_seed", spy)
    return found


def _sprt(tmp_path: Path, *args: str) -> tuple[Any, dict[str, Any]]:
    out = tmp_path / "test.json"
    result = CliRunner().invoke(app, ["sprt", *args, "--seed", "3", "--json", str(out)],
                                env={"GAUNTLET_DATA_DIR": str(tmp_path / "data")})
    return result, json.loads(out.read_text(encoding="utf-8"))


def test_greedy_beats_random_and_the_test_accepts_h1(tmp_path: Path,
                                                     seeds: list[tuple[int, int]]) -> None:
    result, document = _sprt(tmp_path, "greedy", "random", "--elo0", "0", "--elo1", "50")
    assert result.exit_code == 0, result.output
    assert "H1 accepted" in result.output and "Ptnml(0-2):" in result.output
    assert document["state"] == "H1 accepted"
    assert document["decided_at"] is not None and document["decided_at"] <= 400
    assert document["llr"] >= document["upper"] > 2.9
    assert sum(document["pentanomial"]) == document["pairs"] >= 1
    # Each pair: the same game twice, the seats swapped.
    by_pair: dict[int, set[int]] = {}
    for pair, seed in seeds:
        by_pair.setdefault(pair, set()).add(seed)
    assert all(len(s) == 1 for s in by_pair.values())
    assert len({next(iter(s)) for s in by_pair.values()}) == len(by_pair)
    records = {r["index"]: r for r in document["records"]}
    for index, record in records.items():
        if index % 2 and index - 1 in records:
            assert record["seats"] == records[index - 1]["seats"][::-1]
    # Games still running when the test decided end without a result: their pairs are
    # reported, not counted.
    counted = {r["index"] // 2 for r in document["records"]} - set(document["incomplete_pairs"])
    assert len(counted) == document["pairs"]


def test_random_against_greedy_accepts_h0_and_exits_1(tmp_path: Path,
                                                     seeds: list[tuple[int, int]]) -> None:
    result, document = _sprt(tmp_path, "run", "random", "greedy", "--elo0", "0", "--elo1",
                             "50")
    assert result.exit_code == 1, result.output
    assert document["state"] == "H0 accepted" and document["llr"] <= document["lower"]


def test_bad_hypotheses_are_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sprt", "greedy", "random", "--elo0", "5", "--elo1",
                                      "0"])
    assert result.exit_code == 2
    assert "elo0 must be below elo1" in result.output
