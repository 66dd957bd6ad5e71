"""Rogue Basic cards and Dagger Mastery (HERO_03bp).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_03")
>>> S.power(g)                                 # Dagger Mastery: a 1/2 Wicked Knife
>>> S.play(g, S.give(g, 1, "CS2_074"))        # Deadly Poison: +2 Attack
>>> g.attack_value(g.hero[1])
3
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_HERO,
    ENEMY_MINIONS,
    FRIENDLY_WEAPON,
    TARGET,
    Buff,
    Damage,
    Destroy,
    Draw,
    Equip,
    card,
    enchantment,
    vanilla,
)
from ..enums import PlayReq
from .targets import FRIENDLY_MINION_IF_AVAILABLE, UNDAMAGED_MINION

ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}
ENEMY_MINION = {
    PlayReq.REQ_TARGET_TO_PLAY: 0,
    PlayReq.REQ_MINION_TARGET: 0,
    PlayReq.REQ_ENEMY_TARGET: 0,
}

card("HERO_03bp", play=Equip("CS2_082"))  # Dagger Mastery: a 1/2 Wicked Knife
vanilla("CS2_082")  # Wicked Knife
vanilla("CS2_080")  # Assassin's Blade
card("CS2_075", spell=Damage(ENEMY_HERO, 3, spell=True))  # Sinister Strike
card("CS2_076", spell=Destroy(TARGET), requirements=ENEMY_MINION)  # Assassinate
card("CS2_077", spell=Draw(4))  # Sprint
card("EX1_129", spell=[Damage(ENEMY_MINIONS, 1, spell=True), Draw(1)])  # Fan of Knives
card("EX1_278", spell=[Damage(TARGET, 1, spell=True), Draw(1)], requirements=ANY)  # Shiv
card("CS2_072", spell=Damage(TARGET, 2, spell=True), requirements=UNDAMAGED_MINION)  # Backstab
card(  # Deadly Poison
    "CS2_074",
    spell=Buff(FRIENDLY_WEAPON, "CS2_074e"),
    requirements={PlayReq.REQ_WEAPON_EQUIPPED: 0},
)
enchantment("CS2_074e", atk=2)
card(  # Plaguebringer
    "EX1_191", battlecry=Buff(TARGET, "EX1_191e"), requirements=FRIENDLY_MINION_IF_AVAILABLE
)
enchantment("EX1_191e", poisonous=1)
