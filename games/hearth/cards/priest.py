"""Priest and Paladin spells (Blessing of Kings is declared in :mod:`.basic`)."""

from __future__ import annotations

from ..dsl import ENEMY_CHARACTERS, TARGET, Buff, Damage, Silence, card, enchantment
from .targets import A_MINION

# Power Word: Shield in patch 17.6: cost 0, +2 Health, no draw.
card("CS2_004", spell=Buff(TARGET, "CS2_004e"), requirements=A_MINION)
enchantment("CS2_004e", health=2)
card("EX1_332", spell=Silence(TARGET), requirements=A_MINION)  # Silence
card("CS2_093", spell=Damage(ENEMY_CHARACTERS, 2, spell=True))  # Consecration (hero included)
