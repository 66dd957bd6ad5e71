"""`gauntlet demo` (what `make run` starts): the server, a live match, then your bots.

It starts the match server, prepares a room with the admin protocol, watches it as an
observer while the bundled `greedy` (team ONE) and `random` (team TWO) bots play it over
TCP, draws the board as the observer's mementos arrive, prints the official result and then
keeps serving so that you can connect your own bot (`--once` stops after the demo match).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from games import blokus
from protocols.base import NEED_DATA, ConnectionClosed, StreamEnd
from protocols.sc import ClientConnection
from protocols.sc import messages as m
from server.commands.common import command_settings, env_help, run_server, stop_event
from server.commands.root import app
from server.config import ServerConfig
from server.ladder import LadderOptions
from server.settings import DEFAULTS

STYLES = {"BLUE": "bold blue", "YELLOW": "bold yellow", "RED": "bold red", "GREEN": "bold green"}
PLAYERS = {"ONE": "greedy", "TWO": "random"}
WAIT = 60.0  # no network wait of the demo may hang longer than this


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
        f"ONE ({PLAYERS['ONE']}) {points['ONE']}  TWO ({PLAYERS['TWO']}) {points['TWO']}\n"
        f"{what_happened(state)}"
    )


def what_happened(state: blokus.State) -> str:
    """The last move in words, for someone watching the demo."""
    move = state.last_move
    if move is None:
        return "waiting for the first move"
    if isinstance(move, blokus.SkipMove):
        return f"{move.color} passed"
    return f"{move.color} placed {move.kind} ({len(move.cells)} cells)"


# Moves a second while the demo is watched on a terminal (and in the browser viewer).
PACED_MOVES_PER_SECOND = 4.0

DEMO_LADDER_INTERVAL = 3.0
"""Seconds between two of the demo ladder's games at least, so that a night of `make run`
stays under 1 GB: at most 14,400 games in 12 hours, 31 KB each on average with the bots'
output, 45 KB with the largest matches measured: 0.44 GB, at worst 0.64 GB
(docs/benchmarks.md, "Stored bytes per match"; unpaced, the ladder played two games a
second on 2 cores)."""


def paced(bot: Any, moves_per_second: float) -> Any:
    """`bot`, thinking at least 1/moves_per_second per move, so that a person can follow."""
    from bots.blokus import Bot

    delay = 1.0 / moves_per_second

    class Paced(Bot):
        @property
        def name(self) -> str:
            return str(bot.name)

        def move(self, state: blokus.State) -> Any:
            time.sleep(delay)  # the kit calls move() in its own thread: the loop goes on
            return bot.move(state)

    return Paced()


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


class Observer:
    """An admin connection that observes one room: the spectator's side of the protocol."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.conn = ClientConnection()

    @classmethod
    async def watch(cls, port: int, password: str, room_id: str) -> Observer:
        async with asyncio.timeout(WAIT):
            observer = cls(*await asyncio.open_connection("127.0.0.1", port))
            observer.writer.write(observer.conn.send(m.Authenticate(password)))
            observer.writer.write(observer.conn.send(m.Observe(room_id)))
            await observer.writer.drain()
            while not isinstance(await observer.next(), m.Observed):
                pass
        return observer

    async def next(self) -> object:
        while (event := self.conn.next_event()) is NEED_DATA:
            async with asyncio.timeout(WAIT):
                data = await self.reader.read(65536)
            self.conn.receive_data(data)
        if isinstance(event, m.ErrorPacket | StreamEnd | ConnectionClosed):
            raise RuntimeError(f"the demo observer was refused: {event}")
        return event

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            self.writer.write(self.conn.send(m.Close()) + self.conn.close())
            self.writer.close()
            await self.writer.wait_closed()


async def play_demo_match(port: int, password: str, seed: int, console: Console,
                          animate: bool) -> tuple[blokus.State, m.Result]:
    """One greedy-vs-random match over TCP, drawn from what an observer receives."""
    from bots.blokus import GreedyBot, RandomBot
    from bots.blokus.aio import play_async
    from server.series import AdminClient

    admin = await AdminClient.connect("127.0.0.1", port, password)
    prepared = await admin.prepare(("greedy", "random"))
    observer = await Observer.watch(port, password, prepared.room_id)
    bots = [
        asyncio.create_task(play_async(bot, "127.0.0.1", port, code))
        for bot, code in zip(
            [paced(b, PACED_MOVES_PER_SECOND) if animate else b
             for b in (GreedyBot(seed), RandomBot(seed))],
            prepared.reservations, strict=True)
    ]
    state: blokus.State | None = None
    result: m.Result | None = None
    with Live(console=console, auto_refresh=False) as live:
        while result is None:
            event = await observer.next()
            if isinstance(event, m.Memento):
                state = event.state
                if animate:
                    live.update(Group(board_view(state), status_line(state)), refresh=True)
            elif isinstance(event, m.Result):
                result = event
        assert state is not None
        live.update(Group(board_view(state), status_line(state)), refresh=True)
    await asyncio.gather(*bots)
    await observer.close()
    await admin.close()
    return state, result


