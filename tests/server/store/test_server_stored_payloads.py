"""What the writer thread stores for a room's log entries: `entry_payload`, as JSON text."""

from __future__ import annotations

import asyncio
import json

from server.rooms import DecisionRequested, Lobby
from server.store import JSONText
from server.stored_events import entry_payload
from server.stored_events import to_events as _to_events
from tests.server.server_testkit import InProcessObserver, InProcessPlayer


async def test_stored_text_is_the_entry_payload() -> None:
    """Every entry of a whole Blokus match, decision requests (whose text is made once
    per audience) included: the stored text reads back as `entry_payload`."""
    lobby = Lobby()
    a, b, watcher = InProcessPlayer(1), InProcessPlayer(2), InProcessObserver()
    for link in (a, b):
        lobby.seated(lobby.join(link, None))
    room = next(iter(lobby.rooms.values()))
    room.add_observer(watcher)
    async with asyncio.timeout(20):
        await a.done.wait()
        await b.done.wait()
    entries = list(room.log.entries)
    assert sum(isinstance(e.event, DecisionRequested) for e in entries) > 10
    for sc in (True, False):
        events = _to_events(room, sc, entries)
        assert [e.seq for e in events] == [e.seq for e in entries]
        for entry, event in zip(entries, events, strict=True):
            assert type(event.payload) is JSONText
            expected = json.loads(json.dumps(entry_payload(room, sc, entry)))
            assert json.loads(event.payload) == expected, entry
    # The state records are written directly (`record_text`): every kind of them is here.
    records = [json.loads(event.payload)["blokus"] for event in _to_events(room, True, entries)
               if event.kind == "state"]
    assert records[0]["move"] is None and records[0]["think"] is None  # the first state
    assert any(len(r["move"]) == 1 for r in records[1:])  # a skip
    assert any(r["move"][3] for r in records[1:] if len(r["move"]) > 1)  # a flipped piece
