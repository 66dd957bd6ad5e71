"""Warrior spells and Fiery War Axe (a plain 3/2 weapon in patch 17.6: stats only).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_01")
>>> S.play(g, S.give(g, 1, "CS2_105"))         # Heroic Strike
>>> S.play(g, S.give(g, 1, "CS2_106"))         # Fiery War Axe
>>> g.attack_value(g.hero[1])
7
"""

from __future__ import annotations

from ..dsl import (
    ALL_MINIONS,
    ENEMY_MINIONS,
    FRIENDLY_HERO,
    FRIENDLY_MINIONS,
    RANDOM,
    TARGET,
    Aura,
    Buff,
    Damage,
    Destroy,
    Draw,
    GainArmor,
    card,
    enchantment,
    vanilla,
)
from ..enums import CHARGE, PlayReq
from .targets import DAMAGED_ENEMY_MINION

# Execute: destroy ignores the target's health and Divine Shield.
card("CS2_108", spell=Destroy(TARGET), requirements=DAMAGED_ENEMY_MINION)
# Heroic Strike: CS2_105e carries TAG_ONE_TURN_EFFECT (removed in MAIN_CLEANUP).
card("CS2_105", spell=Buff(FRIENDLY_HERO, "CS2_105e"))
enchantment("CS2_105e", atk=4)
card("EX1_400", spell=Damage(ALL_MINIONS, 1, spell=True))  # Whirlwind
card("EX1_606", spell=[GainArmor(5), Draw(1)])  # Shield Block (cost 3 in patch 17.6)
vanilla("CS2_106")  # Fiery War Axe

# ------------------------------------------------------------------------------ (card-c)
# Cleave: two distinct random enemy minions; castable with one (REQ_MINIMUM_ENEMY_MINIONS 1,
# SabberStone and fireplace since patch 14.6).
card(
    "CS2_114",
    spell=Damage(RANDOM(ENEMY_MINIONS, 2), 2, spell=True),
    requirements={PlayReq.REQ_MINIMUM_ENEMY_MINIONS: 1},
)
# Warsong Commander: the selector reads the current CHARGE tag (aura-given or not).
card(
    "EX1_084",
    aura=Aura(FRIENDLY_MINIONS.filter(lambda g, i: g.tag(i, CHARGE) > 0, "CHARGE"), "EX1_084e"),
)
enchantment("EX1_084e", atk=1)
vanilla("CS2_112", "NEW1_011")  # Arcanite Reaper, Kor'kron Elite
