"""Classic and Hall of Fame neutral minions, second half by id (helper neutralB), with the
tokens and enchantments they create.

Choices where SabberStone, fireplace and the card text disagree: docs/hearth-cards/neutral-b.md.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> S.play(g, S.give(g, 1, "EX1_116"))          # Leeroy Jenkins: two Whelps for the opponent
>>> [g.ents[i].card.id for i in g.board[2]]
['EX1_116t', 'EX1_116t']
"""

from __future__ import annotations

from ..dsl import (
    ADJACENT,
    ALL_CHARACTERS,
    ALL_MINIONS,
    ATTACHED_TO,
    DAMAGED,
    ENEMY_MINIONS,
    ENEMY_WEAPON,
    EV_AFTER_PLAY_CARD,
    EV_CAST,
    EV_TURN_END,
    EV_TURN_START,
    FRIENDLY_HERO,
    FRIENDLY_MINIONS,
    FRIENDLY_WEAPON,
    HAS,
    MAX_ATK,
    NOT_CARD,
    ON_FRIENDLY,
    ON_FRIENDLY_PLAYER,
    RACE,
    RANDOM,
    SELF,
    TARGET,
    Aura,
    Buff,
    BuffScaled,
    Count,
    Damage,
    DamageWeapon,
    Destroy,
    DiscardHand,
    Draw,
    DrawRace,
    Durability,
    Freeze,
    GiveFromPool,
    GiveRandom,
    Heal,
    If,
    ReturnToHand,
    Seq,
    SetRemainingHealth,
    SetTag,
    Summon,
    SummonBothSides,
    SummonCount,
    SummonDiedThisTurn,
    SummonEnemy,
    SummonFromPool,
    SummonRandom,
    TagSum,
    Transform,
    Trigger,
    alive_not_self,
    card,
    chance,
    enchantment,
    triggered_enchantment,
    vanilla,
)
from ..enums import (
    ATK,
    DIVINE_SHIELD,
    R_BEAST,
    R_LEGENDARY,
    R_MURLOC,
    R_PIRATE,
    T_MINION,
    PlayReq,
)

ANY_IF_AVAILABLE = {PlayReq.REQ_TARGET_IF_AVAILABLE: 0}
A_MINION = {PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_MINION_TARGET: 0}
ROOM = {PlayReq.REQ_NUM_MINION_SLOTS: 1}
FRIENDLY_MINION_IF_AVAILABLE = {  # --- rogue --- (as cards/targets.py names it)
    PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
    PlayReq.REQ_MINION_TARGET: 0,
    PlayReq.REQ_FRIENDLY_TARGET: 0,
    PlayReq.REQ_NONSELF_TARGET: 0,
}

# ------------------------------------------------------------------------------ keywords only

vanilla(
    "EX1_170",  # Emperor Cobra: Poisonous
    "EX1_396",  # Mogu'shan Warden: Taunt
    "EX1_405",  # Shieldbearer: Taunt
    "NEW1_023",  # Faerie Dragon: CANT_BE_TARGETED_BY_SPELLS / _HERO_POWERS (play.py)
)

# ------------------------------------------------------------------------------ battlecries

