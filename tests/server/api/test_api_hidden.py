"""The HTTP event log never shows a live Hearth match's hidden cards to a non-admin: the full
history and the spectators' full frames are stored, yet only the admin reads them before the
match has finished; afterwards everyone does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.server.api.conftest import AUTH, start, stop
from tests.server.spectate.spectate_kit import finished, hearth_match

HIDDEN = ("public", "spectateFull")


def payloads(body: str) -> list[dict[str, Any]]:
    return [json.loads(line)["payload"] for line in body.splitlines()]


async def test_live_hidden_information_reaches_only_the_admin(tmp_path: Path) -> None:
    server, client, store, _ = await start(tmp_path)
    try:
        room, _ = hearth_match(server.lobby, delay=0.02, seed=5)
        url = f"/api/matches/{room.id}/events"
        for _ in range(200):  # until the stored log has the opening history
            await asyncio.sleep(0.05)
            answer = await client.get(url, headers=AUTH)
            if answer.status_code == 404:  # a lobby's match is stored within 0.1 s
                continue
            admin = answer.text
            if any("public" in p for p in payloads(admin)):
                break
        assert not room.closed
        anyone = (await client.get(url)).text
        assert not any(key in p for p in payloads(anyone) for key in HIDDEN)
        assert any(key in p for p in payloads(admin) for key in HIDDEN)
        # What the admin sees in hands is not in what anyone else got.
        assert len(anyone) < len(admin)

        await finished(room)
        await server.writer.flush() if server.writer is not None else None
        after = (await client.get(url)).text
        assert any("public" in p for p in payloads(after))
    finally:
        await stop(server, client, store)
