"""How long one hostile Kettle frame holds the server's event loop (docs/benchmarks.md).

A real server runs in this process; each hostile payload (`CASES`, the same ones
`tests/hardening/test_kettle_hostile_json.py` checks for their nacks) is sent by a blocking
client in a thread, while a ticker task on the server's loop records its worst lateness
(a 2 ms sleep, how late it wakes up). The baseline is the same figure while a normal Hearth
match between two bundled random bots plays (their own loop, in a thread): frames that
cost the loop no more than a normal match's moves read about 1x.

    .venv/bin/python -m bench hostile          # part of `make bench`
    .venv/bin/python -m bench.hostile --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

TICK = 0.002
IDLE = 3.0  # a server that said nothing for this long has said everything
KIB = 1 << 10
MIB = 1 << 20


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def msg(name: str, body: str) -> bytes:
    return frame(f'{{"type": "kettle:types/{name}", "{name}": {body}}}'.encode())


# (payload, nack reasons expected in order, whether the server closes afterwards)
CASES: dict[str, tuple[bytes, list[str], bool]] = {
    # Over the 64 KiB frame limit: refused on the 4 header bytes.
    "deep_100k_arrays": (frame(b"[" * 100_000 + b"]" * 100_000), ["frame_too_large"], True),
    "deep_1mib_arrays": (frame(b"[" * (MIB // 2) + b"]" * (MIB // 2)), ["frame_too_large"],
                         True),
    "depth_32_arrays_1mib": (frame(b"[" + (b"[" * 31 + b"]" * 31 + b",") * 16_000 + b"[]]"),
                             ["frame_too_large"], True),
    "huge_string_1mib": (frame(b'{"type": "x", "pad": "' + b"A" * (MIB - 100) + b'"}'),
                         ["frame_too_large"], True),
    "many_small_frames_batch": (frame(b"[" + b",".join([b'{"type": "y"}'] * 20_000) + b"]"),
                                ["frame_too_large"], True),
    # Within the limit, the worst of each kind.
    "deep_64kib_arrays": (frame(b"[" * (32 * KIB) + b"]" * (32 * KIB)), ["too_deep"], False),
    "depth_32_arrays_64kib": (frame(b"[" + (b"[" * 31 + b"]" * 31 + b",") * 1000 + b"[]]"),
                              ["bad_body"], True),
    "huge_string_64kib": (frame(b'{"type": "x", "pad": "' + b"A" * (64 * KIB - 100) + b'"}'),
                          ["unknown_type"], False),
    # Refusals count against the message rate (burst 2000): then rate_limited, closed.
    "batch_4000_unknown": (frame(b"[" + b",".join([b'{"type": "y"}'] * 4000) + b"]"),
                           ["unknown_type"] * 2000 + ["rate_limited"], True),
    "huge_exponent": (msg("choose_option", '{"optionsID": 1e999999, "option_index": 0}'),
                      ["wrong_type"], False),
    "huge_integer_60k_digits": (msg("choose_option", '{"optionsID": 1' + "0" * 60_000
                                    + ', "option_index": 0}'), ["bad_json"], True),
    "huge_integer_4000_digits": (msg("choose_option", '{"optionsID": 1' + "0" * 4000
                                     + ', "option_index": 0}'), ["out_of_range"], False),
    "nan_literal": (msg("choose_option", '{"optionsID": NaN, "option_index": 0}'),
                    ["bad_json"], True),
    "infinity_literal": (frame(b'{"type": "x", "v": -Infinity}'), ["bad_json"], True),
    "duplicate_keys": (frame(b'{"type": "kettle:types/concede", "type": "x"}'),
                       ["unknown_type"], False),
    "lone_surrogate_in_field": (msg("join_game", '{"gameID": "\\ud800", "password": "p"}'),
                                ["wrong_type"], False),
    "length_ffffffff": (msg("get_game_state", "{}") + b"\xff\xff\xff\xff{}",
                        ["unexpected_message", "frame_too_large"], True),
    # Any first bytes that do not look like XML are Kettle (server/net/sniff.py): an
    # oversize first frame is refused in Kettle's words, then closed.
    "length_ffffffff_first": (b"\xff\xff\xff\xff{}", ["frame_too_large"], True),
    "http_request_first": (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", ["frame_too_large"], True),
}


def slowloris_frame() -> bytes:
    return msg("get_game_state", "{}")


def attack(port: int, payload: bytes, pace: float = 0.0,
           idle: float = IDLE) -> tuple[list[str], bool]:
    """Blocking client (run it in a thread, so that the loop measured is the server's
    alone): send `payload` (one byte every `pace` seconds when pace > 0); the reasons of
    the nacks received, and whether the server closed the connection."""
    from protocols.kettle import ClientConnection, Nack

    client = ClientConnection()
    closed = False
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(idle)
        try:
            if pace:
                for i in range(len(payload)):
                    sock.sendall(payload[i : i + 1])
                    time.sleep(pace)
            else:
                sock.sendall(payload)
            while data := sock.recv(65536):
                client.receive_data(data)
            closed = True
        except TimeoutError:
            pass
        except ConnectionError:
            closed = True
    reasons = [e.reason for e in client.events() if isinstance(e, Nack)]
    return reasons, closed


async def worst_lag_while(work: asyncio.Future[object]) -> float:
    """The worst lateness of a short sleep on this loop until `work` is done."""
    worst = 0.0
    while not work.done():
        start = time.perf_counter()
        await asyncio.sleep(TICK)
        worst = max(worst, time.perf_counter() - start - TICK)
    return worst


def _normal_match(port: int, seed: int) -> None:
    """Two bundled random Hearth bots, on their own loop (a thread of their own)."""
    from bots.hearth import RandomBot
    from bots.hearth.aio import play_async

    async def both() -> None:
        await asyncio.gather(play_async(RandomBot(seed), "127.0.0.1", port, idle_timeout=60),
                             play_async(RandomBot(seed + 1), "127.0.0.1", port,
                                        idle_timeout=60))

    asyncio.run(both())


async def measure(rounds: int) -> tuple[list[float], dict[str, list[float]]]:
    """Worst loop lag per round: of a normal match, and of each hostile payload."""
    from server.config import ServerConfig
    from server.runtime import GauntletServer

    baseline: list[float] = []
    lags: dict[str, list[float]] = {name: [] for name in CASES}
    with tempfile.TemporaryDirectory(prefix="gauntlet-hostile-") as folder:
        config = ServerConfig(tcp_port=0, admin_password="bench", seed=9,
                              data_dir=Path(folder))
        async with GauntletServer(config) as server:
            port = server.tcp_port
            for number in range(rounds):
                baseline.append(await worst_lag_while(
                    asyncio.ensure_future(asyncio.to_thread(_normal_match, port, 2 * number))))
                for name, (payload, _, _) in CASES.items():
                    lags[name].append(await worst_lag_while(
                        asyncio.ensure_future(asyncio.to_thread(attack, port, payload))))
    return baseline, lags


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv if argv is not None else sys.argv[1:]
                             if __name__ == "__main__" else [])
    baseline, lags = asyncio.run(measure(args.rounds))
    base = statistics.median(baseline)
    print(f"Worst event-loop lag per payload, median (max) of {args.rounds} rounds; "
          f"baseline: a normal Hearth match, {1000 * base:.1f} ms "
          f"({1000 * max(baseline):.1f} ms)\n")
    print("| payload | bytes | worst loop lag ms | max ms | vs a normal match |")
    print("|---|---:|---:|---:|---:|")
    for name, samples in lags.items():
        worst = statistics.median(samples)
        print(f"| {name} | {len(CASES[name][0]):,} | {1000 * worst:.1f} | "
              f"{1000 * max(samples):.1f} | {worst / base:.2f}x |")


if __name__ == "__main__":
    main()
