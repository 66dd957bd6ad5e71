"""`gauntlet sprt A B`: is A better than B? A sequential test over paired games (issue #26).

`gauntlet sprt A B --elo0 0 --elo1 5` (the same as `gauntlet sprt run A B ...`) plays A
against B in pairs, in a server of its own: both games of a pair have the same seed (the
same game: Blokus' start piece, Hearth's shuffles and coin) with the seats swapped, so that
luck cancels inside a pair. Each complete pair goes into a pentanomial GSPRT
(`stats.SequentialTest`); the run stops as soon as the LLR leaves its bounds or
`--max-games` games are played, and prints the figures as fastchess does. A pair whose
second game ended without a result (a crash of the server side, Ctrl-C, the stop) is
reported, never counted as half a pair. `gauntlet sprt calc` computes the same figures from
counts played elsewhere. The statistics are `stats`: this module parses, runs and prints.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from server.commands.common import command_settings
from server.commands.root import FullListing, app
from stats import (
    MODELS,
    SequentialTest,
    State,
    estimate,
    llr,
    lower_bound,
    stopped_estimate,
    upper_bound,
)
from stats.sprt import Model


class _RunByDefault(FullListing):
    """`gauntlet sprt A B` is `gauntlet sprt run A B`: a first word that names no command
    of the group is the candidate bot."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["run", *args]
        return list(super().parse_args(ctx, args))


sprt_app = typer.Typer(cls=_RunByDefault, no_args_is_help=True, help=(
    "Is bot A better than bot B? `gauntlet sprt A B --elo0 0 --elo1 5` plays paired games "
    "until a sequential test decides; `calc` computes the figures of counts from elsewhere."))
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


def _model(model: str) -> Model:
    if model not in MODELS:
        _fail(f"--model: one of {', '.join(MODELS)}, not {model!r}")
    return "bayeselo" if model == "bayeselo" else (
        "logistic" if model == "logistic" else "normalized")


def status_lines(test: SequentialTest) -> list[str]:
    """The live block, as fastchess prints it: the LLR with its progress, bounds and
    hypotheses, the pentanomial counts, Elo and normalized Elo.

    >>> test = SequentialTest(elo0=0, elo1=5)
    >>> _ = test.add_counts([10, 60, 120, 80, 30])
    >>> print("\\n".join(status_lines(test)))
    LLR: 1.17 (39.8%) (-2.94, 2.94) [0.00, 5.00]
    Ptnml(0-2): [10, 60, 120, 80, 30], pairs: 300, games: 600
    Elo: 34.86 +/- 19.48, nElo: 50.15 +/- 27.80, LOS: 99.98 %
    """
    lines = [f"LLR: {test.llr:.2f} ({test.progress:.1f}%) ({test.lower:.2f}, "
             f"{test.upper:.2f}) [{test.elo0:.2f}, {test.elo1:.2f}]",
             f"Ptnml(0-2): [{', '.join(str(c) for c in test.counts)}], pairs: {test.pairs}, "
             f"games: {test.games}"]
    if test.pairs:
        figures = estimate(test.counts)
        lines.append(f"Elo: {_pm(figures.elo, figures.elo_ci)}, "
                     f"nElo: {_pm(figures.nelo, figures.nelo_ci)}, LOS: {100 * figures.los:.2f} %")
    return lines


class _Live:
    """The running figures on stderr: a progress bar over the games with the LLR block on a
    terminal (in the spirit of fastchess's), one line per pair otherwise (a log file)."""

    def __init__(self, games: int) -> None:
        self.console = Console(stderr=True, highlight=False)
        self.progress: Progress | None = None
        if self.console.is_terminal:
            self.progress = Progress(
                TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("{task.description}"),
                console=self.console)
            self.task = self.progress.add_task("", total=games)

    def __enter__(self) -> _Live:
        if self.progress is not None:
            self.progress.start()
        return self

    def update(self, test: SequentialTest) -> None:
        lines = status_lines(test)
        if self.progress is None:
            self.console.print(" | ".join(lines))
        else:
            self.progress.update(self.task, completed=test.games,
                                 description="\n".join(["", *lines]))

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


