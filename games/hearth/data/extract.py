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

# Which cards: the Basic, Classic (EXPERT1) and Hall of Fame sets of the pinned build,
# collectible or not (tokens, enchantments, Choose One spells, hero powers), minus the Hall
# of Fame cards that came from The Witchwood (GIL_*: not part of Basic and Classic), plus
# The Coin. Every card the engine may create is here; which of them a deck may hold is
# decided by the declarations (:attr:`games.hearth.carddb.Card.playable`).
SETS = ("BASIC", "EXPERT1", "HOF")
SYSTEM = ("GAME_005",)
EXCLUDED_PREFIXES = ("GIL_",)


def selected_ids(db: dict[str, Any]) -> list[str]:
    """The ids extracted from the loaded CardDefs, sorted."""
    from hearthstone.enums import CardSet

    sets = {CardSet[name] for name in SETS}
    ids = {
        cid
        for cid, c in db.items()
        if c.card_set in sets and not cid.startswith(EXCLUDED_PREFIXES)
    }
    return sorted(ids | set(SYSTEM))


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
    """Return the JSON document for :func:`selected_ids` from the installed, pinned CardDefs."""
    # hearthstone-data is a data package: no type information to check against.
    import hearthstone_data  # type: ignore[import-untyped]
    from hearthstone import cardxml

    build = Path(hearthstone_data.__file__).with_name("BUILD").read_text().strip()
    if build != PINNED_BUILD:
        raise SystemExit(f"hearthstone-data build {build} installed, {PINNED_BUILD} pinned")
    db, _ = cardxml.load()
    cards = []
    for card_id in selected_ids(db):
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
