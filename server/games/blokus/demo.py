"""Blokus in the terminal, for `gauntlet demo` (what `make run` starts): one live match of
the bundled bots over TCP, drawn from what an admin observer receives (`GamePlugin.demo`).

The bundled `greedy` (team ONE) and `random` (team TWO) play through the bot kit
(`bots.blokus`); the board is redrawn after every memento and the official result printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from games import blokus
from protocols.base import NEED_DATA, ConnectionClosed, StreamEnd
from protocols.sc import ClientConnection
from protocols.sc import messages as m

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


class BlokusDemo:
    """`GamePlugin.demo` (`server.games.registry.TerminalDemo`) for Blokus."""

    intro = ("Demo match: bundled [bold]greedy[/] (team ONE) against [bold]random[/] "
             "(team TWO), watched as an observer.")
    bots = ("greedy", "random")

    async def play(self, port: int, password: str, seed: int, console: Console,
                   animate: bool) -> str:
        """The demo match, drawn on `console`, then its result table; the result's reason."""
        state, result = await play_demo_match(port, password, seed, console, animate)
        console.print()
        console.print(score_table(state))
        return result.winner.reason if result.winner is not None else ""
