"""Hostile JSON over Kettle, against a real server on real sockets.

Each payload is refused with the nack docs/kettle-protocol.md names (closing or not), or
handled; a Hearth match between two bundled bots runs on the same server meanwhile and
must finish normally.

How the loop is kept free is checked by structure, not by the clock: frames of
`OFF_LOOP_BYTES` (16 KiB) or more are parsed in a worker thread, smaller ones on the loop,
and oversize frames are refused on their 4 header bytes, before any body arrives. How long
each payload holds the loop is a benchmark: `python -m bench.hostile`
(docs/benchmarks.md, "Hostile Kettle frames").
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from bench.hostile import CASES, attack, slowloris_frame
from bots.hearth import RandomBot
from bots.hearth.aio import play_async
from protocols.kettle import ServerConnection
from server.config import ServerConfig
from server.games.hearth.kettle import OFF_LOOP_BYTES
from server.runtime import GauntletServer


@pytest.fixture
async def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=9, data_dir=tmp_path)
    async with GauntletServer(config) as srv:
        yield srv


async def test_hostile_json_is_refused_and_a_match_finishes(server: GauntletServer) -> None:
    port = server.tcp_port
    match = asyncio.gather(play_async(RandomBot(1), "127.0.0.1", port, idle_timeout=60),
                           play_async(RandomBot(2), "127.0.0.1", port, idle_timeout=60))
    results = {}
    for name, (payload, _, _) in CASES.items():
        results[name] = await asyncio.to_thread(attack, port, payload)
    # Slowloris: one frame, a byte every 50 ms (about 3 s); answered once complete.
    results["slowloris"] = await asyncio.to_thread(attack, port, slowloris_frame(), 0.05)
    async with asyncio.timeout(180):
        one, two = await match
    assert one.winner is not None and one.winner == two.winner
    expected = {name: (reasons, closes) for name, (_, reasons, closes) in CASES.items()}
    expected["slowloris"] = (["unexpected_message"], False)
    assert results == expected


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Every frame the server's Kettle codec parses: (body bytes, on the loop's thread)."""
    seen: list[tuple[int, bool]] = []
    loop_thread = threading.get_ident()  # pytest-asyncio runs the loop on this thread
    original = ServerConnection.next_event

    def next_event(self: ServerConnection) -> Any:
        size = self.next_frame_bytes()
        if size:
            seen.append((size, threading.get_ident() == loop_thread))
        return original(self)

    monkeypatch.setattr(ServerConnection, "next_event", next_event)
    return seen


OFF_LOOP = ["deep_64kib_arrays", "depth_32_arrays_64kib", "huge_string_64kib",
            "batch_4000_unknown", "huge_integer_60k_digits"]
ON_LOOP = ["huge_exponent", "huge_integer_4000_digits", "nan_literal", "duplicate_keys",
           "lone_surrogate_in_field"]
OVERSIZE = ["deep_100k_arrays", "deep_1mib_arrays", "depth_32_arrays_1mib",
            "huge_string_1mib", "many_small_frames_batch"]


@pytest.mark.parametrize("name", OFF_LOOP)
async def test_large_frames_are_parsed_off_the_loop(
        server: GauntletServer, parses: list[tuple[int, bool]], name: str) -> None:
    payload, reasons, closes = CASES[name]
    assert len(payload) - 4 >= OFF_LOOP_BYTES
    assert await asyncio.to_thread(attack, server.tcp_port, payload) == (reasons, closes)
    assert parses and all(size >= OFF_LOOP_BYTES for size, _ in parses)
    assert not any(on_loop for _, on_loop in parses), parses


@pytest.mark.parametrize("name", ON_LOOP)
async def test_small_frames_stay_on_the_loop(
        server: GauntletServer, parses: list[tuple[int, bool]], name: str) -> None:
    payload, reasons, closes = CASES[name]
    assert len(payload) - 4 < OFF_LOOP_BYTES
    assert await asyncio.to_thread(attack, server.tcp_port, payload) == (reasons, closes)
    assert parses and all(size < OFF_LOOP_BYTES and on_loop for size, on_loop in parses)


@pytest.mark.parametrize("name", OVERSIZE)
async def test_oversize_frames_are_refused_on_the_header(
        server: GauntletServer, parses: list[tuple[int, bool]], name: str) -> None:
    """Only the 4 header bytes and a few of the body are sent: the refusal needs no more,
    and no frame is parsed."""
    payload, reasons, closes = CASES[name]
    assert int.from_bytes(payload[:4], "big") > 64 << 10
    assert await asyncio.to_thread(attack, server.tcp_port, payload[:16]) == (reasons, closes)
    assert parses == []
