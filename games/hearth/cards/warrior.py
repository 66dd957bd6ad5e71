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
    FRIENDLY_HERO,
    TARGET,
    Buff,
    Damage,
    Destroy,
    Draw,
    GainArmor,
    card,
    enchantment,
    vanilla,
)
from .targets import DAMAGED_ENEMY_MINION

# Execute: destroy ignores the target's health and Divine Shield.
card("CS2_108", spell=Destroy(TARGET), requirements=DAMAGED_ENEMY_MINION)
# Heroic Strike: CS2_105e carries TAG_ONE_TURN_EFFECT (removed in MAIN_CLEANUP).
card("CS2_105", spell=Buff(FRIENDLY_HERO, "CS2_105e"))
enchantment("CS2_105e", atk=4)
card("EX1_400", spell=Damage(ALL_MINIONS, 1, spell=True))  # Whirlwind
card("EX1_606", spell=[GainArmor(5), Draw(1)])  # Shield Block (cost 3 in patch 17.6)
vanilla("CS2_106")  # Fiery War Axe
