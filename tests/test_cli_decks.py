"""`gauntlet play hearth A B --deck1 X --deck2 Y` (issue #27): X is a class deck's name, a
deck code or a file of card ids; each bot keeps its deck when the seats swap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from games.hearth import DEFAULT_DECKS, decks
from server.cli import app
from server.games.hearth.room import HearthGame

MAGE, WARRIOR = DEFAULT_DECKS


def _play(*args: str) -> Any:
    return CliRunner().invoke(app, ["play", "hearth", "hearth-random", "hearth-greedy",
                                    *args], env={"COLUMNS": "200"})


def test_each_bot_plays_its_deck_in_every_game(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[tuple[int, str, tuple[str, ...]]] = []
    original = HearthGame.use_deck

    def spy(self: HearthGame, seat: int, hero: str, cards: Any) -> None:
        used.append((seat, hero, tuple(cards)))
        original(self, seat, hero, cards)

    monkeypatch.setattr(HearthGame, "use_deck", spy)
    listed = tmp_path / "warrior.txt"
    listed.write_text("# a deck list\n" + WARRIOR[0] + "\n" + "\n".join(WARRIOR[1]) + "\n")
    code = decks.Deck.from_ids(*MAGE).code
    out = tmp_path / "series.json"
    result = _play("--games", "2", "-c", "1", "--seed", "2", "--deck1", str(listed),
                   "--deck2", code, "--json", str(out), "--data-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    games = json.loads(out.read_text())["games"]
    assert [g["seats"][0] for g in games] == ["hearth-random", "hearth-greedy"]
    mage = decks.Deck.from_code(code).ids
    assert used == [(0, WARRIOR[0], WARRIOR[1]), (1, MAGE[0], mage),
                    (0, MAGE[0], mage), (1, WARRIOR[0], WARRIOR[1])]


def test_a_bad_deck_is_a_usage_error_naming_the_card_and_the_rule(tmp_path: Path) -> None:
    result = _play("--deck1", "wizard")
    assert result.exit_code == 2
    assert "error: --deck1: no class deck 'wizard'" in result.output
    bad = tmp_path / "bad.txt"
    bad.write_text(" ".join(["HERO_08", "EX1_298", "EX1_298", *MAGE[1][2:]]))
    result = _play("--deck2", str(bad))
    assert result.exit_code == 2
    assert ("error: --deck2: EX1_298 (Ragnaros the Firelord): 2 copies; a deck holds at "
            "most 1 copy of a legendary") in result.output
    result = CliRunner().invoke(app, ["play", "blokus", "random", "greedy", "--deck1",
                                      "mage"])
    assert result.exit_code == 2 and "--deck1: Blokus takes no decks" in result.output
