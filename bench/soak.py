"""A bounded soak: many concurrent matches of the bundled random bots over loopback.

The server runs in this process with a SQLite store (results are stored before they are
announced); the players run in `--client-procs` child processes (so that the server's CPU
and RSS are its own), as lightweight asyncio clients of the bot kits' sans-I/O sessions
(`bots.blokus.kit.BotSession`, `bots.hearth.kit.BotSession`, driven like the kits'
`aio.play_async`), not one process per bot. `--at-once` matches run side by side (Blokus
and Hearth alternating) until `--games` have been played.

Reported: games per second, server time per move (p50/p99 of `ServerStats`' per-move
samples, and the process's CPU over all moves), peak RSS of the server process, matches
that ended by a timeout, players that failed, and lost or duplicated results (results in
the store vs games played: must be zero).

Who is late. Every answer is stamped on both sides with `time.monotonic()` (one clock for
all processes of the machine): the server's room when the request's bytes were written
(the decision's clock starts) and when the answer's bytes were read; the client when it
read the request and when it wrote the answer. A timeout is "client late" when the answer
left the client after the limit (the client process, or the machine, was too slow), and
"server late" when it left in time and the server read it too late. Only server-late
timeouts are the server's (target: zero). Both event loops' lag is reported too (a task
sleeping 50 ms, its overshoot).

    .venv/bin/python -m bench.soak                       # 200 at once, 400 games
    .venv/bin/python -m bench.soak --at-once 50 --games 100 --client-procs 1
    make soak                                            # the same as the first line
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import os
import resource
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

PASSWORD = "soak"
GAMES = ("blokus", "hearth")
LAG_PERIOD = 0.05  # the loop-lag probe's sleep


def default_client_procs() -> int:
    """One player process per core: the players of 200 matches (400 bots, a thread each)
    cost about 60-80 % of the server's CPU per move, and one process of them answered late
    now and then (docs/benchmarks.md, "Soak")."""
    return max(1, os.cpu_count() or 1)


class LagProbe:
    """The event loop's lag: a task sleeping `LAG_PERIOD`, how late it wakes up."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(LAG_PERIOD)
            self.samples.append(time.monotonic() - before - LAG_PERIOD)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


class GcPauses:
    """Every garbage collection of this process, timed with `gc.callbacks`."""

    def __init__(self) -> None:
        # (generation, seconds, objects collected: cyclic garbage the pass freed)
        self.pauses: list[tuple[int, float, int]] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._started,
                                info["collected"]))

    def install(self) -> None:
        gc.callbacks.append(self._callback)

    def uninstall(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)

    def summary(self) -> str:
        """Per generation: collections, worst and total pause, cyclic garbage freed (all
        passes, and the worst one's)."""
        parts = []
        for generation in (0, 1, 2):
            mine = [(s, c) for g, s, c in self.pauses if g == generation]
            if mine:
                worst = max(mine)
                parts.append(f"gen{generation} {len(mine)}x max {1000 * worst[0]:.1f} ms "
                             f"sum {1000 * sum(s for s, _ in mine):.0f} ms, freed "
                             f"{sum(c for _, c in mine)} objects ({worst[1]} by the worst)")
        return ", ".join(parts) or "none"


# ----------------------------------------------------------------------------- players
class _Session(Protocol):
    finished: bool

    def start(self) -> bytes: ...
    def receive_data(self, data: bytes) -> bytes: ...
    def abort(self) -> bytes: ...