card("EX1_103", battlecry=Buff(RACE(FRIENDLY_MINIONS, R_MURLOC) - SELF, "EX1_103e"))  # Coldlight
enchantment("EX1_103e", health=2)
card("EX1_283", battlecry=Freeze(TARGET), requirements=ANY_IF_AVAILABLE)  # Frost Elemental
card("EX1_284", battlecry=Draw(1))  # Azure Drake (Spell Damage +1 is card data)
card("EX1_583", battlecry=Heal(FRIENDLY_HERO, 4))  # Priestess of Elune
card("EX1_584", battlecry=Buff(ADJACENT, "EX1_584e"))  # Ancient Mage
enchantment("EX1_584e", spellpower=1)
card(  # Alexstrasza: the remaining Health, not the maximum (17.6 text)
    "EX1_561",
    battlecry=SetRemainingHealth(TARGET, 15),
    requirements={PlayReq.REQ_TARGET_IF_AVAILABLE: 0, PlayReq.REQ_HERO_TARGET: 0},
)
card(  # Hungry Crab: +2/+2 only when it ate a Murloc (SabberStone; fireplace always buffs)
    "NEW1_017",
    battlecry=If(lambda g, ctx: bool(ctx.target), [Destroy(TARGET), Buff(SELF, "NEW1_017e")]),
    requirements={PlayReq.REQ_TARGET_IF_AVAILABLE: 0, PlayReq.REQ_TARGET_WITH_RACE: R_MURLOC},
)
enchantment("NEW1_017e", atk=2, health=2)
card(  # Blood Knight: counted first, then every shield goes (its own included: it has none)
    "EX1_590",
    battlecry=[
        BuffScaled(SELF, "EX1_590e", scale=Count(HAS(ALL_MINIONS, DIVINE_SHIELD))),
        SetTag(HAS(ALL_MINIONS, DIVINE_SHIELD), DIVINE_SHIELD, 0),
    ],
)
enchantment("EX1_590e", atk=3, health=3, scaled=True)
card(  # Stampeding Kodo
    "NEW1_041", battlecry=Destroy(RANDOM(MAX_ATK(ENEMY_MINIONS, 2)))
)
card("NEW1_030", battlecry=[Destroy(ALL_MINIONS - SELF), DiscardHand()])  # Deathwing
card("EX1_190", battlecry=SummonDiedThisTurn())  # High Inquisitor Whitemane
card("EX1_188", battlecry=SummonFromPool(T_MINION, race=R_BEAST))  # Barrens Stablehand
card("EX1_189", battlecry=GiveFromPool(T_MINION, rarity=R_LEGENDARY))  # Brightwing
card("NEW1_016", battlecry=DrawRace(R_PIRATE))  # Captain's Parrot

# ------------------------------------------------------------------------------ weapons

card(  # Bloodsail Raider: one point of Attack per point of the weapon's
    "NEW1_018", battlecry=BuffScaled(SELF, "NEW1_018e", scale=TagSum(FRIENDLY_WEAPON, ATK))
)
enchantment("NEW1_018e", atk=1, scaled=True)
card("NEW1_024", battlecry=Buff(FRIENDLY_WEAPON, "NEW1_024o"))  # Captain Greenskin
enchantment("NEW1_024o", atk=1, durability=1)
card("NEW1_025", battlecry=DamageWeapon(ENEMY_WEAPON, 1))  # Bloodsail Corsair
card(  # Harrison Jones: the Durability left is counted before the weapon goes
    "EX1_558", battlecry=[Draw(Durability(ENEMY_WEAPON)), Destroy(ENEMY_WEAPON)]
)

# ------------------------------------------------------------------------------ summons

card("EX1_116", battlecry=SummonEnemy("EX1_116t", 2))  # Leeroy Jenkins
card("EX1_562", battlecry=SummonBothSides("EX1_116t"))  # Onyxia (SabberStone's Whelp)
card("EX1_110", deathrattle=Summon("EX1_110t", side="slot"))  # Cairne Bloodhoof
card("EX1_577", deathrattle=SummonEnemy("EX1_finkle"))  # The Beast
card(  # Xavius
    "EX1_614",
    trigger=Trigger(EV_AFTER_PLAY_CARD, Summon("EX1_614t"), ON_FRIENDLY, when=alive_not_self),
)

# ------------------------------------------------------------------------------ auras

card("EX1_507", aura=Aura(RACE(FRIENDLY_MINIONS, R_MURLOC) - SELF, "EX1_507e"))  # Warleader
enchantment("EX1_507e", atk=2)
card("NEW1_027", aura=Aura(RACE(FRIENDLY_MINIONS, R_PIRATE) - SELF, "NEW1_027e"))  # Southsea
enchantment("NEW1_027e", atk=1, health=1)

# ------------------------------------------------------------------------------ triggers

