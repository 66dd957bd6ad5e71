"""Kettle `queue_player` decks (issue #27): the deck rules of games.hearth.decks, and a
heroID without cards plays that hero's class deck. Raw Kettle clients against a real
server over TCP."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "conformance" / "kettle"))
from kettle_client import KettleClient

from games.hearth import MAGE_DECK, decks
from protocols.kettle import GameJoined, Nack, QueuePlayer
from server.config import ServerConfig
from server.runtime import GauntletServer


async def _queue(message: QueuePlayer) -> tuple[GauntletServer, GameJoined | Nack]:
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=5)
    async with GauntletServer(config) as srv:
        c = await KettleClient.connect(srv.tcp_port)
        await c.send(message)
        answer = await c.recv()
        assert isinstance(answer, (GameJoined, Nack))
        room = next(iter(srv.lobby.rooms.values()), None) if isinstance(answer, GameJoined) \
            else None
        found = None if room is None else room.game.decks  # type: ignore[attr-defined]
        await c.close()
    return found, answer


async def test_a_hero_without_cards_plays_its_class_deck() -> None:
    found, answer = await _queue(QueuePlayer("h", "HERO_05"))
    try:
        hunter = decks.named("hunter")
    except decks.DeckError as error:  # before the Basic cards are merged: refused, and why
        assert isinstance(answer, Nack) and answer.reason == "invalid_deck"
        assert answer.message == f"heroID 'HERO_05' without cards: {error}"
        assert "is not implemented by the engine yet" in answer.message
        return
    assert isinstance(answer, GameJoined)
    assert found is not None and found[answer.player_id - 1] == hunter.pair()


async def test_a_hero_without_a_class_deck_is_refused() -> None:
    _found, answer = await _queue(QueuePlayer("h", "HERO_08a"))
    assert isinstance(answer, Nack) and answer.reason == "invalid_deck"
    assert answer.message.startswith("heroID 'HERO_08a' without cards: only HERO_08, ")


async def test_a_legendary_twice_is_refused_naming_the_card_and_the_rule() -> None:
    cards = ("EX1_298", "EX1_298", *MAGE_DECK[2:])
    _found, answer = await _queue(QueuePlayer("h", "HERO_08", cards))
    assert isinstance(answer, Nack) and answer.reason == "invalid_deck"
    assert answer.message == ("EX1_298 (Ragnaros the Firelord): 2 copies; a deck holds at "
                              "most 1 copy of a legendary")


async def test_a_card_the_engine_does_not_play_is_refused(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(decks, "playable", lambda card: card.id != "CS2_029")
    _found, answer = await _queue(QueuePlayer("h", "HERO_08", MAGE_DECK))
    assert isinstance(answer, Nack) and answer.reason == "invalid_deck"
    assert answer.message == "CS2_029 (Fireball) is not implemented by the engine yet"
