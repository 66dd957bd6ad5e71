"""The committed card file matches the pinned CardDefs, and the engine reads only that file."""

from __future__ import annotations

import json
import subprocess
import sys

from games.hearth.carddb import DATA_FILE, load_cards
from games.hearth.data import extract
from games.hearth.enums import ATK, CARDTYPE, COST, HEALTH, T_ENCHANTMENT, T_HERO_POWER


def test_committed_cards_json_equals_a_fresh_extraction() -> None:
    # The same comparison `python -m games.hearth.data.extract --check` makes.
    assert extract.render(extract.extract()) == DATA_FILE.read_text(encoding="utf-8")


def test_the_set_is_the_reference_set() -> None:
    doc = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    ids = [c["id"] for c in doc["cards"]]
    assert doc["build"] == "53261"
    assert len(ids) == len(set(ids))
    collectible = [c for c in doc["cards"] if c["collectible"] and c["type"] in (4, 5, 7)]
    # Basic 143 + Classic 240 + the 29 Hall of Fame cards from Basic and Classic.
    assert len(collectible) == 143 + 240 + 29
    for required in (
        "HERO_01",
        "HERO_04",
        "HERO_08",
        "HERO_09",
        "GAME_005",
        "CS2_101t",
        "CS2_mirror",
        "CS2_122e",
        "CS2_222o",
        "EX1_162o",
    ):
        assert required in ids


def test_patch_17_6_values_are_the_pinned_ones() -> None:
    cards = load_cards()
    # The values that changed in later patches (reference section 4, marked with a dagger).
    assert cards["CS2_222"].atk == 6 and cards["CS2_222"].health == 6
    assert cards["CS2_106"].cost == 3
    assert cards["CS2_108"].cost == 2
    assert cards["EX1_399"].health == 7
    assert cards["CS2_182"].tags[ATK] == 4 and cards["CS2_182"].tags[HEALTH] == 5
    assert cards["CS2_029"].tags[COST] == 4
    assert cards["HERO_08bp"].tags[CARDTYPE] == T_HERO_POWER
    assert cards["CS2_092e"].tags[CARDTYPE] == T_ENCHANTMENT


def test_start_up_does_not_parse_the_xml() -> None:
    code = (
        "import sys; from games import hearth; hearth.new_game(seed=1); "
        "print(sorted(m for m in sys.modules "
        "if m.startswith(('hearthstone.cardxml', 'hearthstone_data'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cards_are_immutable() -> None:
    import dataclasses

    import pytest

    card = load_cards()["CS2_182"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.cost = 1  # type: ignore[misc]
