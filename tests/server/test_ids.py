"""Match ids are RFC 9562 version-7 UUIDs: time first, then 74 random bits."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from server.config import ServerConfig
from server.ids import new_match_id
from server.rooms import SlotRequest
from server.runtime import GauntletServer


def test_ids_carry_their_time_and_sort_by_it() -> None:
    before = time.time_ns() // 1_000_000
    ids = []
    for _ in range(3):
        ids.append(new_match_id())
        time.sleep(0.002)  # the next millisecond at least
    after = time.time_ns() // 1_000_000
    for text in ids:
        value = uuid.UUID(text)
        assert str(value) == text and value.version == 7 and value.variant == uuid.RFC_4122
        assert before <= value.int >> 80 <= after
    assert ids == sorted(ids)


def test_ids_are_random_past_the_time() -> None:
    ids = {new_match_id() for _ in range(2000)}
    assert len(ids) == 2000
    tails = {uuid.UUID(i).int & ((1 << 62) - 1) for i in ids}
    assert len(tails) == 2000


async def test_a_prepared_room_is_named_by_one(tmp_path: Path) -> None:
    async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw",
                                           data_dir=tmp_path)) as srv:
        room, _ = srv.lobby.prepare(None, [SlotRequest("a", True, True),
                                           SlotRequest("b", True, True)], True)
        assert uuid.UUID(room.id).version == 7
