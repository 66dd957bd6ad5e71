"""Run N light random players against a server, in their own process (a second core).

`python -m tests.server.net.light_clients PORT N` (from the repository) prints one JSON
line: the outcome of every player.
"""

from __future__ import annotations

import asyncio
import json
import sys

from tests.server.sc_client import play_light


async def main(port: int, count: int) -> None:
    outcomes = await asyncio.gather(*(play_light(port, seed) for seed in range(count)),
                                    return_exceptions=True)
    print(json.dumps([
        {"error": repr(o)} if isinstance(o, BaseException)
        else {"regular": o.get("regular"), "turn": o.get("turn"), "room": o.get("room")}
        for o in outcomes
    ]))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
