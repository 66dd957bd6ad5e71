"""bench/sc_server.py runs end to end on a tiny plan (figures are not asserted)."""

from __future__ import annotations

import pytest

from bench import free_bots, sc_server


def test_tiny_benchmark_run(capsys: pytest.CaptureFixture[str]) -> None:
    sc_server.main(["--games", "2", "--concurrency", "1", "2", "--replay-concurrency", "1",
                    "--peer-games", "1", "--kit-games", "1"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    header, *phases = rows
    assert "server CPU ms/move" in header
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in phases]
    # concurrency, label, games: every game played to its end by the free bots
    assert [(c[0], c[1], c[2]) for c in cells] == [
        ("1", "", "2"), ("2", "", "4"), ("1", "fresh server", "2"),
        ("1", "--save-replays", "2")]
    assert "`--save-replays` adds" in out
    for c in cells:
        assert float(c[3]) > 0 and float(c[5]) > 0  # games/s, server CPU per move
    assert "Engine only" in out and "without a result" not in out
    assert "Bot kit" in out


def test_tiny_store_benchmark_run(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/store.py's CPU half: both phases of a round play their games, the store-on one
    commits every move's events in groups, and the results' wait is reported."""
    from bench import store

    store.main(["--part", "cpu", "--rounds", "1", "--games", "3", "--concurrency", "2"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    header, off, on = ([cell.strip() for cell in row.strip("|").split("|")] for row in rows)
    assert header[9:11] == ["events committed", "groups"]
    assert off[1:3] == ["off", "3"] and on[1:3] == ["on", "3"]
    assert off[9:11] == ["0", "0"]
    moves, committed, groups = int(on[3]), int(on[9]), int(on[10])
    assert committed > 2 * moves and 1 <= groups < committed
    assert "Results waited for their commit" in out and "(3 results;" in out


def test_free_bot_scripts_are_whole_games() -> None:
    """Every start piece has its variants; their seats take turns by the engine's colour
    order, and the variants are different games (the same one again would find the
    server's board texts cached)."""
    from games import blokus

    found = free_bots.scripts(1, 2)
    assert sorted(found) == sorted(blokus.PENTOMINOES)
    for variants in found.values():
        assert len(variants) == 2 and variants[0].bodies != variants[1].bodies
        for script in variants:
            assert len(script.seats) == len(script.bodies) > 40
            assert set(script.seats) == {0, 1} and script.seats[0] == 0
            assert all(free_bots.ROOM.encode() in body for body in script.bodies)
    assert free_bots.variants_for(1) == 1 and free_bots.variants_for(22) == 2


def test_percentile() -> None:
    assert sc_server._percentile([], 0.5) == 0.0
    assert sc_server._percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert sc_server._percentile([float(i) for i in range(101)], 0.99) == 99.0


def test_make_bench_runs_benchmarks_only() -> None:
    """`make bench` runs every module of `bench/` that is a benchmark; the bots' process of
    the server benchmarks needs a port and must not be among them (it broke `make bench`)."""
    from bench.__main__ import benchmarks

    names = benchmarks()
    assert {"sc_server", "store", "blokus_engine", "hostile"} <= set(names)
    assert not {"free_bots", "soak", "socha_adapter", "fireplace_peer", "instructions"} & set(names)


def test_the_counted_phase_plays_the_same_games_each_run() -> None:
    """`bench.instructions` subtracts two runs' instructions and moves: its phase (what
    valgrind counts) must play the same games every time."""
    import subprocess
    import sys

    from bench.sc_server import ROOT

    def moves() -> str:
        done = subprocess.run([sys.executable, "-m", "bench.instructions", "--phase", "3",
                               "--concurrency", "2"], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, check=True)
        return done.stdout.strip().splitlines()[-1]

    first = moves()
    assert first.startswith("MOVES ") and int(first.split()[1]) > 3 * 20
    assert moves() == first


def test_against_runs_the_same_phase_in_an_old_tree_and_cleans_up() -> None:
    """`bench.against` checks a commit out beside this tree, runs the server phase in both
    and removes the checkout again (a left-over worktree would pile up in `.git`)."""
    import subprocess

    from bench import against
    from bench.sc_server import ROOT

    def worktrees() -> str:
        return subprocess.run(["git", "-C", str(ROOT), "worktree", "list"],
                              capture_output=True, text=True, check=True).stdout

    before = worktrees()
    [(old, new)] = against.compare("HEAD", 1, 4, 2)
    assert old > 0 and new > 0
    assert worktrees() == before
