"""`gauntlet demo` (what `make run` starts): a real server, a match over TCP, the result."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from server.cli import app


def run_demo(seed: int) -> str:
    result = CliRunner().invoke(
        app, ["demo", "--once", "--tcp-port", "0", "--no-animate", "--seed", str(seed)]
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_demo_plays_a_match_over_tcp_and_prints_the_official_result() -> None:
    output = run_demo(4)
    assert re.search(r"serving the Software-Challenge protocol on 127\.0\.0\.1:\d+", output)
    assert "Result" in output
    # The official reason text (display names from the prepare), as the observer received it.
    assert re.search(
        r"(greedy|random) hat am meisten Punkte erzielt\.|Beide Spieler sind gleichauf", output
    )
    rows = [line for line in output.splitlines() if re.fullmatch(r"(?:██|· ){20}\s*", line)]
    assert len(rows) == 20
    cells = sum(line.count("██") for line in rows)
    assert cells > 20  # the bots really placed pieces


def test_demo_is_seeded() -> None:
    def without_port(text: str) -> str:
        return re.sub(r"127\.0\.0\.1:\d+", "HOST", text)

    assert without_port(run_demo(7)) == without_port(run_demo(7))


def test_a_watched_demo_is_paced_and_says_what_happened() -> None:
    import time

    from bots.blokus import GreedyBot
    from games import blokus
    from server.games.blokus.demo import paced, what_happened

    state = blokus.new_game(start_piece="PENTO_L")
    assert what_happened(state) == "waiting for the first move"
    bot = paced(GreedyBot(seed=1), moves_per_second=10.0)
    started = time.monotonic()
    move = bot.move(state.clone())
    assert time.monotonic() - started >= 0.1
    assert move == GreedyBot(seed=1).move(state.clone()) and bot.name == "greedy"
    state.apply(move)
    assert what_happened(state) == f"BLUE placed PENTO_L ({len(move.cells)} cells)"
