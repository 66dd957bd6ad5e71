"""Bots that cost (almost) nothing: the client side of the server benchmark.

To measure the server, its bots must not be what limits a run. These play Blokus over the
real Software-Challenge protocol (admin `prepare`, `joinPrepared` with the reservation,
one TCP connection per seat) but never parse a memento: each game's moves are computed
before the clock starts, seeded random games for every start piece (the server draws the
start piece, a seat reads it once from the first memento's `startPiece` attribute), and a
seat answers each `moveRequest` with the next move of its game's list, written once as
bytes. The n-th game prepared plays variant n of its start piece's games, with as many
variants as it takes for the games not to repeat much: a server caches the texts of the
boards it sends, and the same game over and over would find them all cached, as real
games do not (docs/benchmarks.md).

What a seat does per move: find `class="moveRequest"` in the bytes it reads, write ~250
bytes. Run as a child process of the benchmark (`python -m bench.free_bots`), so that its
CPU time is never the server's; it prints one JSON line: games, wall seconds, CPU seconds,
moves sent and the games that failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time
from dataclasses import dataclass
from typing import Any

REQUEST = b'class="moveRequest"'
LEFT = b"<left "  # after the result: the server is done with this seat, the client closes
START = re.compile(rb'startPiece="([A-Z_0-9]+)"')
ROOM = "@ROOM@"


@dataclass
class Script:
    """One start piece's game: per move, the seat that makes it and its bytes."""

    seats: list[int]
    bodies: list[bytes]


def scripts(seed: int, variants: int = 1) -> dict[str, list[Script]]:
    """`variants` seeded random games for every start piece, their moves encoded once."""
    from games import blokus
    from protocols.sc import messages as m
    from protocols.sc.connection import client_message_body

    found: dict[str, list[Script]] = {}
    for piece in blokus.PENTOMINOES:
        for variant in range(variants):
            rng = random.Random(f"{seed}:{piece}:{variant}")
            state = blokus.new_game(piece)
            seats, bodies = [], []
            while not state.is_over:
                move = rng.choice(list(state.legal_moves()))
                seats.append(blokus.TEAMS.index(state.current_team))
                bodies.append(client_message_body(m.RoomPacket(ROOM, move)))
                state.apply(move)
            found.setdefault(piece, []).append(Script(seats, bodies))
    return found


def variants_for(games: int) -> int:
    """Variants per start piece for `games` games: about one game per variant."""
    from games import blokus

    return max(1, -(-games // len(blokus.PENTOMINOES)))


@dataclass
class Game:
    """Both seats of one game share the move counter (seats alternate by colour)."""

    room_id: str
    variant: int  # which of its start piece's games it plays
    script: Script | None = None
    played: int = 0

    def next_body(self) -> bytes:
        assert self.script is not None
        body = self.script.bodies[self.played]
        self.played += 1
        return body.replace(ROOM.encode(), self.room_id.encode())


async def seat(host: str, port: int, code: str, index: int, game: Game,
               library: dict[str, list[Script]]) -> int:
    """Play one seat to the end of the game; returns the moves it sent."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f'<protocol><joinPrepared reservationCode="{code}"/>'.encode())
    sent = 0
    tail = b""  # shorter than REQUEST: a request is never counted twice
    head = b""  # until the start piece is known: the reads so far (it may span two)
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return sent
            if game.script is None:
                head = head[-64:] + chunk
                found = START.search(head)
                if found is not None:
                    choices = library[found.group(1).decode()]
                    game.script = choices[game.variant % len(choices)]
            data = tail + chunk
            for _ in range(data.count(REQUEST)):
                # The script says whose turn it is; a request to the other seat cannot be.
                if game.script is None or game.script.seats[game.played] != index:
                    raise RuntimeError(f"seat {index}: a move request out of turn")
                writer.write(game.next_body())
                sent += 1
            if LEFT in data:
                return sent
            tail = data[-len(REQUEST) + 1:]
    finally:
        writer.close()
        await asyncio.gather(writer.wait_closed(), return_exceptions=True)


async def play(host: str, port: int, password: str, games: int, concurrency: int,
               seed: int) -> dict[str, Any]:
    try:
        from server.series import AdminClient
    except ImportError:  # a commit before the runner moved (bench.against runs old trees)
        from bots.blokus.match import AdminClient  # type: ignore[import-not-found,no-redef]

    library = scripts(seed, variants_for(games))
    admin = await AdminClient.connect(host, port, password)
    start, cpu = time.perf_counter(), time.process_time()
    moves = 0
    failed = 0
    next_game = 0

    async def one(number: int) -> None:
        nonlocal moves, failed
        prepared = await admin.prepare(("free A", "free B"), can_timeout=False)
        game = Game(prepared.room_id, number)
        try:
            sent = await asyncio.gather(*(
                seat(host, port, code, index, game, library)
                for index, code in enumerate(prepared.reservations)))
            moves += sum(sent)
            if game.script is None or game.played != len(game.script.bodies):
                failed += 1
        except Exception:
            failed += 1

    async def worker() -> None:
        nonlocal next_game
        while next_game < games:
            next_game += 1
            await one(next_game - 1)

    await asyncio.gather(*(worker() for _ in range(min(concurrency, games))))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    await admin.close()
    return {"games": games - failed, "failed": failed, "moves": moves, "seconds": seconds,
            "cpu_seconds": cpu}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.free_bots", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = asyncio.run(play(args.host, args.port, args.password, args.games,
                              args.concurrency, args.seed))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