@sprt_app.command()
def run(
    ctx: typer.Context,
    candidate: Annotated[str, typer.Argument(
        metavar="A", help="The candidate (version 41): any bot `gauntlet play` takes.")],
    baseline: Annotated[str, typer.Argument(
        metavar="B", help="The baseline (version 40), the same forms.")],
    game: Annotated[str, typer.Option(
        "--game", help="The game: blokus, hearth, or another installed game's id or alias.")]
    = "blokus",
    elo0: Annotated[float, typer.Option("--elo0", help="H0's Elo (in the model's Elo).")] = 0.0,
    elo1: Annotated[float, typer.Option("--elo1", help="H1's Elo (in the model's Elo).")] = 5.0,
    alpha: Annotated[float, typer.Option("--alpha", help="False-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="False-negative rate.")] = 0.05,
    max_games: Annotated[int, typer.Option(
        "--max-games", min=2, max=1_000_000, help="Stop, inconclusive, after this many games.")]
    = 20_000,
    concurrency: Annotated[int | None, typer.Option(
        "--concurrency", "-c", min=1, max=200,
        help="Games at the same time (default: 4 for two bundled bots, else 1).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed of the pairs' games and of the bots (the same seed: the same test).")]
    = None,
    model: Annotated[str, typer.Option(
        "--model", help="normalized (default) or logistic.")] = "normalized",
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Also write the figures and every game to this JSON file.")] = None,
) -> None:
    """Play A against B in pairs (the same game twice, seats swapped) until a sequential
    probability ratio test accepts H1 (A is elo1 better) or H0 (A is at most elo0 better),
    or --max-games games are played; exit 0 on H1, 1 on H0 or inconclusive."""
    from server.commands.seating import bundled_names, labels_of, plugin_named, seat_of

    chosen = _model(model)
    if chosen == "bayeselo":
        _fail("--model bayeselo is trinomial: paired games use normalized or logistic")
    try:
        test = SequentialTest(elo0, elo1, alpha, beta, model=chosen, max_games=max_games)
    except ValueError as error:
        _fail(str(error))
    settings = command_settings(ctx)
    plugin = plugin_named(game)
    seats = [seat_of(plugin, spec) for spec in (candidate, baseline)]
    labels = labels_of(candidate, baseline)
    if concurrency is None:
        concurrency = 4 if {candidate, baseline} <= bundled_names(plugin) else 1
    games = max_games + max_games % 2
    records, incomplete = asyncio.run(_run_test(
        test, plugin, ((labels[0], seats[0]), (labels[1], seats[1])), games, concurrency,
        seed, settings))
    lines = status_lines(test)
    verdict = {State.H1: "H1 accepted", State.H0: "H0 accepted",
               State.INCONCLUSIVE: "inconclusive", State.RUNNING: "stopped before a decision"}
    lines.insert(0, f"{labels[0]} vs {labels[1]}, {plugin.name}: {verdict[test.state]}"
                    f" after {test.decided_at or test.games} games")
    stopped = None
    if test.state in (State.H0, State.H1) and test.pairs:
        stopped = stopped_estimate(test.counts, elo0, elo1, alpha, beta, chosen)
        lines.append(f"Elo (median-unbiased, the test stopped): {stopped.elo:.2f} "
                     f"[{stopped.ci[0]:.2f}, {stopped.ci[1]:.2f}]")
    if incomplete:
        lines.append(f"Pairs left out: {len(incomplete)} (a game without a result: "
                     f"{', '.join(str(i) for i in incomplete[:10])}"
                     f"{', ...' if len(incomplete) > 10 else ''})")
    typer.echo("\n".join(lines))
    if json_out is not None:
        figures = estimate(test.counts) if test.pairs else None
        json_out.write_text(json.dumps({
            "game": plugin.game_id, "candidate": labels[0], "baseline": labels[1],
            "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": chosen,
            "state": test.state.value, "llr": test.llr, "lower": test.lower,
            "upper": test.upper, "pentanomial": test.counts, "pairs": test.pairs,
            "games": test.games, "decided_at": test.decided_at,
            "elo": figures.elo if figures else None,
            "elo_ci": list(figures.elo_ci) if figures else None,
            "nelo": figures.nelo if figures else None,
            "nelo_ci": list(figures.nelo_ci) if figures else None,
            "los": figures.los if figures else None,
            "stopped_elo": stopped.elo if stopped else None,
            "incomplete_pairs": incomplete,
            "records": [r.to_json() for r in records]}, indent=1), encoding="utf-8")
    raise typer.Exit(0 if test.state is State.H1 else 1)


async def _run_test(test: SequentialTest, plugin: Any,
                    bots: tuple[tuple[str, Any], tuple[str, Any]],
                    games: int, concurrency: int, seed: int | None, settings: Any
                    ) -> tuple[list[Any], list[int]]:
    """The paired series in a server of this process, each complete pair into `test`; the
    records and the pairs left out (a game without a result)."""
    from server.commands.seating import interrupts
    from server.config import ServerConfig
    from server.runtime import GauntletServer
    from server.series import LocalRooms, run_series

    stop = asyncio.Event()
    interrupts(stop)
    label_a = bots[0][0]
    halves: dict[int, str | None] = {}
    incomplete: list[int] = []
    live = _Live(games)

    def on_game(record: Any) -> None:
        pair = record.index // 2
        result = record.result_for(label_a)
        if pair not in halves:
            halves[pair] = result
            return
        first = halves.pop(pair)
        if first is None or result is None:
            incomplete.append(pair)
        else:
            was_running = test.state is State.RUNNING
            test.add_pair(first, result)  # one played after the decision counts in the figures
            if was_running:
                live.update(test)
        if test.state is not State.RUNNING:
            stop.set()

    config = ServerConfig.from_settings(settings, tcp_port=0, seed=seed,
                                        admin_password=secrets.token_urlsafe(18))
    async with GauntletServer(config) as server:
        local = LocalRooms(server.lobby)
        with live:
            records = await run_series(
                bots, games, host=settings.host, port=server.tcp_port,
                password=config.resolve_admin_password(), concurrency=concurrency, seed=seed,
                on_game=on_game, stop=stop, game_type=plugin.game_id, explain=plugin.explain,
                watch_room=None if plugin.speaks("sc") else local.watch_room, join=local.join,
                paired=True, prepare_room=local.prepare_room)
    incomplete.extend(pair for pair, result in halves.items())
    return records, sorted(incomplete)
