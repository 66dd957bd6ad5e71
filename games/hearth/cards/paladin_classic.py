"""Paladin Classic and Hall of Fame cards (the older paladin secrets are in :mod:`.secrets`).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_04")
>>> yeti = S.summon(g, 2, "CS2_182")
>>> S.play(g, S.give(g, 1, "EX1_371"), yeti)   # Hand of Protection
>>> S.hit(g, yeti, 3), g.health(yeti), g.ents[yeti][DIVINE_SHIELD]
(0, 5, 0)
"""

from __future__ import annotations

from ..dsl import (
    ALL_MINIONS,
    ENEMY_CHARACTERS,
    ENEMY_HERO,
    EV_AFTER_PLAYED,
    EV_ATTACK,
    EV_DAMAGED,
    EV_SUMMONED,
    FRIENDLY_MINIONS,
    FRIENDLY_WEAPON,
    ON_ATTACHED,
    ON_ENEMY_MINION,
    ON_FRIENDLY_HERO,
    ON_FRIENDLY_MINION,
    TARGET,
    Buff,
    Damage,
    DamageWeapon,
    Draw,
    DrawThenDamage,
    Equip,
    EventAmount,
    HandGap,
    Heal,
    Seq,
    SetStat,
    SetTag,
    SplitDamage,
    TagOf,
    Trigger,
    card,
    enchantment,
)
from ..enums import ATK, DIVINE_SHIELD, HEALTH, PlayReq
from ..primitives import Primitives
from .targets import A_MINION, FRIENDLY_MINION_IF_AVAILABLE

ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}
ENEMY_MINION_IF_AVAILABLE = {
    PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
    PlayReq.REQ_MINION_TARGET: 0,
    PlayReq.REQ_ENEMY_TARGET: 0,
}


def _alive(g: Primitives, listener: int, subject: int) -> bool:
    return g.alive(subject)


card(  # Eye for an Eye: the damage the hero took (after Armor), as spell damage (SabberStone)
    "EX1_132",
    secret=Trigger(EV_DAMAGED, Damage(ENEMY_HERO, EventAmount(), spell=True), ON_FRIENDLY_HERO),
)
card("EX1_184", spell=SetTag(FRIENDLY_MINIONS, DIVINE_SHIELD))  # Righteousness
card("EX1_349", spell=Draw(HandGap()))  # Divine Favor: the gap counted once, as it is cast
card("EX1_354", spell=[Heal(TARGET, 8), Draw(3)], requirements=ANY)  # Lay on Hands
# Blessed Champion: + the current Attack (auras included), as an enchantment.
card("EX1_355", spell=Buff(TARGET, "EX1_355e", scale=TagOf(TARGET, ATK)), requirements=A_MINION)
enchantment("EX1_355e", scaled=True, atk=1)
card(  # Argent Protector
    "EX1_362", battlecry=SetTag(TARGET, DIVINE_SHIELD), requirements=FRIENDLY_MINION_IF_AVAILABLE
)
# Blessing of Wisdom: the caster draws whenever the blessed minion attacks, whoever owns it.
card("EX1_363", spell=Buff(TARGET, "EX1_363e"), requirements=A_MINION)
card("EX1_363e", trigger=Trigger(EV_ATTACK, Draw(1), ON_ATTACHED))
card("EX1_365", spell=DrawThenDamage(TARGET), requirements=ANY)  # Holy Wrath
card(  # Sword of Justice: every friendly minion summoned, played or by an effect
    "EX1_366",
    trigger=Trigger(
        EV_SUMMONED,
        Seq(Buff(TARGET, "EX1_366e"), DamageWeapon(FRIENDLY_WEAPON, 1)),
        ON_FRIENDLY_MINION,
    ),
)
enchantment("EX1_366e", atk=1, health=1)
card("EX1_371", spell=SetTag(TARGET, DIVINE_SHIELD), requirements=A_MINION)  # Hand of Protection
card(  # Repentance: after the battlecry; a minion already dead is left alone (SabberStone)
    "EX1_379",
    secret=Trigger(
        EV_AFTER_PLAYED, SetStat(TARGET, "EX1_379e", HEALTH, 1), ON_ENEMY_MINION, when=_alive
    ),
)
enchantment("EX1_379e", scaled=True, health=1)
card(  # Aldor Peacekeeper
    "EX1_382",
    battlecry=SetStat(TARGET, "EX1_382e", ATK, 1),
    requirements=ENEMY_MINION_IF_AVAILABLE,
)
enchantment("EX1_382e", scaled=True, atk=1)
card("EX1_383", deathrattle=Equip("EX1_383t"))  # Tirion Fordring: Ashbringer
card("EX1_384", spell=SplitDamage(ENEMY_CHARACTERS, 8, spell=True))  # Avenging Wrath
card("EX1_619", spell=SetStat(ALL_MINIONS, "EX1_619e", HEALTH, 1))  # Equality
enchantment("EX1_619e", scaled=True, health=1)