async def _play(session: _Session, port: int, answers: list[tuple[float, float]]) -> None:
    """One player: the kits' `play_async` loop (the kit's step in a thread of the bot's
    own), stamping each answer: the bytes that asked for it read, the answer written."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    loop = asyncio.get_running_loop()
    thinker = ThreadPoolExecutor(max_workers=1)
    try:
        writer.write(session.start())
        await writer.drain()
        while not session.finished:
            async with asyncio.timeout(120):
                data = await reader.read(65536)
            got = time.monotonic()
            reply = await loop.run_in_executor(thinker, session.receive_data, data)
            if reply:
                writer.write(reply)
                answers.append((got, time.monotonic()))
                await writer.drain()
            elif not data:
                break
    except Exception:
        with contextlib.suppress(Exception):
            writer.write(session.abort())
        raise
    finally:
        thinker.shutdown(wait=False, cancel_futures=True)
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(2.0):
                await writer.wait_closed()


async def _one_game(kind: str, port: int, seed: int) -> dict[str, Any]:
    """Two players of one game; what each saw, and their answers' stamps by room."""
    stamps: list[list[tuple[float, float]]] = [[], []]
    if kind == "blokus":
        from bots.blokus.bundled import RandomBot as BlokusBot
        from bots.blokus.kit import BotSession as BlokusSession

        a, b = BlokusSession(BlokusBot(seed)), BlokusSession(BlokusBot(seed + 1))
        await asyncio.gather(_play(a, port, stamps[0]), _play(b, port, stamps[1]))
        if a.outcome is None or b.outcome is None:
            raise RuntimeError("the server ended the game without a result")
        return {"game": kind, "room": a.room_id, "answers": stamps[0] + stamps[1],
                "regular": [a.outcome.regular, b.outcome.regular],
                "cause": [a.outcome.cause, b.outcome.cause],
                "winner": [a.outcome.winner, b.outcome.winner]}
    from bots.hearth import RandomBot as HearthBot
    from bots.hearth.kit import BotSession as HearthSession

    c, d = HearthSession(HearthBot(seed)), HearthSession(HearthBot(seed + 1))
    await asyncio.gather(_play(c, port, stamps[0]), _play(d, port, stamps[1]))
    if c.outcome is None or d.outcome is None:
        raise RuntimeError("the server ended the game without a result")
    timeout = any("timeout" in o.reason.lower() for o in (c.outcome, d.outcome))
    return {"game": kind, "room": c.game_id, "answers": stamps[0] + stamps[1],
            "regular": [not timeout and c.outcome.winner is not None] * 2,
            "cause": ["TIMEOUT" if timeout else None] * 2,
            "winner": [c.outcome.winner, d.outcome.winner], "reason": c.outcome.reason}


async def _players(port: int, numbers: list[int], at_once: int) -> None:
    """A child process: `at_once` slots playing the games numbered `numbers`."""
    queue = list(reversed(numbers))
    outcomes: list[dict[str, Any]] = []
    probe = LagProbe()
    probe.start()

    async def slot() -> None:
        while queue:
            number = queue.pop()
            kind = GAMES[number % len(GAMES)]
            try:
                outcomes.append(await _one_game(kind, port, 2 * number))
            except Exception as error:  # a failed player is a finding, not a crash
                outcomes.append({"game": kind, "error": repr(error)})

    await asyncio.gather(*(slot() for _ in range(at_once)))
    probe.stop()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"outcomes": outcomes, "lag": probe.samples,
                      "cpu_s": usage.ru_utime + usage.ru_stime}))


