"""Neutral Basic minions not in :mod:`.neutral` (vanilla, keywords, battlecries).

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> S.play(g, S.give(g, 1, "EX1_593"))          # Nightblade
>>> g.health(g.hero[2])
27
"""

from __future__ import annotations

from ..dsl import ENEMY_HERO, TARGET, Damage, Draw, Heal, Summon, card, vanilla
from .targets import ANY_IF_AVAILABLE

vanilla(
    "CS1_042",  # Goldshire Footman
    "CS2_118",  # Magma Rager
    "CS2_119",  # Oasis Snapjaw
    "CS2_125",  # Ironfur Grizzly
    "CS2_127",  # Silverback Patriarch
    "CS2_131",  # Stormwind Knight
    "CS2_155",  # Archmage
    "CS2_162",  # Lord of the Arena
    "CS2_173",  # Bluegill Warrior
    "CS2_186",  # War Golem
    "CS2_187",  # Booty Bay Bodyguard
    "CS2_197",  # Ogre Magi
    "CS2_201",  # Core Hound
    "CS2_213",  # Reckless Rocketeer
    "EX1_582",  # Dalaran Mage
)

card("CS2_141", battlecry=Damage(TARGET, 1), requirements=ANY_IF_AVAILABLE)  # Ironforge Rifleman
card("CS2_147", battlecry=Draw(1))  # Gnomish Inventor
card("CS2_150", battlecry=Damage(TARGET, 2), requirements=ANY_IF_AVAILABLE)  # Stormpike Commando
card("EX1_011", battlecry=Heal(TARGET, 2), requirements=ANY_IF_AVAILABLE)  # Voodoo Doctor
card("EX1_025", battlecry=Summon("EX1_025t"))  # Dragonling Mechanic: to its right
card("EX1_593", battlecry=Damage(ENEMY_HERO, 3))  # Nightblade
