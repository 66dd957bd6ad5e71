"""Druid Basic cards and Shapeshift (HERO_06bp).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_06")
>>> S.play(g, S.give(g, 1, "CS2_005"))         # Claw: +2 Attack this turn, 2 Armor
>>> from games.hearth.enums import ARMOR
>>> g.attack_value(g.hero[1]), g.ents[g.hero[1]][ARMOR]
(2, 2)
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_CHARACTERS,
    FRIENDLY_CHARACTERS,
    FRIENDLY_HERO,
    TARGET,
    Buff,
    Damage,
    Draw,
    GainArmor,
    GainManaCrystal,
    GainTempMana,
    GiveCard,
    Heal,
    card,
    enchantment,
    vanilla,
)
from ..enums import PlayReq
from .targets import A_MINION

_ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}

card("HERO_06bp", play=[Buff(FRIENDLY_HERO, "CS2_017o"), GainArmor(1)])  # Shapeshift
enchantment("CS2_017o", atk=1)  # one turn (TAG_ONE_TURN_EFFECT)
card("CS2_005", spell=[Buff(FRIENDLY_HERO, "CS2_005o"), GainArmor(2)])  # Claw
enchantment("CS2_005o", atk=2)
card("CS2_007", spell=Heal(TARGET, 8), requirements=_ANY)  # Healing Touch
card("CS2_008", spell=Damage(TARGET, 1, spell=True), requirements=_ANY)  # Moonfire
card("CS2_009", spell=Buff(TARGET, "CS2_009e"), requirements=A_MINION)  # Mark of the Wild
enchantment("CS2_009e", atk=2, health=2, taunt=1)
card("CS2_011", spell=Buff(FRIENDLY_CHARACTERS, "CS2_011o"))  # Savage Roar (hero included)
enchantment("CS2_011o", atk=2)
# Swipe: 4 to the target, 1 to every other enemy character (the enemy hero included).
card(
    "CS2_012",
    spell=[Damage(TARGET, 4, spell=True), Damage(ENEMY_CHARACTERS - TARGET, 1, spell=True)],
    requirements={PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_ENEMY_TARGET: 0},
)
# Wild Growth: at 10 crystals the card "Excess Mana" is put into the hand instead.
card("CS2_013", spell=GainManaCrystal(1, full=GiveCard("CS2_013t")))
card("CS2_013t", spell=Draw(1))  # Excess Mana
vanilla("CS2_232")  # Ironbark Protector
card("EX1_169", spell=GainTempMana(1))  # Innervate
card("EX1_173", spell=[Damage(TARGET, 5, spell=True), Draw(1)], requirements=_ANY)  # Starfire