# ----------------------------------------------------------------------------- server
def _percentile(samples: list[float], share: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _ms(samples: list[float]) -> str:
    """p50 / p99 / max in ms."""
    if not samples:
        return "-"
    return " / ".join(f"{1000 * _percentile(samples, q):.1f}" for q in (0.5, 0.99, 1.0))


class _Recorder:
    """Server-side stamps of every answer and every timeout, by room (bench-only hooks on
    `Room._answer` and `Room._lost`; the room's own logic is unchanged)."""

    def __init__(self) -> None:
        # room -> [(requested, arrived, handled)]
        self.answers: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        # (room, cause, requested, deadline for the cause, arrived or None, now)
        self.timeouts: list[tuple[str, str, float, float, float | None, float]] = []

    def install(self) -> None:
        from server.rooms import room as room_module
        from server.rooms.game import Clock
        from server.rooms.result import Cause

        recorder = self
        answer, lost = room_module.Room._answer, room_module.Room._lost

        async def _answer(self: room_module.Room, seat: int, move: Any, arrived: float) -> bool:
            opened = self._open.get(seat)
            if opened is not None:
                recorder.answers[self.id].append((opened.requested, arrived, time.monotonic()))
            return await answer(self, seat, move, arrived)

        async def _lost(self: room_module.Room, violation: Any) -> Any:
            opened = self._open.get(violation.seat) if violation.seat is not None else None
            if opened is not None and violation.cause in (Cause.SOFT_TIMEOUT,
                                                          Cause.HARD_TIMEOUT):
                soft = (violation.cause is Cause.SOFT_TIMEOUT
                        and opened.decision.clock is Clock.MOVE)
                limit = (opened.requested + self.clocks.soft if soft
                         else opened.deadline or opened.requested)
                mine = recorder.answers.get(self.id, [])
                # Judged on an answer (soft, or read in time but seen late), or on none.
                arrived = (mine[-1][1] if mine and mine[-1][0] == opened.requested
                           else None)
                recorder.timeouts.append((self.id, violation.cause.value, opened.requested,
                                          limit, arrived, time.monotonic()))
            return await lost(self, violation)

        room_module.Room._answer = _answer  # type: ignore[method-assign]
        room_module.Room._lost = _lost  # type: ignore[method-assign]


def _blame(recorder: _Recorder, outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """Join the server's and the clients' stamps; split every answer's time into its legs
    and every timeout into client late / server late."""
    sent_by_room: dict[str, list[tuple[float, float]]] = {}
    for outcome in outcomes:
        if outcome.get("room"):
            sent_by_room[outcome["room"]] = sorted(tuple(a) for a in outcome["answers"])

    def client_answer(room: str, requested: float) -> tuple[float, float] | None:
        """The client's first answer read after the request was written."""
        answers = sent_by_room.get(room, [])
        at = bisect.bisect_left(answers, (requested, 0.0))
        return answers[at] if at < len(answers) else None

    to_client: list[float] = []
    in_client: list[float] = []
    to_server: list[float] = []
    to_room: list[float] = []
    for room, answers in recorder.answers.items():
        for requested, arrived, handled in answers:
            found = client_answer(room, requested)
            # (the kernel's arrival stamp has its tick's resolution, 1-4 ms)
            if found is None or found[1] > arrived + 0.01:
                continue
            got, sent = found
            to_client.append(got - requested)
            in_client.append(sent - got)
            to_server.append(arrived - sent)
            to_room.append(handled - arrived)
    client_late = server_late = 0
    details = []
    for room, cause, requested, limit, seen, now in recorder.timeouts:
        found = client_answer(room, requested)
        written = found[1] if found is not None else None
        if written is None or written > limit:
            client_late += 1
            who = "client"
        else:
            server_late += 1
            who = "server"
        details.append({
            "who": who, "cause": cause,
            "client_read_ms": None if found is None else round(1000 * (found[0] - requested)),
            "client_sent_ms": None if written is None else round(1000 * (written - requested)),
            "arrival_stamp_ms": None if seen is None else round(1000 * (seen - requested)),
            "limit_ms": round(1000 * (limit - requested)),
            "judged_ms": round(1000 * (now - requested))})
    return {
        "answers_joined": len(to_client),
        "request_written_to_client_read_ms": _ms(to_client),
        "client_read_to_answer_written_ms": _ms(in_client),
        "answer_written_to_arrival_stamp_ms": _ms(to_server),
        "arrival_stamp_to_room_ms": _ms(to_room),
        "timeouts_client_late": client_late,
        "timeouts_server_late": server_late,
        "timeout_examples": details[:5],
    }


async def soak(games: int, at_once: int, client_procs: int,
               gc_tuned: bool = True) -> dict[str, Any]:
    from server.config import ServerConfig
    from server.runtime import GauntletServer, tune_gc
    from server.store import Store

    recorder = _Recorder()
    recorder.install()
    folder = Path(tempfile.mkdtemp(prefix="gauntlet-soak-"))
    db = folder / "soak.db"
    store = Store(f"sqlite:///{db}")
    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=folder)
    client_procs = max(1, min(client_procs, at_once))
    probe = LagProbe()
    pauses = GcPauses()
    try:
        async with GauntletServer(config, store=store) as server:
            if gc_tuned:
                tune_gc()  # as `gauntlet serve` does once started
            probe.start()
            pauses.install()
            cpu, wall = time.process_time(), time.perf_counter()
            loop_cpu = time.thread_time()
            children = [await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.soak", "--players", str(server.tcp_port),
                "--numbers", ",".join(str(n) for n in range(i, games, client_procs)),
                "--at-once", str(at_once // client_procs + (i < at_once % client_procs)),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                cwd=Path(__file__).parents[1]) for i in range(client_procs)]
            outputs = await asyncio.gather(*(child.communicate() for child in children))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            loop_cpu = time.thread_time() - loop_cpu
            probe.stop()
            pauses.uninstall()
            for child, (_, err) in zip(children, outputs, strict=True):
                if child.returncode != 0:
                    raise RuntimeError(f"players failed: {err.decode()[-2000:]}")
            if server.writer is not None:
                await server.writer.flush()
            finished = server.stats.matches_finished
            per_move = list(server.stats.move_processing_seconds)
    finally:
        store.close()
    reports = [json.loads(out) for out, _ in outputs]
    outcomes: list[dict[str, Any]] = [o for r in reports for o in r["outcomes"]]
    client_lag = [lag for r in reports for lag in r["lag"]]
    with sqlite3.connect(db) as connection:
        results = connection.execute("SELECT count(*) FROM results").fetchone()[0]
        distinct = connection.execute(
            "SELECT count(DISTINCT match_id) FROM results").fetchone()[0]
    played = sum(1 for o in outcomes if "error" not in o)
    timeouts = sum(1 for o in outcomes if "error" not in o
                   and any(c and "TIMEOUT" in str(c) for c in o["cause"]))
    moves = len(per_move)
    return {
        "games": games, "at_once": at_once, "client_procs": client_procs,
        "server_gc_settings": "tuned (server.runtime.tune_gc)" if gc_tuned else "Python's defaults",
        "load_average": " ".join(f"{x:.1f}" for x in os.getloadavg()), "played": played,
        "failed_players": [o["error"] for o in outcomes if "error" in o][:5],
        "wall_s": round(wall, 1), "games_per_s": round(played / wall, 2),
        "moves": moves,
        "server_ms_per_move_p50": round(1000 * _percentile(per_move, 0.5), 3),
        "server_ms_per_move_p99": round(1000 * _percentile(per_move, 0.99), 3),
        "server_process_cpu_ms_per_move": round(1000 * cpu / max(moves, 1), 3),
        "server_loop_thread_cpu_ms_per_move": round(1000 * loop_cpu / max(moves, 1), 3),
        "server_gc": pauses.summary(),
        "client_procs_cpu_ms_per_move": round(
            1000 * sum(r["cpu_s"] for r in reports) / max(moves, 1), 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "server_loop_lag_ms_p50_p99_max": _ms(probe.samples),
        "client_loop_lag_ms_p50_p99_max": _ms(client_lag),
        "timeouts": timeouts,
        "timeouts_by_game": {kind: sum(1 for o in outcomes if o.get("game") == kind
                                       and "error" not in o
                                       and any(c and "TIMEOUT" in str(c) for c in o["cause"]))
                             for kind in GAMES},
        **_blame(recorder, outcomes),
        "matches_finished": finished,
        "results_stored": results,
        "lost_results": max(0, played - results),
        "duplicated_results": results - distinct + max(0, results - played),
        "mean_per_move_ms": round(1000 * statistics.fmean(per_move), 3) if per_move else 0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--at-once", type=int, default=200)
    parser.add_argument("--client-procs", type=int, default=default_client_procs(),
                        help="player processes (default: %(default)s, one per core)")
    parser.add_argument("--gc", choices=("tuned", "default"), default="tuned",
                        help="the server's garbage collector: as `gauntlet serve` sets it "
                             "(server.runtime.tune_gc) or Python's defaults")
    parser.add_argument("--players", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--numbers", help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else sys.argv[1:]
                             if __name__ == "__main__" else [])
    if args.players is not None:
        numbers = [int(n) for n in args.numbers.split(",") if n]
        asyncio.run(_players(args.players, numbers, args.at_once))
        return
    figures = asyncio.run(soak(args.games, args.at_once, args.client_procs,
                                args.gc == "tuned"))
    for name, value in figures.items():
        print(f"{name}: {value}")
    ok = (figures["lost_results"] == 0 and figures["duplicated_results"] == 0
          and not figures["failed_players"] and figures["timeouts_server_late"] == 0)
    print("soak:", "OK" if ok else "FAILED")
    if not ok and __name__ == "__main__":
        sys.exit(1)


if __name__ == "__main__":
    main()