card("EX1_187", trigger=Trigger(EV_CAST, Buff(SELF, "EX1_187e"), ON_FRIENDLY))  # Arcane Devourer
enchantment("EX1_187e", atk=2, health=2)
card(  # Nat Pagle: before the turn's own draw (MAIN_START_TRIGGERS)
    "EX1_557", trigger=Trigger(EV_TURN_START, If(chance(2), Draw(1)), ON_FRIENDLY_PLAYER)
)
card(  # Doomsayer: itself included
    "NEW1_021", trigger=Trigger(EV_TURN_START, Destroy(ALL_MINIONS), ON_FRIENDLY_PLAYER)
)
card(  # Master Swordsmith
    "NEW1_037",
    trigger=Trigger(
        EV_TURN_END, Buff(RANDOM(FRIENDLY_MINIONS - SELF), "NEW1_037e"), ON_FRIENDLY_PLAYER
    ),
)
enchantment("NEW1_037e", atk=1)

# ------------------------------------------------------------------------------ Gelbin's inventions

INVENTIONS = ("Mekka1", "Mekka2", "Mekka3", "Mekka4")
card("EX1_112", battlecry=SummonRandom(INVENTIONS))  # Gelbin Mekkatorque
card(  # Homing Chicken
    "Mekka1", trigger=Trigger(EV_TURN_START, Seq(Destroy(SELF), Draw(3)), ON_FRIENDLY_PLAYER)
)
card(  # Repair Bot
    "Mekka2",
    trigger=Trigger(EV_TURN_END, Heal(RANDOM(DAMAGED(ALL_CHARACTERS)), 6), ON_FRIENDLY_PLAYER),
)
card(  # Emboldener 3000: any minion, itself included
    "Mekka3", trigger=Trigger(EV_TURN_END, Buff(RANDOM(ALL_MINIONS), "Mekka3e"), ON_FRIENDLY_PLAYER)
)
enchantment("Mekka3e", atk=1, health=1)
card(  # Poultryizer: any minion, itself included (Mekka4e is not attached, as Hex's)
    "Mekka4",
    trigger=Trigger(EV_TURN_START, Transform(RANDOM(ALL_MINIONS), "Mekka4t"), ON_FRIENDLY_PLAYER),
)

# ------------------------------------------------------------------------------ Power Chords

POWER_CHORDS = ("PRO_001a", "PRO_001b", "PRO_001c")
HORDE_WARRIORS = ("CS2_121", "EX1_021", "EX1_023", "EX1_110", "EX1_390", "CS2_179")
card("PRO_001", battlecry=GiveRandom(POWER_CHORDS, both=True))  # Elite Tauren Chieftain
card("PRO_001a", spell=SummonCount("PRO_001at", (3, 4, 5)), requirements=ROOM)  # I Am Murloc
card(  # Rogues Do It...
    "PRO_001b",
    spell=[Damage(TARGET, 4, spell=True), Draw(1)],
    requirements={PlayReq.REQ_TARGET_TO_PLAY: 0},
)
card("PRO_001c", spell=SummonRandom(HORDE_WARRIORS, side="end"), requirements=ROOM)

# ------------------------------------------------------------------------------ Dream Cards
_DREAMS = ("DREAM_01", "DREAM_02", "DREAM_03", "DREAM_04", "DREAM_05")
# Ysera: At the end of your turn, add a Dream Card to your hand (one of the five).
card(
    "EX1_572",
    trigger=Trigger(EV_TURN_END, GiveRandom(_DREAMS), ON_FRIENDLY_PLAYER),
)
card("DREAM_04", spell=ReturnToHand(TARGET), requirements=A_MINION)  # Dream

vanilla("DREAM_01", "DREAM_03")  # Laughing Sister (can't be targeted), Emerald Drake
card("DREAM_02", spell=Damage(NOT_CARD(ALL_CHARACTERS, "EX1_572"), 5, spell=True))
card("DREAM_05", spell=Buff(TARGET, "DREAM_05e"), requirements=A_MINION)  # Nightmare
triggered_enchantment(  # destroyed at the start of the caster's next turn
    "DREAM_05e",
    Trigger(EV_TURN_START, Destroy(ATTACHED_TO), ON_FRIENDLY_PLAYER),
    atk=5,
    health=5,
)


# --- rogue --- the Brewmasters: Battlecry: Return a friendly minion from the battlefield
# to your hand.
for _brewmaster in ("EX1_049", "EX1_057"):
    card(_brewmaster, battlecry=ReturnToHand(TARGET), requirements=FRIENDLY_MINION_IF_AVAILABLE)
