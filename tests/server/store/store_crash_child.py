"""Run by test_store_recover.py as a child process that gets SIGKILLed mid-match.

It finishes a few matches, leaves others open (running, paused, waiting after a start,
waiting unstarted), prints what it did as one JSON line, then appends events to the running
match as fast as it can until it is killed.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable

from server.store import Match, NewSeat, SeatOutcome, Store, StoreWriter


def _create(seed: int | None = None) -> Callable[[Store], Match]:
    return lambda s: s.create_match("blokus", [NewSeat("a"), NewSeat("b")], seed=seed)


def _status(match_id: str, status: str) -> Callable[[Store], Match]:
    return lambda s: s.set_status(match_id, status)


async def main(url: str) -> None:
    store = Store(url)
    async with StoreWriter(store, max_delay=0.001, batch_size=20) as writer:
        finished: list[str] = []
        for k in range(3):
            match = await writer.call(_create(k))
            writer.call(_status(match.id, "running"))
            for seq in range(20):
                await writer.append(match.id, seq, "move", {"seq": seq})
            await writer.commit_result(
                match.id, winner=k % 2, reason="REGULAR", scores={"k": k},
                seats=[SeatOutcome(0, "win" if k % 2 == 0 else "loss", [k]),
                       SeatOutcome(1, "loss" if k % 2 == 0 else "win", [k])])
            finished.append(match.id)
        opened: dict[str, str] = {}
        for status in ("running", "paused", "waiting-started", "waiting"):
            match = await writer.call(_create())
            if status != "waiting":
                writer.call(_status(match.id, "running"))
            if status in ("paused", "waiting-started"):
                writer.call(_status(match.id, "paused" if status == "paused" else "waiting"))
            for seq in range(5):
                await writer.append(match.id, seq, "move", {"seq": seq})
            opened[status] = match.id
        live = opened["running"]
        seq = 5
        while seq < 50:
            await writer.append(live, seq, "move", {"seq": seq})
            seq += 1
        await writer.flush()
        print(json.dumps({"finished": finished, "open": opened, "flushed": seq}), flush=True)
        while True:
            await writer.append(live, seq, "move", {"seq": seq, "pad": "x" * 200})
            seq += 1
            if seq % 50 == 0:
                await asyncio.sleep(0)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
