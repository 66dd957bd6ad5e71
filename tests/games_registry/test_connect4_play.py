"""`gauntlet play` plays the third game like any other: installed the way a third party's
package is (tests/games_registry/test_connect4_served.py), its in-process bundled bots
seated in the series' own server, seats swapped every other game, results from the rooms.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.games_registry.test_connect4_served import PACKAGE, install

GAUNTLET = [sys.executable, "-c", "from server.cli import app; app()"]


def _gauntlet(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    site = tmp_path / "site"
    if not site.exists():
        install(site)
    path = os.pathsep.join(p for p in (str(site), str(PACKAGE), os.environ.get("PYTHONPATH"))
                           if p)
    env = {**os.environ, "PYTHONPATH": path, "GAUNTLET_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([*GAUNTLET, *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300, check=False)


def test_gauntlet_play_runs_a_series_of_the_plugin_game(tmp_path: Path) -> None:
    out = tmp_path / "series.json"
    done = _gauntlet(tmp_path, "play", "c4", "connect4-random", "connect4-negamax",
                     "--games", "4", "--seed", "5", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "4 games on in-process" in done.stdout
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["game"] == "connect4"  # the alias resolved to the game id
    records = document["games"]
    assert [r["index"] for r in records] == [0, 1, 2, 3]
    labels = ["connect4-random", "connect4-negamax"]
    assert [r["seats"] for r in records] == [labels, labels[::-1]] * 2
    for record in records:
        assert record["error"] is None and not record["aborted"], record
        assert record["winner"] in (*labels, None)
        # Connect Four's score is 1 for the winner, 0 otherwise (0:0 a draw).
        first, second = record["points"]
        assert sorted((first, second)) in ([0, 1], [0, 0]), record
        if record["winner"] is not None:
            assert record["points"][record["seats"].index(record["winner"])] == 1
    totals = {s["label"]: s for s in document["summary"]}
    assert sum(totals[label]["wins"] for label in labels) + totals[labels[0]]["draws"] == 4
    assert all(totals[label]["games"] == 4 and totals[label]["as_team_one"] == 2
               for label in labels)


def test_a_game_without_a_wire_protocol_refuses_a_program_and_unknown_bots(
        tmp_path: Path) -> None:
    done = _gauntlet(tmp_path, "play", "connect4", "connect4-random", "cmd:python bot.py")
    assert done.returncode == 2
    assert "Connect Four speaks no wire protocol" in done.stderr
    assert "connect4-negamax" in done.stderr  # what can play it instead
    done = _gauntlet(tmp_path, "play", "connect4", "connect4-random", "greedy")
    assert done.returncode == 2
    assert "unknown bot 'greedy' for Connect Four" in done.stderr
