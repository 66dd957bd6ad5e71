"""Mage spells (Fireball and Frostbolt are declared in :mod:`.basic`).

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> kobold = S.summon(g, 1, "CS2_142")         # Spell Damage +1: one more missile
>>> S.play(g, S.give(g, 1, "EX1_277"))         # Arcane Missiles, empty enemy board
>>> g.health(g.hero[2])
26
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_CHARACTERS,
    ENEMY_MINIONS,
    EV_DAMAGED,
    ON_BY_SELF,
    TARGET,
    Damage,
    Draw,
    Freeze,
    SplitDamage,
    Summon,
    Transform,
    Trigger,
    card,
)
from .targets import A_MINION, ONE_SLOT

card("CS2_025", spell=Damage(ENEMY_MINIONS, 1, spell=True))  # Arcane Explosion
card("CS2_032", spell=Damage(ENEMY_MINIONS, 4, spell=True))  # Flamestrike (4 in patch 17.6)
# Arcane Missiles: spell damage adds missiles, not damage per missile.
card("EX1_277", spell=SplitDamage(ENEMY_CHARACTERS, 3, spell=True))
card("CS2_023", spell=Draw(2))  # Arcane Intellect
card("CS2_022", spell=Transform(TARGET, "CS2_tk1"), requirements=A_MINION)  # Polymorph
# Mirror Image: the images go to the right end; with 6 minions only one fits.
card("CS2_027", spell=Summon("CS2_mirror", count=2, side="end"), requirements=ONE_SLOT)
card("CS2_026", spell=Freeze(ENEMY_MINIONS))  # Frost Nova

# Water Elemental: freeze any character this minion damages (attacking or defending).
card("CS2_033", trigger=Trigger(EV_DAMAGED, Freeze(TARGET), ON_BY_SELF))
