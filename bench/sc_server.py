"""The match server under load: Blokus over TCP with bots that cost nothing.

`make bench` (or `python -m bench sc_server`) starts a `GauntletServer` in this process and
plays full Blokus games against it over real TCP sockets with `bench.free_bots` in a child
process: each game prepared over the admin protocol, one connection per seat, each
`moveRequest` answered at once with a move computed before the clock started (the bots
never parse a memento). So the games per second are the server's, not the bots', and the
server has a core of its own (the bots' CPU is shown, and small).

Phases: 1, 10, 50 and 100 games at once (`--concurrency`) on one server, then 10 at once
on fresh servers with `--save-replays` off and on, alternately, three times each (what
replays cost is the median of the pairs' differences). Per phase:

- games/s: finished games over the wall time of the phase, measured by the bots;
- server CPU per move: this process's CPU time over the phase divided by the moves (one
  event-loop thread: 1 / this is the most moves per second one server can carry);
- server time per move p50/p99: `server.stats`, from a move's bytes being read to the next
  moveRequest (or the result) being written: rule check, apply, mementos to both players;
- bots CPU per move: the child's CPU over the same moves (both seats of every game);
- RSS after the phase: the server process's resident memory, and the games played so far.

The peer in the same run is our engine alone: the same kind of random games in one process
(`list(state.legal_moves())`, a seeded choice, `apply`), games/s. The ratio says how much
of a game's cost the wire, the codec and the rooms add. Then the bot kit's cost per move:
what a bot written with `bots.blokus` spends decoding each memento (the fast path: the last
state plus the lastMove, checked byte for byte; the full lxml parse beside it). Run::

    .venv/bin/python -m bench.sc_server                    # defaults
    .venv/bin/python -m bench.sc_server --games 100 --concurrency 1 10 50 100
    .venv/bin/python -m bench.sc_server --kit              # the memento costs alone
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-sc-server"
CHILD_TIMEOUT_S = 1800


@dataclass(frozen=True)
class Phase:
    concurrency: int
    games: int
    seconds: float
    moves: int
    p50_ms: float
    p99_ms: float
    cpu_ms_per_move: float
    bots_cpu_ms_per_move: float
    timeouts: int
    errors: int
    rss_mb: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


# --- the server side (this process) ----------------------------------------------------


def _rss_mb() -> float:
    """This process's resident memory now, MB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


async def _phase(server: Any, games: int, concurrency: int, seed: int) -> Phase:
    """`games` games, `concurrency` at once, against `server` with the free bots."""
    stats = server.stats
    stats.move_processing_seconds.clear()
    cpu = time.process_time()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.free_bots", "--port", str(server.tcp_port),
        "--password", PASSWORD, "--games", str(games), "--concurrency", str(concurrency),
        "--seed", str(seed), cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        async with asyncio.timeout(CHILD_TIMEOUT_S):
            out, err = await child.communicate()
    except TimeoutError:
        child.kill()
        await child.wait()
        raise RuntimeError("the bot process did not finish") from None
    cpu = time.process_time() - cpu
    if child.returncode != 0:
        raise RuntimeError(f"bot process failed ({child.returncode}): {err.decode()[-2000:]}")
    report = json.loads(out.decode().strip().splitlines()[-1])
    samples = list(stats.move_processing_seconds)
    moves = max(int(report["moves"]), 1)
    return Phase(
        concurrency=concurrency,
        games=report["games"],
        seconds=report["seconds"],
        moves=int(report["moves"]),
        p50_ms=_percentile(samples, 0.50) * 1000,
        p99_ms=_percentile(samples, 0.99) * 1000,
        cpu_ms_per_move=cpu / moves * 1000,
        bots_cpu_ms_per_move=report["cpu_seconds"] / moves * 1000,
        timeouts=0,
        errors=report["failed"],
        rss_mb=_rss_mb(),
    )


def _tune_gc() -> None:
    """`server.runtime.tune_gc`, as `gauntlet serve` calls it once started; nothing in a
    tree from before the GC was tuned (`bench.against` runs those)."""
    try:
        from server.runtime import tune_gc
    except ImportError:
        return
    tune_gc()


async def _server_phases(plan: list[tuple[int, int]], seed: int
                         ) -> list[tuple[str, Phase, int]]:
    """The phases of `plan` ((concurrency, games) each) on one server.
    Returns (label, phase, games played so far)."""
    from server.config import ServerConfig
    from server.runtime import GauntletServer

    found = []
    played = 0
    config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=ROOT / "data")
    async with GauntletServer(config) as server:
        _tune_gc()
        for concurrency, games in plan:
            phase = await _phase(server, games, concurrency, seed)
            played += phase.games
            found.append(("", phase, played))
    return found


