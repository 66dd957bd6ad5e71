"""The ladder's pace (`LadderOptions.min_interval`): the demo's ladder waits between two
games so that a night of `make run` stays under 1 GB (issue #24, docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from server.commands.demo import DEMO_LADDER_INTERVAL
from server.ladder import LadderOptions
from server.runtime import GauntletServer
from server.store import Store
from tests.server.ladder.conftest import BLOKUS, fast_config


async def _legs_started(tmp_path: Path, min_interval: float) -> tuple[int, float | None]:
    """Legs one scheduling pass starts with two free slots, and how long it then waits."""
    store = Store(f"sqlite:///{tmp_path / f'pace-{min_interval}.db'}")
    server = GauntletServer(fast_config(tmp_path), store=store,
                            ladder=LadderOptions(concurrency=2, min_interval=min_interval))
    await server.start()
    try:
        ladder = server.ladder
        assert ladder is not None and ladder._task is not None
        # The ladder's own loop stopped: the pass below is the only one.
        ladder._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ladder._task
        ladder.ladder.set_running(BLOKUS, True)
        await ladder._fill()
        return len(ladder.live), ladder._paced
    finally:
        await server.close()
        store.close()


async def test_a_paced_ladder_starts_one_game_per_interval(tmp_path: Path) -> None:
    started, waits = await _legs_started(tmp_path, 3600.0)
    assert started == 1 and waits is not None and 3500 < waits <= 3600
    started, waits = await _legs_started(tmp_path, 0.0)
    assert started == 2 and waits is None


def test_the_demo_ladder_is_paced() -> None:
    # docs/benchmarks.md, "Stored bytes per match": at most 14,400 games a night.
    assert DEMO_LADDER_INTERVAL >= 3.0
