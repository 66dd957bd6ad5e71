"""A launched bot's stderr by move (issue #29): each line stamped with the decision it came
in, bounded per move and per seat, with CPU time and peak memory per decision. Real
processes (tests/server/launcher/stamp_bot.py) talking over a real socket: the test plays
the room, opening a decision, sending the bot its command and waiting for its answer."""

from __future__ import annotations

import asyncio
import doctest
import importlib
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.launcher import BotProcess, BotSpec, launch
from server.launcher.moves import LINE_BYTES, LINE_LIMIT, MoveLog, move_text

STAMP_BOT = str(Path(__file__).with_name("stamp_bot.py"))
RESERVATION = "res-5e3c1a"
LINUX = os.path.isdir("/proc/self/task")

pytestmark = pytest.mark.timeout(60)


@dataclass
class Seat:
    """The test's side of one launched bot: its process and its connection."""

    proc: BotProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    seq: int = 0

    async def send(self, command: str) -> None:
        self.writer.write(command.encode() + b"\n")
        await self.writer.drain()
        assert await self.reader.readline() == b"done\n"

    async def decide(self, command: str, think: float = 0.05) -> None:
        """Open the seat's next decision, have the bot do `command`, apply its answer."""
        self.seq += 2
        self.proc.decision_opened(self.seq)
        await self.send(f"{command} {self.proc.moves.turn}")
        self.proc.decision_answered(think)


@pytest.fixture
async def seat() -> AsyncIterator[Seat]:
    connected: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = \
        asyncio.get_running_loop().create_future()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connected.set_result((reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    spec = BotSpec("stamp", "blokus", [sys.executable, STAMP_BOT])
    async with server, launch(spec, "127.0.0.1", port, RESERVATION) as proc:
        reader, writer = await asyncio.wait_for(connected, 30)
        proc.connected()
        yield Seat(proc, reader, writer)
        writer.close()


async def test_each_line_is_stamped_with_the_decision_it_came_in(seat: Seat) -> None:
    for _ in range(3):
        await seat.decide("move")
    await seat.send("say after the answer, before the next request")
    await seat.decide("quiet")
    moves = seat.proc.moves.moves()
    assert [m.turn for m in moves] == [0, 1, 2, 3, 4]
    assert moves[0].lines == ["hello from the start"] and moves[0].seq is None
    assert [m.lines for m in moves[1:]] == [
        ["move 1"], ["move 2"], ["move 3", "after the answer, before the next request"], []]
    assert [m.seq for m in moves[1:]] == [2, 4, 6, 8]
    assert all(m.think_ms == 50 and not m.truncated for m in moves[1:])
    assert move_text(moves[2]) == "move 2\n"


async def test_the_last_line_without_a_newline_is_kept(seat: Seat) -> None:
    await seat.decide("move")
    seat.proc.decision_opened(3)
    seat.writer.write(b"bye\n")
    await seat.proc.wait()
    seat.proc.match_ended()
    moves = seat.proc.moves.moves()
    assert moves[-1].lines == ["last words"] and moves[-1].turn == 2
    assert moves[-1].think_ms is None  # never answered


async def test_a_flood_is_cut_to_the_bounds_with_the_mark(seat: Seat) -> None:
    await seat.decide("flood")
    await seat.decide("long")
    await seat.decide("move")
    flood, long, after = seat.proc.moves.moves()[1:]
    assert len(flood.lines) == LINE_LIMIT and flood.lines[0] == "move 1"
    assert flood.lines[1:] == ["x" * 99] * (LINE_LIMIT - 1)
    assert flood.truncated and flood.dropped_lines == 20_000 - (LINE_LIMIT - 1)
    assert flood.dropped_bytes == flood.dropped_lines * 100
    assert move_text(flood).endswith(
        f"\n[... {flood.dropped_lines} lines ({flood.dropped_bytes} bytes) dropped ...]\n")
    # A line longer than LINE_BYTES keeps its start and says how much was cut.
    assert long.lines == ["move 2", "y" * LINE_BYTES + f" [... {5000 - LINE_BYTES} bytes cut ...]"]
    assert long.truncated and long.dropped_lines == 0
    assert after.lines == ["move 3"] and not after.truncated
    # The whole-log capture is bounded as before, and the stamped lines do not grow it.
    assert seat.proc.log.stderr.dropped > 0


async def test_the_reservation_is_cut_out_of_the_lines(seat: Seat) -> None:
    await seat.decide("secret")
    [_, line] = seat.proc.moves.moves()[1].lines
    assert line == "my code is ***" and RESERVATION not in line


@pytest.mark.skipif(not LINUX, reason="CPU and memory figures come from Linux's /proc")
async def test_cpu_time_and_peak_memory_are_per_decision(seat: Seat) -> None:
    await seat.decide("quiet")
    await seat.decide("burn")
    await seat.decide("alloc")
    await seat.decide("quiet")
    quiet, burn, alloc, after = seat.proc.moves.moves()[1:]
    assert all(m.cpu_ms is not None and m.peak_rss_kb is not None
               for m in (quiet, burn, alloc, after))
    assert burn.cpu_ms is not None and burn.cpu_ms >= 250  # the bot measured 300 ms
    assert quiet.cpu_ms is not None and quiet.cpu_ms < burn.cpu_ms
    assert alloc.peak_rss_kb is not None and alloc.peak_rss_kb >= 64 * 1024
    # The peak was reset when the next decision opened: the freed 64 MiB are not in it.
    assert after.peak_rss_kb is not None and after.peak_rss_kb < alloc.peak_rss_kb - 32 * 1024


# -- MoveLog alone ---------------------------------------------------------------------------


def test_however_the_bytes_are_split_the_lines_are_the_same() -> None:
    text = b"a\nbb\r\nccc\n" + b"z" * 3000 + b"\nlast\n"
    whole = MoveLog(line_limit=4)
    whole.opened(1)
    whole.feed(text)
    for size in (1, 2, 7):
        split = MoveLog(line_limit=4)
        split.opened(1)
        for i in range(0, len(text), size):
            split.feed(text[i:i + size])
        assert split.moves() == whole.moves(), size
    [move] = whole.moves()[1:]
    assert move.lines[:3] == ["a", "bb", "ccc"] and move.lines[3].endswith(" bytes cut ...]")
    assert move.dropped_lines == 1 and move.dropped_bytes == (3000 - LINE_BYTES) + 5


def test_a_seat_keeps_at_most_its_total_bytes() -> None:
    log = MoveLog(total_bytes=64 * 1024)
    for turn in range(1, 41):
        log.opened(turn)
        log.feed(b"".join(b"%03d " % turn + b"w" * 95 + b"\n" for _ in range(100)))
        log.answered(0.001)
    moves = log.moves()[1:]
    kept = sum(len(line) + 1 for m in moves for line in m.lines)
    assert kept <= 64 * 1024
    assert all(m.truncated for m in moves)
    assert moves[0].lines and not moves[-1].lines and moves[-1].dropped_lines == 100
    assert sum(m.dropped_lines + len(m.lines) for m in moves) == 40 * 100


def test_a_decision_the_game_moved_past_is_closed_by_the_next() -> None:
    log = MoveLog()
    log.opened(1)
    log.feed(b"one\n")
    log.opened(5)
    log.feed(b"two\n")
    log.answered(0.5)
    assert [(m.turn, m.lines, m.think_ms) for m in log.moves()] == [
        (0, [], None), (1, ["one"], None), (2, ["two"], 500)]


@pytest.mark.parametrize("name", ["server.launcher.moves", "server.launcher.usage"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
