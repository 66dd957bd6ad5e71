"""Neutral minions of the Basic/Classic set (reference section 4), declared by id.

Vanilla and keyword-only minions are declared with :func:`~games.hearth.dsl.vanilla`:
Taunt, Charge, Divine Shield and Spell Damage are card-data tags the engine reads directly.
Raid Leader and Stormwind Champion are declared in :mod:`.basic`.

Play requirements follow SabberStone's CoreCardsGen/Expert1CardsGen (the 17.6 CardDefs
hold none).

>>> from games.hearth import scenario as S
>>> from games.hearth.enums import ATK
>>> g = S.prepared()
>>> wisps = [S.summon(g, 1, "CS2_231") for _ in range(3)]
>>> warlord = S.give(g, 1, "CS2_226")          # Frostwolf Warlord
>>> S.play(g, warlord)
>>> g.ents[warlord].card.name, g.ents[warlord][ATK], g.health(warlord)
('Frostwolf Warlord', 7, 7)
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_CHARACTERS,
    ENEMY_WEAPON,
    EV_DAMAGED,
    EV_SUMMONED,
    FRIENDLY_CHARACTERS,
    FRIENDLY_MINIONS,
    ON_OTHER_FRIENDLY_MINION,
    ON_SELF,
    RACE,
    SELF,
    TARGET,
    AdjacentAura,
    Aura,
    Buff,
    Count,
    Damage,
    Destroy,
    Draw,
    Heal,
    Silence,
    SplitDamage,
    Summon,
    TransformCopy,
    Trigger,
    card,
    enchantment,
    vanilla,
)
from ..enums import R_MURLOC
from .targets import (
    ANY_IF_AVAILABLE,
    FRIENDLY_MINION_IF_AVAILABLE,
    MINION_IF_AVAILABLE,
    OTHER_MINION_IF_AVAILABLE,
)

vanilla(
    "CS2_231",  # Wisp
    "CS2_168",  # Murloc Raider
    "CS2_172",  # Bloodfen Raptor
    "CS2_120",  # River Crocolisk
    "CS2_182",  # Chillwind Yeti
    "CS2_200",  # Boulderfist Ogre
    "CS2_171",  # Stonetusk Boar
    "CS2_124",  # Wolfrider
    "CS2_121",  # Frostwolf Grunt
    "CS2_179",  # Sen'jin Shieldmasta
    "EX1_008",  # Argent Squire
    "CS2_142",  # Kobold Geomancer
)

# ------------------------------------------------------------------------------ battlecries

card("CS2_189", battlecry=Damage(TARGET, 1), requirements=ANY_IF_AVAILABLE)  # Elven Archer
card(  # Shattered Sun Cleric
    "EX1_019", battlecry=Buff(TARGET, "EX1_019e"), requirements=FRIENDLY_MINION_IF_AVAILABLE
)
enchantment("EX1_019e", atk=1, health=1)
card("EX1_506", battlecry=Summon("EX1_506a"))  # Murloc Tidehunter: the Scout goes to its right
card("CS2_196", battlecry=Summon("CS2_boar"))  # Razorfen Hunter
# Frostwolf Warlord: one scaled enchantment (+1/+1 x the count), as SabberStone's CS2_226e.
card("CS2_226", battlecry=Buff(SELF, "CS2_226e", scale=Count(FRIENDLY_MINIONS - SELF)))
enchantment("CS2_226e", atk=1, health=1, scaled=True)
card("EX1_015", battlecry=Draw(1))  # Novice Engineer
card("EX1_066", battlecry=Destroy(ENEMY_WEAPON))  # Acidic Swamp Ooze
# Abusive Sergeant: CS2_188o carries TAG_ONE_TURN_EFFECT, so MAIN_CLEANUP removes it.
card("CS2_188", battlecry=Buff(TARGET, "CS2_188o"), requirements=MINION_IF_AVAILABLE)
enchantment("CS2_188o", atk=2)
card("DS1_055", battlecry=Heal(FRIENDLY_CHARACTERS, 2))  # Darkscale Healer
card("CS2_203", battlecry=Silence(TARGET), requirements=MINION_IF_AVAILABLE)  # Ironbeak Owl
# Faceless Manipulator: the target is optional; with no other minion it stays a 3/3.
card("EX1_564", battlecry=TransformCopy(TARGET), requirements=OTHER_MINION_IF_AVAILABLE)

# ------------------------------------------------------------------------------ deathrattles

card("EX1_012", deathrattle=Draw(1))  # Bloodmage Thalnos (Spell Damage +1 is a data tag)
card("EX1_096", deathrattle=Draw(1))  # Loot Hoarder
card("EX1_556", deathrattle=Summon("skele21", side="slot"))  # Harvest Golem

# ------------------------------------------------------------------------------ auras

card("EX1_508", aura=Aura(RACE(FRIENDLY_MINIONS, R_MURLOC) - SELF, "EX1_508o"))  # Grimscale
enchantment("EX1_508o", atk=1)
card("EX1_162", aura=AdjacentAura("EX1_162o"))  # Dire Wolf Alpha
enchantment("EX1_162o", atk=1)
card("EX1_393", enrage="EX1_393e")  # Amani Berserker: +3 Attack while damaged
enchantment("EX1_393e", atk=3)

# ------------------------------------------------------------------------------ triggers

card("EX1_007", trigger=Trigger(EV_DAMAGED, Draw(1), ON_SELF))  # Acolyte of Pain
# Gurubashi Berserker: one stacking EX1_399e per damage instance.
card("EX1_399", trigger=Trigger(EV_DAMAGED, Buff(SELF, "EX1_399e"), ON_SELF))
enchantment("EX1_399e", atk=3)


# Knife Juggler: after another friendly minion is summoned, 1 damage to a random enemy. A
# Juggler the battlecry of that very minion left mortally wounded throws nothing: the core
# runs the death phase between a battlecry and the after-summon phase (SabberStone
# PlayMinion, fireplace test_knife_juggler).
card(
    "NEW1_019",
    trigger=Trigger(
        EV_SUMMONED,
        SplitDamage(ENEMY_CHARACTERS, 1),
        ON_OTHER_FRIENDLY_MINION,
    ),
)
