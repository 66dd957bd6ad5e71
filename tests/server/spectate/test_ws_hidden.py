"""Hearth spectators: a neutral one never receives a hidden card; the admin token or the
end of the match shows both hands. And /ws/lobby tells of matches as they come and go."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.spectate.spectate_kit import (
    TOKEN,
    blokus_match,
    finished,
    hearth_match,
    read,
    site,
)


def hands(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [card for side in state["players"] for card in side["hand"]]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_hidden_card_never_reaches_a_neutral_spectator(seed: int) -> None:
    async with site(seed) as s:
        room, _ = hearth_match(s.lobby, delay=0.001, seed=seed)
        neutral_task = read(s.url(f"/ws/matches/{room.id}?since=0"))
        admin_task = read(s.url(f"/ws/matches/{room.id}?since=0"),
                          additional_headers={"Authorization": f"Bearer {TOKEN}"})
        import asyncio

        neutral, admin = await asyncio.gather(neutral_task, admin_task)
        await finished(room)
        assert neutral.messages[0]["full"] is False and admin.messages[0]["full"] is True
        live = [e for e in neutral.events if e["kind"] == "state"]
        assert live, "the match streamed no state"
        for event in live:
            assert all(set(card) == {"entity"} for card in hands(event["state"])), event["seq"]
            assert event["state"]["full"] is False
        # The card ids of the cards still hidden at the end: in no neutral text at all
        # (played copies of the same card are public, so only ids never shown count).
        engine = room.game.state  # type: ignore[attr-defined]
        public: set[str] = set()
        for event in live:
            for side in event["state"]["players"]:
                for thing in [side["hero"], side["heroPower"], side["weapon"], *side["board"]]:
                    if thing:
                        public.add(thing["card"])
            public |= {line["card"] for line in event["state"]["ticker"] if "card" in line}
        hidden_ids = {card["card"] for q in (1, 2)
                      for card in engine.observation(q)["you"]["hand"]} - public
        text = json.dumps(live)
        assert not any(f'"{card_id}"' in text for card_id in hidden_ids)
        # The admin saw the hands all along; the result reveals them to everybody.
        admin_live = [e for e in admin.events if e["kind"] == "state"]
        assert any("card" in c for e in admin_live for c in hands(e["state"]))
        result = next(e for e in neutral.events if e["kind"] == "result")
        assert all("card" in c for c in hands(result["state"]))


async def test_after_the_end_everyone_sees_both_hands() -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby)
        await finished(room)
        late = await read(s.url(f"/ws/matches/{room.id}?since=0"))
        assert late.messages[0]["full"] is True
        states = [e["state"] for e in late.events if e["kind"] == "state"]
        assert any("card" in c for st in states for c in hands(st))


async def test_a_wrong_token_is_a_neutral_spectator() -> None:
    async with site() as s:
        room, _ = hearth_match(s.lobby, delay=0.01)
        stream = await read(s.url(f"/ws/matches/{room.id}"), limit=1,
                            subprotocols=["gauntlet", "token." + b"wrong".hex()])
        assert stream.messages[0]["full"] is False
        # What the viewer sends: the token as a subprotocol (a browser sets no headers).
        offered = await read(s.url(f"/ws/matches/{room.id}"), limit=1,
                             subprotocols=["gauntlet", "token." + TOKEN.encode().hex()])
        assert offered.messages[0]["full"] is True
        # Never in the URL (histories, shared links): `?token=` is no token.
        in_url = await read(s.url(f"/ws/matches/{room.id}?token={TOKEN}"), limit=1)
        assert in_url.messages[0]["full"] is False
        header = await read(s.url(f"/ws/matches/{room.id}"), limit=1,
                            additional_headers={"Authorization": f"Bearer {TOKEN}"})
        assert header.messages[0]["full"] is True


async def test_the_lobby_tells_of_created_started_and_finished_matches() -> None:
    async with site() as s:
        import asyncio

        import websockets

        async with websockets.connect(s.url("/ws/lobby")) as ws:
            first = json.loads(await ws.recv())
            assert first == {"type": "matches", "seq": 0, "matches": []}
            room, _ = blokus_match(s.lobby)
            seen: list[tuple[str, str]] = []
            async with asyncio.timeout(60):
                while ("finished", room.id) not in seen:
                    message = json.loads(await ws.recv())
                    seen.append((message["event"], message["match"]["id"]))
            assert [e for e, _ in seen] == ["created", "started", "finished"]
        await finished(room)
        async with websockets.connect(s.url("/ws/lobby")) as ws:
            listed = json.loads(await ws.recv())["matches"]
            assert [m["id"] for m in listed] == [room.id]
            assert listed[0]["status"] == "finished" and listed[0]["result"]["reason"]