async def start_ladder(server: object, console: Console) -> None:
    """Run the ladder for every game with two registered bots (the bundled ones)."""
    from server.runtime import GauntletServer

    assert isinstance(server, GauntletServer)
    ladder = server.ladder
    if ladder is None:
        return
    started = []
    for game in ladder.ladder_games():
        if len(await asyncio.to_thread(ladder.store.list_bots, game=game)) >= 2:
            await ladder.set_running(game, True)
            started.append(game)
    if started:
        console.print(f"The ladder plays {', '.join(started)} ({ladder.concurrency} matches "
                      f"at a time): standings at [bold]http://127.0.0.1:{server.http_port}"
                      f"/api/ladder/{started[0]}[/], or `gauntlet ladder status`.")


async def _demo(config: ServerConfig, seed: int, once: bool, animate: bool,
                ladder: LadderOptions | None = None) -> None:
    from server.runtime import GauntletServer
    from server.store import Store

    console = Console()
    animate = animate and console.is_terminal
    stop = stop_event()
    # A demo that keeps serving is the real server: matches stored, API and viewer up. A
    # single demo match (`--once`) stays in memory and needs no HTTP port.
    store = None if once else Store(config.db_url or DEFAULTS.database_url)
    try:
        async with GauntletServer(config, store=store, ladder=ladder) as server:
            port = server.tcp_port
            console.print(
                f"Gauntlet is serving the Software-Challenge protocol on 127.0.0.1:{port}.")
            if not once:
                console.print(f"Watch the matches at [bold]http://127.0.0.1:{server.http_port}/[/]"
                              " (HTTP API under /api, its docs at /docs).")
            console.print("Demo match: bundled [bold]greedy[/] (team ONE) against "
                          "[bold]random[/] (team TWO), watched as an observer.\n")
            password = server.config.resolve_admin_password()
            state, result = await play_demo_match(port, password, seed, console, animate)
            console.print()
            console.print(score_table(state))
            if result.winner is not None:
                console.print(result.winner.reason)
            if once:
                return
            if ladder is not None:
                await start_ladder(server, console)
            console.print(
                f"\nThe server keeps running. Connect your bot, e.g.\n"
                f"  gauntlet bot blokus-greedy -h 127.0.0.1 -p {port}   (twice, or with your own)\n"
                f"  gauntlet play blokus random greedy --games 20 --port {port}\n"
                f"Ctrl-C stops it."
            )
            await stop.wait()
    finally:
        if store is not None:
            store.close()


# The demo's own clients connect to the loopback address, so that is where it listens.
DEMO_HOST = "127.0.0.1"


@app.command()
def demo(
    ctx: typer.Context,
    tcp_port: Annotated[int, typer.Option(
        "--port", "-p", "--tcp-port",
        help=env_help("tcp_port", "TCP port for bots (0 = any free)."))]
    = DEFAULTS.tcp_port,
    http_port: Annotated[int, typer.Option(
        "--http-port", help=env_help("http_port", "HTTP API and viewer port (0 = any free)."))]
    = DEFAULTS.http_port,
    seed: Annotated[int, typer.Option(help="Seed of the start piece and of the bots.")] = 1,
    once: Annotated[bool, typer.Option("--once", help="Stop after the demo match.")] = False,
    animate: Annotated[bool, typer.Option(help="Redraw the board after every move.")] = True,
    ladder: Annotated[bool, typer.Option(
        "--ladder/--no-ladder",
        help="After the demo match, run the ladder over the registered bots of every game "
             "(not with --once).")] = True,
    data_dir: Annotated[Path, typer.Option(
        help=env_help("data_dir", "Data folder (the admin password)."))] = DEFAULTS.data_dir,
) -> None:
    """Start the server, play a live demo match over TCP, then keep serving your bots."""
    settings = command_settings(ctx)
    # The demo's admin connections need the password: the usual one (environment or stored
    # secret) when the server is for real, a throwaway one for a single demo match.
    overrides: dict[str, object] = {"host": DEMO_HOST, "seed": seed}
    if once:
        overrides["admin_password"] = secrets.token_urlsafe(18)
    else:
        overrides["http_port"] = settings.http_port
    config = ServerConfig.from_settings(settings, **overrides)
    options = (None if once or not ladder
               else LadderOptions(concurrency=settings.ladder_concurrency,
                                  min_interval=DEMO_LADDER_INTERVAL))
    run_server(_demo(config, seed, once, animate, options), DEMO_HOST, config.tcp_port,
               hint=" (try --port 0)")
