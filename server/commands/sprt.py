"""`gauntlet sprt calc`: the SPRT calculator for figures from elsewhere (issue #26).

`gauntlet sprt` is a group so that the test run itself (`gauntlet sprt run A B`, which needs
the paired series runner) can join it later. The statistics are `stats`: this module only
parses, calls and prints.
"""

from __future__ import annotations

import json
from typing import Annotated, NoReturn

import typer

from server.commands.root import app
from stats import MODELS, estimate, llr, lower_bound, upper_bound
from stats.sprt import Model

sprt_app = typer.Typer(help="Sequential probability ratio tests (calc: the calculator).",
                       no_args_is_help=True)
app.add_typer(sprt_app, name="sprt")


def _fail(message: str, code: int = 2) -> NoReturn:
    """One `error:` line on stderr; 2 is a usage error, like every other command."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _counts(text: str, size: int, flag: str) -> list[int]:
    parts = [p.strip() for p in text.replace("+", ",+").split(",")] if text else []
    # "36029+200" (the middle bucket given as its two parts) sums them.
    numbers: list[int] = []
    for part in parts:
        try:
            value = int(part.lstrip("+"))
        except ValueError:
            _fail(f"{flag}: {text!r} is not {size} whole numbers separated by commas")
        if value < 0:
            _fail(f"{flag}: counts cannot be negative ({value})")
        if part.startswith("+") and numbers:
            numbers[-1] += value
        else:
            numbers.append(value)
    if len(numbers) != size:
        _fail(f"{flag}: expected {size} counts, got {len(numbers)} ({text!r})")
    if sum(numbers) == 0:
        _fail(f"{flag}: no games (every count is 0)")
    return numbers


def _pm(value: float, ci: tuple[float, float]) -> str:
    return f"{value:.2f} +/- {(ci[1] - ci[0]) / 2:.2f}"


@sprt_app.command()
def calc(
    ptnml: Annotated[str | None, typer.Option(
        "--ptnml", help="Pair counts LL,LD,WLDD,WD,WW (a sum like 36029+200 is allowed).",
        show_default=False)] = None,
    wdl: Annotated[str | None, typer.Option(
        "--wdl", help="Game counts W,D,L.", show_default=False)] = None,
    elo0: Annotated[float, typer.Option("--elo0", help="H0's Elo (in the model's Elo).")] = 0.0,
    elo1: Annotated[float, typer.Option("--elo1", help="H1's Elo (in the model's Elo).")] = 5.0,
    alpha: Annotated[float, typer.Option("--alpha", help="False-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="False-negative rate.")] = 0.05,
    model: Annotated[str, typer.Option(
        "--model", help="normalized, logistic or bayeselo (trinomial only).")] = "normalized",
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object: llr, lower, upper, elo, elo_ci, nelo, nelo_ci, "
        "los, plus games, model and state.")] = False,
) -> None:
    """The LLR of counts from elsewhere, its bounds, Elo and normalized Elo with 95 %
    intervals, and LOS."""
    if (ptnml is None) == (wdl is None):
        _fail("give exactly one of --ptnml LL,LD,WLDD,WD,WW or --wdl W,D,L")
    if model not in MODELS:
        _fail(f"--model: one of {', '.join(MODELS)}, not {model!r}")
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        _fail("--alpha and --beta are probabilities with alpha + beta < 1")
    if not elo0 < elo1:
        _fail(f"--elo0 ({elo0}) must be below --elo1 ({elo1})")
    if ptnml is not None:
        if model == "bayeselo":
            _fail("--model bayeselo is trinomial: give --wdl W,D,L")
        counts = _counts(ptnml, 5, "--ptnml")
    else:
        wins, draws, losses = _counts(wdl or "", 3, "--wdl")
        counts = [losses, draws, wins]
    chosen: Model = "bayeselo" if model == "bayeselo" else (
        "logistic" if model == "logistic" else "normalized")
    try:
        value = llr(counts, elo0, elo1, chosen)
    except ValueError as error:
        _fail(str(error))
    lower, upper = lower_bound(alpha, beta), upper_bound(alpha, beta)
    figures = estimate(counts)
    state = "H1 accepted" if value >= upper else "H0 accepted" if value <= lower else \
        "running"
    if as_json:
        typer.echo(json.dumps({
            "llr": value, "lower": lower, "upper": upper,
            "elo": figures.elo, "elo_ci": list(figures.elo_ci),
            "nelo": figures.nelo, "nelo_ci": list(figures.nelo_ci), "los": figures.los,
            "games": figures.games, "model": model, "state": state}))
        return
    percent = 100 * (value / upper if value >= 0 else value / lower)
    pairs = f", pairs: {sum(counts)}" if len(counts) == 5 else ""
    wins_draws = (f"W: {counts[2]}, D: {counts[1]}, L: {counts[0]}" if len(counts) == 3
                  else f"Ptnml(0-2): [{', '.join(str(c) for c in counts)}]")
    typer.echo("\n".join([
        f"Games: {figures.games}{pairs}, model: {model}, {state}",
        f"Elo: {_pm(figures.elo, figures.elo_ci)}, nElo: {_pm(figures.nelo, figures.nelo_ci)}",
        f"LOS: {100 * figures.los:.2f} %",
        f"LLR: {value:.2f} ({percent:.1f}%) ({lower:.2f}, {upper:.2f}) "
        f"[{elo0:.2f}, {elo1:.2f}]",
        wins_draws,
    ]))
