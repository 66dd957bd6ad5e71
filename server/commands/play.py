"""`gauntlet play GAME A B`: a series of games between two bots, with a summary.

Any installed game (`gauntlet play blokus A B`, `hearth`, a plugin's game id or alias).
Starts a server in this process (or, for a game the Software-Challenge admin protocol can
watch, uses the one at --host/--port when something answers there), prepares every game
through the admin protocol with seats swapped every other game, runs each bot of each game
as a child process through `server.launcher` (a bundled or Python kit bot as `python -m
<the game's kit> SPEC`, `GamePlugin.kit`; any other program from its command line) or, for
a game's bundled in-process bot, in the server itself; takes each game's result from the
server, shows a progress bar with the running score and prints wins/draws/losses, mean
points and why each bot lost.

Ctrl-C once: no new game starts, the running ones end as aborted, the finished ones are
printed (and written to --json). Ctrl-C twice: the bots are killed and `play` exits.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from server.commands.common import command_settings, env_help
from server.commands.root import app
from server.commands.seating import (
    INTERRUPTED,
    bundled_names,
    interrupts,
    labels_of,
    plugin_named,
    seat_of,
    usage_error,
)
from server.config import PASSWORD_ENV, PASSWORD_FILE, ServerConfig, find_admin_password
from server.settings import DEFAULTS, Settings


@app.command()
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(
        help="The game: blokus, hearth, or another installed game's id or alias.")],
    bot_a: Annotated[str, typer.Argument(
        help="First bot: random, greedy (hearth: hearth-random, hearth-greedy), "
        "package.module:Class, file.py:Class, or a command "
        "line (\"cmd:./my_bot --flag\", or any text with a space: \"java -jar p.jar\"); "
        "--host --port are appended, the reservation is in $GAUNTLET_RESERVATION.")],
    bot_b: Annotated[str, typer.Argument(help="Second bot (same forms).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=100_000,
                                       help="Number of games.")] = 200,
    seed: Annotated[int | None, typer.Option(
        help="Seed for the bots and (in-process server) the start pieces.")] = None,
    concurrency: Annotated[int | None, typer.Option(
        "--concurrency", "-c", min=1, max=200,
        help="Games played at the same time (default: 4 for two bundled bots, else 1: bots "
        "that search share this machine's cores, and their clocks run).")] = None,
    host: Annotated[str, typer.Option(
        "--host", "-h", help=env_help("host", "Server address."))] = DEFAULTS.host,
    port: Annotated[int | None, typer.Option(
        "--port", "-p", min=0, max=65535,
        help="Use the server on this port if one answers, else start one there.")] = None,
    admin_password: Annotated[str | None, typer.Option(
        "--admin-password", help=f"Admin password of a running server (default: "
        f"${PASSWORD_ENV}, else <data-dir>/{PASSWORD_FILE}).")] = None,
    data_dir: Annotated[Path, typer.Option(help=env_help(
        "data_dir", "Data folder of a running server (for its admin password)."))]
    = DEFAULTS.data_dir,
    no_timeout: Annotated[bool, typer.Option(
        "--no-timeout/--timeout",
        help=env_help("no_timeout", "In-process server: disable the move clocks."))]
    = DEFAULTS.no_timeout,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Also write every game and the summary to this JSON file.")] = None,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Log server events; list every loss's cause, not the first.")]
    = False,
    deck1: Annotated[str | None, typer.Option(
        "--deck1", help="Hearth: the first bot's deck, in every game: a class deck's name "
        "(mage, basic-warlock, ...), a deck code, or a file holding a deck code or card ids "
        "(the hero's among them).")] = None,
    deck2: Annotated[str | None, typer.Option(
        "--deck2", help="Hearth: the second bot's deck (same forms).")] = None,
) -> None:
    """Play a series of games between two bots and print who won."""
    settings = command_settings(ctx)
    if settings.soft_timeout > settings.hard_timeout:
        usage_error(f"the soft timeout ({settings.soft_timeout:g} s) is above the hard "
                     f"timeout ({settings.hard_timeout:g} s)")
    plugin = plugin_named(game)
    seats = [seat_of(plugin, spec) for spec in (bot_a, bot_b)]
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if not verbose:
        # A bot's crash is reported in the table, not as a log line across the progress bar.
        logging.getLogger("server.launcher").setLevel(logging.ERROR)
    labels = labels_of(bot_a, bot_b)
    decks = {label: _deck(plugin, option, spec)
             for label, option, spec in zip(labels, ("--deck1", "--deck2"), (deck1, deck2),
                                            strict=True)
             if spec is not None}
    if concurrency is None:
        concurrency = 4 if {bot_a, bot_b} <= bundled_names(plugin) else 1
    try:
        records, where, interrupted = asyncio.run(_play(
            bots=((labels[0], seats[0]), (labels[1], seats[1])), games=games, seed=seed,
            concurrency=concurrency, port=port, settings=settings, plugin=plugin,
            decks=decks,
        ))
    except _PlayError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    from server.series import summarise

    finished = [r for r in records if not r.aborted]
    summaries = summarise(records, labels)
    console = Console()
    console.print(_table(summaries, len(finished), where))
    _print_causes(records, verbose)
    for label in labels:
        failed_games = [r.failures[label] for r in finished if label in r.failures]
        if failed_games:
            first = failed_games[0].splitlines()[0]
            typer.echo(f"note: {label} stopped early in {len(failed_games)} game(s); first: "
                       f"{first}", err=True)
    failed = sum(1 for r in finished if r.error is not None)
    if json_out is not None:
        document: dict[str, Any] = {
            "game": plugin.game_id, "bots": list(labels), "seed": seed, "server": where,
            "interrupted": interrupted,
            "summary": [s.to_json() for s in summaries],
            "games": [r.to_json() for r in records],
        }
        json_out.write_text(json.dumps(document, indent=1), encoding="utf-8")
    if interrupted:
        aborted = len(records) - len(finished)
        typer.echo(f"interrupted: {len(finished)} game(s) finished, {aborted} aborted",
                   err=True)
        raise typer.Exit(INTERRUPTED)
    if failed:
        typer.echo(f"error: {failed} game(s) ended without a result; first: "
                   f"{next(r.error for r in finished if r.error)}", err=True)
        raise typer.Exit(1)


class _PlayError(Exception):
    pass


def _deck(plugin: Any, option: str, spec: str) -> Any:
    """`--deck1`/`--deck2` read by the game (`GamePlugin.read_deck`): a file's text, else
    the text itself; a usage error naming the option, the card and the rule."""
    if plugin.read_deck is None or plugin.use_deck is None:
        usage_error(f"{option}: {plugin.name} takes no decks")
    path = Path(spec)
    text = spec
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            usage_error(f"{option}: cannot read {spec}: {error}")
    try:
        return plugin.read_deck(text)
    except ValueError as error:
        usage_error(f"{option}: {error}")


def _external_password(settings: Settings) -> str:
    """The admin password of a server already running: never a new one."""
    preset = settings.admin_password.get_secret_value() if settings.admin_password else None
    password = find_admin_password(preset, settings.data_dir, create=False)
    if password is None:
        raise _PlayError(f"a server runs there but its admin password is unknown: pass "
                         f"--admin-password, set {PASSWORD_ENV} or --data-dir "
                         f"(no {settings.data_dir / PASSWORD_FILE})")
    return password


async def _play(*, bots: tuple[tuple[str, Any], tuple[str, Any]], games: int,
                seed: int | None, concurrency: int, port: int | None, settings: Settings,
                plugin: Any, decks: dict[str, Any] | None = None
                ) -> tuple[list[Any], str, bool]:
    from server.runtime import GauntletServer
    from server.series import InProcessSeat, LocalRooms, SeriesError, reachable, run_series

    host = settings.host
    stop = asyncio.Event()
    interrupts(stop)
    labels = (bots[0][0], bots[1][0])
    # The admin protocol observes the rooms of a game that speaks it; any other game's
    # rooms (and bots that play in the server's process) need our own server.
    observable = plugin.speaks("sc")
    in_process = any(isinstance(seat, InProcessSeat) for _label, seat in bots)

    async def series(server_port: int, password: str, server: Any = None) -> list[Any]:
        local = None if server is None else LocalRooms(server.lobby, decks, plugin.use_deck)
        with _progress(games, labels) as progress:
            return await run_series(
                bots, games, host=host, port=server_port, password=password,
                concurrency=concurrency, seed=seed, on_game=progress.advance, stop=stop,
                game_type=plugin.game_id, explain=plugin.explain,
                watch_room=None if local is None or observable else local.watch_room,
                join=None if local is None else local.join,
                prepare_room=None if local is None or not decks else local.prepare_room,
            )

    try:
        if port is not None and await asyncio.to_thread(reachable, host, port):
            if decks:
                raise _PlayError(f"something answers on {host}:{port}: a series with "
                                 "--deck1/--deck2 runs its own server; leave out --port")
            if not observable or in_process:
                why = (f"{plugin.name} bots that play in the server's process"
                       if observable else f"a {plugin.name} series")
                raise _PlayError(f"something answers on {host}:{port}: {why} runs its own "
                                 f"server; leave out --port or pick a free one")
            password = _external_password(settings)
            return await series(port, password), f"{host}:{port}", stop.is_set()
        # Our own server: a fresh password, and a free port unless --port names one.
        config = ServerConfig.from_settings(settings, tcp_port=port or 0, seed=seed,
                                            admin_password=secrets.token_urlsafe(18))
        try:
            async with GauntletServer(config) as server:
                where = f"in-process {host}:{server.tcp_port}"
                records = await series(server.tcp_port, config.resolve_admin_password(),
                                       server)
                return records, where, stop.is_set()
        except OSError as error:
            raise _PlayError(f"cannot start a server on {host}:{port}: {error}") from None
    except SeriesError as error:
        raise _PlayError(str(error)) from None


class _progress:
    """A rich progress bar on stderr (stdout carries only the table): score and ETA."""

    def __init__(self, total: int, labels: tuple[str, str]) -> None:
        self.progress = Progress(
            TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.description}"), TimeElapsedColumn(), TextColumn("eta"),
            TimeRemainingColumn(), console=Console(stderr=True), transient=False,
        )
        self.total = total
        self.labels = labels
        self.score = {label: 0 for label in labels}
        self.draws = 0
        self.task: Any = None

    def __enter__(self) -> _progress:
        self.progress.start()
        self.task = self.progress.add_task(self._text(), total=self.total)
        return self

    def advance(self, record: Any) -> None:
        if record.error is None and not record.aborted:
            if record.winner is None:
                self.draws += 1
            else:
                self.score[record.winner] += 1
        self.progress.update(self.task, advance=1, description=self._text())

    def _text(self) -> str:
        a, b = self.labels
        return f"{a} {self.score[a]}:{self.score[b]} {b}, {self.draws} drawn"

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()


def _causes_text(causes: dict[str, int]) -> str:
    from server.series import CAUSES

    order = [c for c in CAUSES if c in causes] + sorted(set(causes) - set(CAUSES))
    return ", ".join(f"{causes[c]} {c.replace('_', ' ')}" for c in order) or "-"


def _table(summaries: list[Any], games: int, where: str) -> Table:
    # A light box keeps all columns readable in 80 columns (pipes, CI logs).
    plural = "" if games == 1 else "s"
    table = Table(title=f"{games} game{plural} on {where}, seats swapped every other game",
                  box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True,
                  caption="points: mean team points per game (a violator scores 0); "
                  "lost by: the losses a bot caused itself, by cause")
    for column in ("bot", "games", "wins", "draws", "losses", "points", "lost by", "as ONE"):
        if column == "bot":
            # A name is never cut: up to 20 characters it keeps its width, a longer one
            # folds onto the next lines, whole.
            longest = max((len(s.label) for s in summaries), default=3)
            table.add_column(column, overflow="fold", min_width=min(longest, 20))
        else:
            table.add_column(column, justify="left" if column == "lost by" else "right",
                             no_wrap=True)
    for s in summaries:
        table.add_row(s.label, str(s.games), str(s.wins), str(s.draws), str(s.losses),
                      f"{s.mean_points:.1f}", _causes_text(s.causes), str(s.as_team_one))
    return table


def _print_causes(records: list[Any], verbose: bool) -> None:
    """Below the table: the first game lost by each (bot, cause), with its evidence."""
    seen: set[tuple[str, str]] = set()
    lines: list[str] = []
    for record in records:
        if record.aborted or record.category is None or record.violator is None:
            continue
        key = (record.violator, record.category)
        if key in seen and not verbose:
            continue
        seen.add(key)
        detail = (record.detail or "").strip()
        if not detail:
            # Only the server's official (German) reason text: say that it is one.
            detail = f'official text: "{record.reason.strip()}"'
        lines.append(f"game {record.index}: {record.violator} lost by "
                     f"{record.category.replace('_', ' ')}: {_tail(detail, verbose)}")
    if lines:
        heading = "Why bots lost" + ("" if verbose else " (first of each; -v lists all)")
        typer.echo(f"\n{heading}:")
        for line in lines:
            typer.echo(f"- {line}")


def _tail(text: str, verbose: bool, lines: int = 12) -> str:
    """At most the last `lines` lines (a traceback's end says most), indented."""
    rows = text.splitlines()
    if not verbose and len(rows) > lines:
        rows = ["...", *rows[-lines:]]
    return "\n    ".join(rows)
