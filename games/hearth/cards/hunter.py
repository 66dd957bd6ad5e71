"""Hunter Basic cards, Steady Shot (HERO_05bp) and the Animal Companions.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_05")
>>> S.power(g)                                 # Steady Shot: 2 to the enemy hero
>>> g.health(g.hero[2])
28
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_HERO,
    ENEMY_MINIONS,
    EV_SUMMONED,
    FRIENDLY_MINIONS,
    ON_OTHER_FRIENDLY_MINION,
    RACE,
    RANDOM,
    SELF,
    TARGET,
    Aura,
    Buff,
    Damage,
    Draw,
    If,
    SetStat,
    SummonRandom,
    Trigger,
    card,
    controls,
    enchantment,
    is_race,
    vanilla,
)
from ..enums import HEALTH, R_BEAST, PlayReq
from .targets import A_MINION, ONE_SLOT

_ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}
BEASTS = RACE(FRIENDLY_MINIONS, R_BEAST)

card("HERO_05bp", play=Damage(ENEMY_HERO, 2))  # Steady Shot (17.6: the enemy hero only)
card("DS1_185", spell=Damage(TARGET, 2, spell=True), requirements=_ANY)  # Arcane Shot
# Hunter's Mark: the minion's Health becomes 1 (damage cleared); Silence undoes it.
card("CS2_084", spell=SetStat(TARGET, "CS2_084e", HEALTH, 1), requirements=A_MINION)
enchantment("CS2_084e", scaled=True, health=1)
card(  # Starving Buzzard: whenever you summon a Beast (not for itself)
    "CS2_237",
    trigger=Trigger(EV_SUMMONED, Draw(1), ON_OTHER_FRIENDLY_MINION, when=is_race(R_BEAST)),
)
card(  # Houndmaster: a friendly Beast, when one is available
    "DS1_070",
    battlecry=Buff(TARGET, "DS1_070o"),
    requirements={
        PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
        PlayReq.REQ_MINION_TARGET: 0,
        PlayReq.REQ_FRIENDLY_TARGET: 0,
        PlayReq.REQ_NONSELF_TARGET: 0,
        PlayReq.REQ_TARGET_WITH_RACE: R_BEAST,
    },
)
enchantment("DS1_070o", atk=2, health=2, taunt=1)
card("DS1_175", aura=Aura(BEASTS - SELF, "DS1_175o"))  # Timber Wolf
enchantment("DS1_175o", atk=1)
card("DS1_178", aura=Aura(BEASTS, "DS1_178e"))  # Tundra Rhino (itself included)
enchantment("DS1_178e", charge=1)
# Multi-Shot: castable with one enemy minion (it is hit alone): SabberStone's code uses
# REQ_MINIMUM_ENEMY_MINIONS 1 although its CardDefs comment says 2.
card(
    "DS1_183",
    spell=Damage(RANDOM(ENEMY_MINIONS, 2), 3, spell=True),
    requirements={PlayReq.REQ_MINIMUM_ENEMY_MINIONS: 1},
)
card(  # Kill Command
    "EX1_539",
    spell=If(controls(BEASTS), Damage(TARGET, 5, spell=True), Damage(TARGET, 3, spell=True)),
    requirements=_ANY,
)
# Animal Companion: Huffer, Leokk or Misha, uniformly.
card("NEW1_031", spell=SummonRandom(("NEW1_034", "NEW1_033", "NEW1_032")), requirements=ONE_SLOT)
vanilla("NEW1_032", "NEW1_034")  # Misha (Taunt), Huffer (Charge)
card("NEW1_033", aura=Aura(FRIENDLY_MINIONS - SELF, "NEW1_033o"))  # Leokk
enchantment("NEW1_033o", atk=1)
