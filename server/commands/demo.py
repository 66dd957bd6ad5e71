"""`gauntlet demo`: a quick look at what Gauntlet does, with nothing to set up.

For now it plays one seeded Blokus game with the engine's own players, team ONE greedy
(biggest piece first) against team TWO random, draws the board as it fills up and prints
the result. The whole game takes a couple of seconds.
"""

from __future__ import annotations

import random
import time

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from games import blokus
from server.cli import app

STYLES = {"BLUE": "bold blue", "YELLOW": "bold yellow", "RED": "bold red", "GREEN": "bold green"}
PLAYERS = {"ONE": "greedy", "TWO": "random"}


def choose(state: blokus.State, rng: random.Random) -> blokus.Move:
    """Team ONE places its biggest piece, team TWO any piece (both at random among equals)."""
    placements = [m for m in state.legal_moves() if isinstance(m, blokus.SetMove)]
    if state.current_team == "ONE":
        biggest = max(blokus.SHAPE_SIZE[m.kind] for m in placements)
        placements = [m for m in placements if blokus.SHAPE_SIZE[m.kind] == biggest]
    return rng.choice(placements)


def board_view(state: blokus.State) -> Text:
    text = Text()
    for y in range(20):
        for x in range(20):
            color = state.color_at(x, y)
            if color is None:
                text.append("· ", style="dim")
            else:
                text.append("██", style=STYLES[color])
        text.append("\n")
    return text


def status_line(state: blokus.State) -> Text:
    points = {team: state.team_points(team) for team in blokus.TEAMS}
    return Text(
        f"round {state.round:>2}  turn {state.turn:>2}  start piece {state.start_piece}  "
        f"ONE ({PLAYERS['ONE']}) {points['ONE']}  TWO ({PLAYERS['TWO']}) {points['TWO']}"
    )


def score_table(state: blokus.State) -> Table:
    table = Table(title="Result")
    table.add_column("colour")
    table.add_column("team")
    table.add_column("pieces left", justify="right")
    table.add_column("points", justify="right")
    for color in blokus.COLORS:
        table.add_row(
            Text(color, style=STYLES[color]),
            blokus.team_of(color),
            str(len(state.undeployed(color))),
            str(state.points(color)),
        )
    return table


@app.command()
def demo(
    seed: int = typer.Option(1, help="Seed of the start piece and of the players' choices."),
    animate: bool = typer.Option(True, help="Redraw the board after every move."),
    delay: float = typer.Option(0.02, min=0.0, max=1.0, help="Seconds between redraws."),
) -> None:
    """Play a seeded Blokus game in the terminal: greedy team ONE against random team TWO."""
    console = Console()
    rng = random.Random(seed)
    state = blokus.new_game(seed=seed)
    animate = animate and console.is_terminal
    with Live(console=console, auto_refresh=False, transient=False) as live:
        while not state.is_over:
            state.apply(choose(state, rng))
            if animate:
                live.update(Group(board_view(state), status_line(state)), refresh=True)
                time.sleep(delay)
        live.update(Group(board_view(state), status_line(state)), refresh=True)
    console.print()
    console.print(score_table(state))
    result = state.result()
    if result.winner is None:
        console.print(f"A tie: both teams scored {result.points['ONE']}.")
    else:
        loser = "TWO" if result.winner == "ONE" else "ONE"
        console.print(
            f"Team {result.winner} ({PLAYERS[result.winner]}) wins "
            f"{result.points[result.winner]} to {result.points[loser]}."
        )
