"""Extract the cards Gauntlet implements from the pinned CardDefs into ``cards.json``.

Run with the pinned data package installed (``hearthstone-data==53261.1``, patch 17.6)::

    .venv/bin/python -m games.hearth.data.extract          # rewrites cards.json
    .venv/bin/python -m games.hearth.data.extract --check  # exit 1 if cards.json is stale

Start-up never parses the 25 MB XML: the engine reads only the small ``cards.json``.
The 17.6 CardDefs carry no play requirements and no stat values for enchantments; those are
declared next to each card id in ``games/hearth/cards/`` (as SabberStone and fireplace do).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PINNED_BUILD = "53261"
OUTPUT = Path(__file__).with_name("cards.json")

HEROES = ("HERO_01", "HERO_04", "HERO_08", "HERO_09")
HERO_POWERS = ("HERO_01bp", "HERO_04bp", "HERO_08bp", "HERO_09bp")
COLLECTIBLE = (
    # minions
    "CS2_231",
    "CS2_168",
    "CS2_172",
    "CS2_120",
    "CS2_182",
    "CS2_200",
    "CS2_171",
    "CS2_124",
    "CS2_121",
    "CS2_179",
    "EX1_008",
    "CS2_189",
    "EX1_019",
    "EX1_506",
    "CS2_196",
    "CS2_226",
    "EX1_015",
    "EX1_066",
    "CS2_188",
    "CS2_142",
    "EX1_012",
    "CS2_122",
    "CS2_222",
    "EX1_508",
    "EX1_162",
    "DS1_055",
    "EX1_096",
    "EX1_556",
    "EX1_564",
    "EX1_007",
    "EX1_399",
    "NEW1_019",
    "CS2_203",
    "EX1_393",
    # spells and weapons
    "CS2_029",
    "CS2_024",
    "CS2_025",
    "CS2_032",
    "EX1_277",
    "CS2_023",
    "CS2_022",
    "CS2_027",
    "CS2_026",
    "CS2_108",
    "CS2_105",
    "EX1_400",
    "EX1_606",
    "CS2_092",
    "CS2_004",
    "EX1_332",
    "CS2_093",
    "CS2_106",
)
SYSTEM = ("GAME_005",)
TOKENS = ("EX1_506a", "CS2_boar", "skele21", "CS2_tk1", "CS2_mirror", "CS2_101t")
ENCHANTMENTS = (
    "CS2_122e",
    "CS2_222o",
    "EX1_019e",
    "CS2_226e",
    "CS2_105e",
    "CS2_188o",
    "CS2_092e",
    "CS2_004e",
    "EX1_399e",
    "EX1_162o",
    "EX1_508o",
    "EX1_393e",
)
ALL_IDS = HEROES + HERO_POWERS + COLLECTIBLE + SYSTEM + TOKENS + ENCHANTMENTS

# Presentation-only tags (art, sound, collection data): not game state.
SKIPPED_TAGS = {
    "AttackVisualType",
    "DevState",
    "ENCHANTMENT_BIRTH_VISUAL",
    "ENCHANTMENT_IDLE_VISUAL",
    "COLLECTIBLE",
    "BACON_TRIPLE_UPGRADE_MINION_ID",
    "TECH_LEVEL",
    "UPGRADED_HERO_POWER",
    "HERO_POWER",
    "CARD_SET",
    "FACTION",
}


def extract() -> dict[str, Any]:
    """Return the JSON document for ``ALL_IDS`` from the installed, pinned CardDefs."""
    # hearthstone-data is a data package: no type information to check against.
    import hearthstone_data  # type: ignore[import-untyped]
    from hearthstone import cardxml

    build = Path(hearthstone_data.__file__).with_name("BUILD").read_text().strip()
    if build != PINNED_BUILD:
        raise SystemExit(f"hearthstone-data build {build} installed, {PINNED_BUILD} pinned")
    db, _ = cardxml.load()
    cards = []
    for card_id in ALL_IDS:
        c = db[card_id]
        tags = {}
        for tag, value in sorted(c.tags.items(), key=lambda kv: int(kv[0])):
            name = getattr(tag, "name", str(tag))
            if name in SKIPPED_TAGS:
                continue
            tags[str(int(tag))] = int(value)
        cards.append(
            {
                "id": card_id,
                "dbf_id": c.dbf_id,
                "name": c.english_name,
                "type": int(c.type),
                "class": int(c.card_class),
                "cost": c.cost,
                "atk": c.atk,
                "health": c.health,
                "durability": c.durability,
                "race": int(c.race),
                "rarity": int(c.rarity),
                "collectible": bool(c.collectible),
                "hero_power": c.hero_power or "",
                "tags": tags,
                "referenced_tags": {
                    str(int(t)): int(v)
                    for t, v in sorted(c.referenced_tags.items(), key=lambda kv: int(kv[0]))
                },
                "play_requirements": {},
                "text": c.english_description,
            }
        )
    return {"build": build, "cards": cards}


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: list[str]) -> int:
    text = render(extract())
    if "--check" in argv:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} differs from the pinned CardDefs; rerun extract.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
