"""What recording every match costs the server: CPU per move and event-loop lag, store on/off.

Two measurements, each with the store off and on in the same run (SQLite file in a
temporary folder, the real `GauntletServer` wiring: the recorder's `MatchLog` listener,
spectator frames on the loop, entries queued unrendered and rendered by `StoreWriter` on
its own thread, committed in groups):

1. **Server CPU per Blokus move** over real TCP (the `bench.sc_server` phase: the free bots
   of `bench.free_bots` in a child process, this process's CPU time over the moves, writer thread
   included; the loop thread's and the writer thread's shares are shown too). Phases
   alternate off/on/off/on: each round's on/off ratio compares two phases run seconds
   apart, so the host's drift (±30 % within minutes on shared VMs) mostly cancels; the
   median of the rounds' ratios is the figure (target: at most 1.2x), their range is
   shown beside it. Twenty-four rounds: single rounds range from 0.8x to 1.8x on these
   hosts, and with twelve the medians of runs in a row at one commit still spread over
   0.09 (1.13x-1.22x; with six: 1.03x-1.33x; docs/benchmarks.md, "Store"). Each phase
   also shows the groups the writer committed, and the run how long results waited for
   their commit before being announced (the price of the writer's `commit_delay`).
2. **Event-loop lag while 100 matches write events at once**: 100 Blokus rooms in this
   process, each seat an in-process player that answers its move requests after a think
   time (so the loop has idle time, as with real bots); a task sleeps 1 ms in a loop and
   records how late it wakes. p50/p99/max of the overshoot, store off and on (target: p99
   under 5 ms with the store on).

    .venv/bin/python -m bench.store
    .venv/bin/python -m bench.store --games 20 --matches 100 --think-ms 40

The lag's seats think 200 ms a move by default (a tenth of the Software-Challenge move
clock that real bots use most of): 100 matches then ask for about 500 moves a second and
the process is busy about a third of the time, so the lag says what the store adds. With
`--think-ms 40` the matches alone saturate the loop (CPU/wall near 100 %) and the lag is
the loop's own queue, about as high with the store off as on.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.sc_server import PASSWORD, ROOT, Phase, _percentile, _phase, warm_up
from server.store.writer import COMMIT_DELAY

# --- 1. CPU per move over TCP ----------------------------------------------------------


def _thread_cpu(thread: threading.Thread | None) -> float:
    """CPU seconds a live thread has used (0 when it is gone or unknown)."""
    if thread is None or thread.ident is None or not thread.is_alive():
        return 0.0
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    except (OSError, AttributeError):
        return 0.0


@dataclass(frozen=True)
class CpuPhase:
    phase: Phase
    committed: int
    groups: int  # transactions the writer committed
    loop_ms_per_move: float  # the event loop's thread
    writer_ms_per_move: float  # the store writer's thread
    result_waits: list[float]  # seconds each result waited for its commit


async def _cpu_phase(store_on: bool, games: int, concurrency: int, seed: int,
                     folder: Path) -> CpuPhase:
    from server.config import ServerConfig
    from server.runtime import GauntletServer, tune_gc
    from server.store import Store

    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=ROOT / "data")
    store = Store(f"sqlite:///{folder / f'cpu-{time.monotonic_ns()}.db'}") if store_on else None
    try:
        async with GauntletServer(config, store=store) as server:
            tune_gc()  # as `gauntlet serve` does once started
            writer_thread = server.writer._thread if server.writer is not None else None
            loop_cpu, writer_cpu = time.thread_time(), _thread_cpu(writer_thread)
            phase = await _phase(server, games, concurrency, seed)
            loop_cpu = time.thread_time() - loop_cpu
            writer_cpu = _thread_cpu(writer_thread) - writer_cpu
            if server.writer is not None:
                await server.writer.flush()
            committed = server.writer.stats.committed_events if server.writer else 0
            groups = server.writer.stats.groups if server.writer else 0
            waits = list(server.stats.result_store_seconds)
    finally:
        if store is not None:
            store.close()
    moves = max(phase.moves, 1)
    return CpuPhase(phase, committed, groups, loop_cpu / moves * 1000,
                    writer_cpu / moves * 1000, waits)


# --- 2. event-loop lag with 100 matches ------------------------------------------------


class ThinkingPlayer:
    """An in-process seat: answers each move request with a random legal move after a
    think time (a timer, not a busy loop: the event loop stays free meanwhile)."""

    def __init__(self, seed: int, think: float) -> None:
        self.rng = random.Random(seed)
        self.think = think
        self.state: Any = None
        self.done = asyncio.Event()

    async def send_room_event(self, room: Any, seat: int, entry: Any) -> float | None:
        from server.rooms import DecisionRequested, RoomClosed, StateChanged

        event = entry.event
        if isinstance(event, StateChanged):
            self.state = event.views.of(seat)
        elif isinstance(event, DecisionRequested):
            delay = self.think * (0.5 + self.rng.random())
            asyncio.get_running_loop().call_later(delay, self._answer, room)
        elif isinstance(event, RoomClosed):
            self.done.set()
        return time.monotonic()

    def _answer(self, room: Any) -> None:
        if room.closed:
            return
        move = self.rng.choice(list(self.state.legal_moves()))
        room.submit(self, move, time.monotonic())


async def _lag_monitor(samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        samples.append(time.perf_counter() - start - 0.001)


@dataclass(frozen=True)
class LagPhase:
    label: str
    matches: int
    seconds: float
    moves: int
    events_committed: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    cpu_ms_per_move: float
    cpu_seconds: float = 0.0

    @property
    def busy(self) -> float:
        """The process's CPU over the wall time: near 1, the loop is saturated and its
        lag is its own queue, whatever the store does."""
        return self.cpu_seconds / self.seconds if self.seconds else 0.0


async def _lag_phase(store_on: bool, matches: int, think: float, seed: int,
                     folder: Path) -> LagPhase:
    from server.config import ServerConfig
    from server.rooms import SlotRequest
    from server.runtime import GauntletServer, tune_gc
    from server.store import Store

    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=ROOT / "data",
                          no_timeout=True)
    store = Store(f"sqlite:///{folder / f'lag-{time.monotonic_ns()}.db'}") if store_on else None
    try:
        async with GauntletServer(config, store=store) as server:
            tune_gc()
            server.stats.move_processing_seconds.clear()
            players: list[ThinkingPlayer] = []
            lobby = server.lobby
            for i in range(matches):
                _room, codes = lobby.prepare("swc_2027_blokus",
                                             [SlotRequest("a"), SlotRequest("b")], False,
                                             seed=seed + i)
                for j, code in enumerate(codes):
                    player = ThinkingPlayer(seed * 1000 + 2 * i + j, think)
                    players.append(player)
                    lobby.seated(lobby.join_prepared(player, code, "sc"))
            await asyncio.sleep(0)
            samples: list[float] = []
            stop = asyncio.Event()
            monitor = asyncio.create_task(_lag_monitor(samples, stop))
            cpu, start = time.process_time(), time.perf_counter()
            await asyncio.gather(*(p.done.wait() for p in players))
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            stop.set()
            await monitor
            moves = len(server.stats.move_processing_seconds)
            committed = 0
            if server.writer is not None:
                await server.writer.flush()
                committed = server.writer.stats.committed_events
    finally:
        if store is not None:
            store.close()
    label = "on" if store_on else "off"
    return LagPhase(label, matches, seconds, moves, committed,
                    _percentile(samples, 0.5) * 1000, _percentile(samples, 0.99) * 1000,
                    max(samples, default=0.0) * 1000,
                    cpu / moves * 1000 if moves else 0.0, cpu)


# --- report ----------------------------------------------------------------------------


def _cpu_table(rounds: list[tuple[CpuPhase, CpuPhase]]) -> tuple[str, list[float]]:
    """The phases as a table, and each round's on/off ratio."""
    lines = ["| round | store | games | moves | server CPU ms/move | of it: loop | writer "
             "| server ms/move p50 | p99 | events committed | groups | on/off |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    ratios: list[float] = []
    for i, (off, on) in enumerate(rounds, 1):
        ratio = on.phase.cpu_ms_per_move / off.phase.cpu_ms_per_move \
            if off.phase.cpu_ms_per_move else 0.0
        ratios.append(ratio)
        for label, c in (("off", off), ("on", on)):
            phase = c.phase
            lines.append(f"| {i} | {label} | {phase.games} | {phase.moves} "
                         f"| {phase.cpu_ms_per_move:.2f} | {c.loop_ms_per_move:.2f} "
                         f"| {c.writer_ms_per_move:.2f} | {phase.p50_ms:.2f} "
                         f"| {phase.p99_ms:.2f} | {c.committed} | {c.groups} "
                         f"| {f'{ratio:.2f}x' if label == 'on' else ''} |")
    return "\n".join(lines), ratios


def _lag_table(phases: list[LagPhase]) -> str:
    lines = ["| store | matches at once | moves | events committed | wall s | loop lag p50 ms "
             "| p99 ms | max ms | CPU ms/move | CPU/wall |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in phases:
        lines.append(f"| {p.label} | {p.matches} | {p.moves} "
                     f"| {p.events_committed} | {p.seconds:.1f} | {p.p50_ms:.2f} "
                     f"| {p.p99_ms:.2f} | {p.max_ms:.2f} | {p.cpu_ms_per_move:.3f} "
                     f"| {p.busy:.0%} |")
    return "\n".join(lines)


async def _run(args: argparse.Namespace, folder: Path) -> None:
    if args.part in ("all", "cpu"):
        await _run_cpu(args, folder)
    if args.part in ("all", "lag"):
        await _run_lag(args, folder)


async def _run_cpu(args: argparse.Namespace, folder: Path) -> None:
    warm_up(args.seed)
    rounds = []
    for i in range(args.rounds):
        off = await _cpu_phase(False, args.games, args.concurrency, args.seed + i, folder)
        on = await _cpu_phase(True, args.games, args.concurrency, args.seed + i, folder)
        rounds.append((off, on))
    table, ratios = _cpu_table(rounds)
    print(f"Server CPU per Blokus move over TCP, store off vs on ({args.games} games, "
          f"{args.concurrency} at once, bots in a child process):\n")
    print(table)
    ratio = statistics.median(ratios)
    verdict = "met" if ratio <= 1.2 else "MISSED"
    print(f"\nStore on / off, server CPU per move, median of the {len(ratios)} rounds' "
          f"ratios: {ratio:.3f}x (from {min(ratios):.2f}x to {max(ratios):.2f}x; target "
          f"<= 1.2x: {verdict})")
    waits = [w for _, on in rounds for w in on.result_waits]
    print(f"Results waited for their commit before being announced: p50 "
          f"{_percentile(waits, 0.5) * 1000:.1f} ms, p99 {_percentile(waits, 0.99) * 1000:.1f} "
          f"ms ({len(waits)} results; a result waits up to {COMMIT_DELAY * 1000:.0f} ms "
          "for other matches' writes)\n")


async def _run_lag(args: argparse.Namespace, folder: Path) -> None:
    warm_up(args.seed)
    think = args.think_ms / 1000
    lag = [await _lag_phase(False, args.matches, think, args.seed, folder),
           await _lag_phase(True, args.matches, think, args.seed, folder)]
    print(f"Event-loop lag (a task sleeping 1 ms, overshoot) while {args.matches} Blokus "
          f"matches play in this process, in-process seats thinking about "
          f"{args.think_ms:.0f} ms per move:\n")
    print(_lag_table(lag))
    lag_on = lag[1]
    verdict = "met" if lag_on.p99_ms < 5.0 else "MISSED"
    print(f"\nStore on: loop lag p99 {lag_on.p99_ms:.2f} ms (target < 5 ms: {verdict}); "
          f"{lag_on.events_committed / lag_on.seconds if lag_on.seconds else 0:.0f} "
          "events/s committed.")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per CPU phase")
    parser.add_argument("--concurrency", type=int, default=10,
                        help="games at once in the CPU phases")
    parser.add_argument("--rounds", type=int, default=24, help="off/on pairs of CPU phases")
    parser.add_argument("--matches", type=int, default=100,
                        help="matches at once in the loop-lag phases")
    parser.add_argument("--think-ms", type=float, default=200.0,
                        help="in-process players' mean think time per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--part", choices=("all", "cpu", "lag"), default="all")
    args = parser.parse_args(argv if argv is not None else [])
    for name in ("games", "concurrency", "rounds", "matches"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    with tempfile.TemporaryDirectory(prefix="gauntlet-bench-store-") as folder:
        asyncio.run(_run(args, Path(folder)))


if __name__ == "__main__":
    main(sys.argv[1:])
