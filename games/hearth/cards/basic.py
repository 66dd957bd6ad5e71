"""Heroes, hero powers, The Coin, and the first Basic cards (the rest: one file per class).

Heroes and vanilla minions need no declaration: Taunt, Charge, Divine Shield and Spell
Damage are tags in the card data that the engine reads directly.
"""

from __future__ import annotations

from ..dsl import (
    ALL_CHARACTERS,
    FRIENDLY_MINIONS,
    SELF,
    TARGET,
    Aura,
    Buff,
    Damage,
    Freeze,
    GainArmor,
    GainTempMana,
    Heal,
    Summon,
    card,
    enchantment,
)
from ..enums import PlayReq

ANY_TARGET = {PlayReq.REQ_TARGET_TO_PLAY: 0}
MINION_TARGET = {PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_MINION_TARGET: 0}

# Hero powers (spell damage never applies to hero powers).
card("HERO_08bp", play=Damage(TARGET, 1), requirements=ANY_TARGET)  # Fireblast
card("HERO_01bp", play=GainArmor(2))  # Armor Up!
card(
    "HERO_04bp", play=Summon("CS2_101t", side="end"), requirements={PlayReq.REQ_NUM_MINION_SLOTS: 1}
)
card("HERO_09bp", play=Heal(TARGET, 2), requirements=ANY_TARGET)  # Lesser Heal

card("GAME_005", play=GainTempMana(1))  # The Coin

# Mage
card("CS2_029", play=Damage(TARGET, 6, spell=True), requirements=ANY_TARGET)  # Fireball
card("CS2_024", play=[Damage(TARGET, 3, spell=True), Freeze(TARGET)], requirements=ANY_TARGET)

# Paladin
card("CS2_092", play=Buff(TARGET, "CS2_092e"), requirements=MINION_TARGET)  # Blessing of Kings
enchantment("CS2_092e", atk=4, health=4)

# Neutral auras
card("CS2_122", aura=Aura(FRIENDLY_MINIONS - SELF, "CS2_122e"))  # Raid Leader
enchantment("CS2_122e", atk=1)
card("CS2_222", aura=Aura(FRIENDLY_MINIONS - SELF, "CS2_222o"))  # Stormwind Champion
enchantment("CS2_222o", atk=1, health=1)

__all__ = ["ALL_CHARACTERS", "ANY_TARGET", "MINION_TARGET"]