async def fresh_phase(games: int, concurrency: int, seed: int, *, save_replays: bool = False,
                      room_seed: int | None = None) -> Phase:
    """One phase on a server of its own, its data and replays in a temporary folder
    (`room_seed`: the server's seed for its rooms, so that every run plays the same games)."""
    import tempfile

    from server.config import ServerConfig
    from server.runtime import GauntletServer

    with tempfile.TemporaryDirectory() as folder:
        config = ServerConfig(tcp_port=0, admin_password=PASSWORD, data_dir=Path(folder),
                              seed=room_seed, save_replays=save_replays,
                              replay_dir=Path(folder) / "replays")
        async with GauntletServer(config) as server:
            _tune_gc()
            return await _phase(server, games, concurrency, seed)


REPLAY_PAIRS = 3


async def _replay_pairs(concurrency: int, games: int, seed: int
                        ) -> tuple[list[tuple[str, Phase, int]], float]:
    """`--save-replays` off and on, each on a fresh server, alternately `REPLAY_PAIRS`
    times: a replay phase compared with the main phases (an older server, other
    concurrencies) or with one taken minutes apart measured the host's drift as much as
    the replays. Returns the median phase of each side (by server CPU per move) and the
    median of the pairs' differences, µs per move."""
    import statistics

    sides: dict[bool, list[Phase]] = {False: [], True: []}
    for pair in range(REPLAY_PAIRS):
        for save in ((False, True) if pair % 2 == 0 else (True, False)):
            sides[save].append(await fresh_phase(games, concurrency, seed, save_replays=save))
    rows = []
    for save, label in ((False, "fresh server"), (True, "--save-replays")):
        phases = sorted(sides[save], key=lambda p: p.cpu_ms_per_move)
        median = phases[len(phases) // 2]
        rows.append((label, median, median.games))
    differences = [on.cpu_ms_per_move - off.cpu_ms_per_move
                   for off, on in zip(sides[False], sides[True], strict=True)]
    return rows, statistics.median(differences) * 1000


def warm_up(seed: int) -> None:
    """Blokus builds its candidate tables lazily: build them before anything is timed.

    Without it the first phases built them: in `bench.store` the first rounds' store-off
    phases ran slower and their on/off ratios came out about 0.3x lower than later ones'.
    """
    from games import blokus

    rng = random.Random(seed)
    for piece in blokus.PENTOMINOES:
        state = blokus.new_game(piece)
        while not state.is_over:
            state.apply(rng.choice(list(state.legal_moves())))


def engine_only(games: int, seed: int) -> tuple[int, float]:
    """The peer: random vs random on our engine alone (what each bot does, minus the server)."""
    from bots.blokus import RandomBot
    from games import blokus

    pieces = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for game in range(games):
        state = blokus.new_game(pieces.choice(blokus.PENTOMINOES))
        bots = {"ONE": RandomBot(seed + 2 * game), "TWO": RandomBot(seed + 2 * game + 1)}
        while not state.is_over:
            state.apply(bots[state.current_team].move(state.clone()))
            moves += 1
    return moves, time.perf_counter() - start


def kit_decode(games: int, seed: int) -> tuple[float, float, int]:
    """The bot kit's cost per memento: µs to decode each memento of `games` random games as
    a client, with the fast path (the last state plus the lastMove, checked byte for byte)
    and with the full lxml parse; and the memento count."""
    from bots.blokus import RandomBot
    from games import blokus
    from protocols.base import NEED_DATA
    from protocols.sc import messages as m
    from protocols.sc.connection import ClientConnection, ServerConnection

    streams = []
    pieces = random.Random(seed)
    for game in range(games):
        server = ServerConnection()
        state = blokus.new_game(pieces.choice(blokus.PENTOMINOES))
        out = [server.send(m.Memento("room-1", state.clone()))]
        bot = RandomBot(seed + game)
        while not state.is_over:
            state.apply(bot.move(state.clone()))
            out.append(server.send(m.Memento("room-1", state.clone())))
        streams.append(out)
    count = sum(len(out) for out in streams)

    def run(fast: bool) -> float:
        start = time.process_time()
        for out in streams:
            client = ClientConnection()
            if not fast:
                client._decode_fast = lambda data: None  # type: ignore[method-assign]
                client._memento_ahead = lambda: None  # type: ignore[method-assign]
            for chunk in out:
                client.receive_data(chunk)
                while client.next_event() is not NEED_DATA:
                    pass
        return (time.process_time() - start) / count * 1e6

    return run(True), run(False), count


def memento_encoding(games: int, seed: int) -> tuple[float, float]:
    """µs of CPU per memento body over the states of `games` random games: the node tree
    (`encode_server` + render) and the bitboard writer the server uses (same bytes)."""
    from games import blokus
    from protocols.sc import messages as m
    from protocols.sc.codec import encode_server
    from protocols.sc.connection import memento_body, message_body

    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = blokus.new_game(rng.choice(blokus.PENTOMINOES))
        while not state.is_over:
            state.apply(rng.choice(list(state.legal_moves())))
            states.append(state.clone())
    figures = []
    for write in (lambda s: message_body(encode_server(m.Memento("r", s))),
                  lambda s: memento_body(m.Memento("r", s))):
        start = time.process_time()
        for state in states:
            write(state)
        figures.append((time.process_time() - start) / len(states) * 1e6)
    return figures[0], figures[1]


def report(phases: list[tuple[str, Phase, int]], peer_games: int, peer_seconds: float,
           peer_moves: int) -> str:
    peer_rate = peer_games / peer_seconds if peer_seconds else 0.0
    lines = [
        "| concurrent games | | games | games/s | vs engine only | server CPU ms/move "
        "| server ms/move p50 | p99 | bots CPU ms/move | RSS MB after | games so far |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, p, played in phases:
        ratio = p.games_per_second / peer_rate if peer_rate else 0.0
        lines.append(
            f"| {p.concurrency} | {label} | {p.games} | {p.games_per_second:.1f} | {ratio:.2f}x "
            f"| {p.cpu_ms_per_move:.3f} | {p.p50_ms:.3f} | {p.p99_ms:.3f} "
            f"| {p.bots_cpu_ms_per_move:.3f} | {p.rss_mb:.0f} | {played} |"
        )
    lines.append("")
    lines.append(
        f"Engine only (random games, no server, one process): {peer_games} games, "
        f"{peer_rate:.1f} games/s, {peer_moves / peer_games if peer_games else 0:.0f} "
        "moves/game.")
    errors = sum(p.errors for _, p, _ in phases)
    if errors:
        lines.append(f"{errors} game(s) ended without a result.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sc_server", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40,
                        help="games per phase (at least twice its concurrency are played)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 10, 50, 100],
                        help="games at once, one phase each")
    parser.add_argument("--replay-concurrency", type=int, default=10,
                        help="games at once in the --save-replays phase (0: no such phase)")
    parser.add_argument("--peer-games", type=int, default=20, help="engine-only games")
    parser.add_argument("--kit-games", type=int, default=6,
                        help="games whose mementos the bot kit decodes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uvloop", action="store_true",
                        help="run the server on uvloop's event loop (pip install uvloop)")
    parser.add_argument("--kit", action="store_true",
                        help="only the memento costs: the bot kit's decoding (fast path vs full "
                        "parse) and the server's encoding (node tree vs bitboard writer)")
    args = parser.parse_args(argv if argv is not None else [])
    if args.kit:
        fast, full = kit_decode(args.kit_games, args.seed)[:2]
        print(f"bot kit, per memento over {args.kit_games} games: {fast:.0f} µs with the fast "
              f"path, {full:.0f} µs with the full parse (CPU)")
        tree, writer = memento_encoding(args.kit_games, args.seed)
        print(f"server, per memento body: {tree:.0f} µs with the node tree, {writer:.0f} µs "
              "with the bitboard writer (CPU)")
        return
    if args.games < 1 or args.peer_games < 1 or min(args.concurrency) < 1:
        parser.error("--games, --peer-games and --concurrency must be at least 1")

    # The engine-only peer runs in two halves around the server phases, so that a change in
    # the machine's load during the run weighs on both sides alike.
    warm_up(args.seed)
    first = args.peer_games // 2 or 1
    moves_a, seconds_a = engine_only(first, args.seed)
    plan = [(c, max(args.games, 2 * c)) for c in args.concurrency]
    replays = ((args.replay_concurrency, max(args.games, 2 * args.replay_concurrency))
               if args.replay_concurrency > 0 else None)
    factory = None
    if args.uvloop:
        import uvloop  # type: ignore[import-not-found, unused-ignore]  # optional

        factory = uvloop.new_event_loop
    replay_cost = None
    with asyncio.Runner(loop_factory=factory) as runner:
        phases = runner.run(_server_phases(plan, args.seed))
        if replays is not None:
            rows, replay_cost = runner.run(_replay_pairs(*replays, args.seed))
            phases.extend(rows)
    rest = max(args.peer_games - first, 0)
    moves_b, seconds_b = engine_only(rest, args.seed + 1) if rest else (0, 0.0)
    print("Blokus over TCP: free bots (moves computed in advance, mementos never parsed) in a "
          "child process, the server in this process.\n")
    print(report(phases, first + rest, seconds_a + seconds_b, moves_a + moves_b))
    if replay_cost is not None:
        print(f"\n`--save-replays` adds {replay_cost:.0f} µs of server CPU per move (median "
              f"of {REPLAY_PAIRS} alternating pairs of fresh servers, replays off and on; "
              "their median phases are the last two rows).")
    fast, full, count = kit_decode(args.kit_games, args.seed)
    print(f"\nBot kit (`bots.blokus`), CPU per memento a bot decodes, {count} mementos: "
          f"{fast:.0f} µs (fast path), {full:.0f} µs (full lxml parse).")


if __name__ == "__main__":
    main(sys.argv[1:])
