"""Record the old-format golden files: a store written by some version of Gauntlet, and
what that version's readers answered for it (`tests/server/store/test_store_packing.py` checks
that the current code reads the same store back the same way).

Run it with the checkout to record from first on the path (the files were made with the
commit before the events were packed, af7ee68):

    git archive af7ee68 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old .venv/bin/python tests/server/store/golden/record.py OUT

It plays three matches on a fresh SQLite file (a Blokus and a Hearth match to the end, a
Hearth match cut by the server's shutdown), then writes `OUT/old_format.db.xz` and
`OUT/old_format_outputs.json.xz` (every reader's answer: /events with and without the
admin token and as a slice, /replay, the match, and the stored spectator streams).
"""

from __future__ import annotations

import asyncio
import json
import lzma
import sqlite3
import sys
from pathlib import Path
from typing import Any

TOKEN = "test-token"


async def outputs(server: Any, store: Any, match_id: str) -> dict[str, Any]:
    """Every reader's answer for one stored match (the server holds it no more)."""
    import httpx

    from server.spectate.stored import load_match

    found: dict[str, Any] = {}
    auth = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.http_port}",
                                 timeout=60) as http:
        for name, path, headers in [
                ("events_admin", f"/api/matches/{match_id}/events", auth),
                ("events", f"/api/matches/{match_id}/events", {}),
                ("events_slice", f"/api/matches/{match_id}/events?since=5&limit=7", {}),
                ("replay", f"/api/matches/{match_id}/replay", {}),
                ("match", f"/api/matches/{match_id}", {})]:
            response = await http.get(path, headers=headers)
            found[name] = [response.status_code, response.text]
    stored = await asyncio.to_thread(load_match, store, match_id, server.lobby.games)
    assert stored is not None
    for full in (False, True):
        found[f"frames_full_{full}"] = stored.texts(full, 0)
        found[f"snapshot_full_{full}"] = stored.texts(full, None)
    found["frames_since_9"] = stored.texts(False, 9)
    return found


async def main(out: Path) -> None:
    from tests.server.api.conftest import start, stop
    from tests.server.spectate.spectate_kit import blokus_match, finished, hearth_match, read

    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    server, client, store, _ = await start(work)
    try:
        blokus, _ = blokus_match(server.lobby, seed=3)
        await finished(blokus)
        hearth, _ = hearth_match(server.lobby, seed=5)
        await finished(hearth)
        cut, _ = hearth_match(server.lobby, delay=0.02, seed=7)
        await read(f"ws://127.0.0.1:{server.http_port}/ws/matches/{cut.id}?since=0",
                   limit=12)
    finally:
        await stop(server, client, store)  # `cut` ends unfinished: aborted at the restart
    server, client, store, _ = await start(work)
    try:
        found = {kind: {"id": room.id, "outputs": await outputs(server, store, room.id)}
                 for kind, room in (("blokus", blokus), ("hearth", hearth),
                                    ("hearth_aborted", cut))}
    finally:
        await stop(server, client, store)
    db = work / "gauntlet.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (out / "old_format.db.xz").write_bytes(_xz(db.read_bytes()))
    (out / "old_format_outputs.json.xz").write_bytes(
        _xz(json.dumps(found, sort_keys=True).encode()))


def _xz(data: bytes) -> bytes:
    return lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
