"""Priest and Paladin spells (Blessing of Kings is declared in :mod:`.basic`).

>>> from games.hearth import scenario as S
>>> from games.hearth.enums import HEALTH
>>> g = S.prepared(hero1="HERO_09")
>>> raptor = S.summon(g, 2, "CS2_172")
>>> S.play(g, S.give(g, 1, "CS2_004"), raptor)  # Power Word: Shield: 3/4
>>> _ = g.damage(g.hero[1], raptor, 3)
>>> S.play(g, S.give(g, 1, "EX1_332"), raptor)  # Silence: back to 3/2, still alive at 1
>>> g.health(raptor), g.ents[raptor][HEALTH]  # current and maximum health
(1, 2)
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_CHARACTERS,
    ENEMY_MINIONS,
    FRIENDLY_CHARACTERS,
    FRIENDLY_HERO,
    TARGET,
    Buff,
    Damage,
    Destroy,
    Heal,
    Silence,
    card,
    enchantment,
)
from .targets import A_MINION, MINION_MAX_ATTACK_3, MINION_MIN_ATTACK_5

# Power Word: Shield in patch 17.6: cost 0, +2 Health, no draw.
card("CS2_004", spell=Buff(TARGET, "CS2_004e"), requirements=A_MINION)
enchantment("CS2_004e", health=2)
card("EX1_332", spell=Silence(TARGET), requirements=A_MINION)  # Silence
card("CS2_093", spell=Damage(ENEMY_CHARACTERS, 2, spell=True))  # Consecration (hero included)

# Priest (Basic, patch 17.6)
card(
    "CS1_112",  # Holy Nova
    spell=[Damage(ENEMY_MINIONS, 2, spell=True), Heal(FRIENDLY_CHARACTERS, 2)],
)
card("CS1_130", spell=Damage(TARGET, 3, spell=True), requirements=A_MINION)  # Holy Smite
card("EX1_192", spell=Heal(FRIENDLY_HERO, 5))  # Radiance
card("EX1_194", spell=Buff(TARGET, "EX1_194e"), requirements=A_MINION)  # Power Infusion
enchantment("EX1_194e", atk=2, health=6)
card("CS2_234", spell=Destroy(TARGET), requirements=MINION_MAX_ATTACK_3)  # Shadow Word: Pain
card("EX1_622", spell=Destroy(TARGET), requirements=MINION_MIN_ATTACK_5)  # Shadow Word: Death
