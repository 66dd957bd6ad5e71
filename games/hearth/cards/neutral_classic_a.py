"""Neutral Classic and Hall of Fame minions, first half by id (helper neutralA).

Keyword-only minions (Taunt, Stealth, Windfury, Divine Shield, Charge, Can't Attack) are
card-data tags the engine reads; they are declared with :func:`~games.hearth.dsl.vanilla`.
Play requirements follow SabberStone's Expert1CardsGen / HofCardsGen (the 17.6 CardDefs
hold none). Where the references disagree: ``docs/hearth-cards/neutral-a.md``.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> murloc = S.summon(g, 2, "CS2_168")            # a Murloc Raider on the other side
>>> eye = S.give(g, 1, "EX1_062")                 # Old Murk-Eye, 2/4 Charge
>>> S.play(g, eye)
>>> g.ents[eye][ATK]
3
"""

from __future__ import annotations

from ..dsl import (
    ADJACENT,
    ALL_CHARACTERS,
    ALL_MINIONS,
    EV_CAST,
    EV_PLAYED,
    EV_TURN_END,
    EV_TURN_START,
    FRIENDLY_HAND,
    FRIENDLY_MINIONS,
    FRIENDLY_WEAPON,
    ON_ANY,
    ON_FRIENDLY,
    ON_FRIENDLY_PLAYER,
    RACE,
    RANDOM,
    SELF,
    TARGET,
    WHILE,
    Aura,
    Buff,
    Count,
    Damage,
    Destroy,
    Draw,
    ForOpponent,
    GainManaCrystal,
    GiveCard,
    Heal,
    If,
    SelfBonus,
    SetTag,
    Silence,
    SplitDamage,
    Summon,
    SwapAttackHealth,
    SwapWithHand,
    TransformRandom,
    Trigger,
    card,
    controls,
    enchantment,
    is_damaged,
    is_secret,
    swap_enchantment,
    vanilla,
)
from ..enums import ATK, R_MURLOC, TAUNT, PlayReq  # noqa: F401 (ATK: doctest)
from .targets import A_MINION, MINION_IF_AVAILABLE

vanilla(
    "CS1_069",  # Fen Creeper: Taunt
    "CS2_161",  # Ravenholdt Assassin: Stealth
    "CS2_169",  # Young Dragonhawk: Windfury
    "EX1_010",  # Worgen Infiltrator: Stealth
    "EX1_017",  # Jungle Panther: Stealth
    "EX1_020",  # Scarlet Crusader: Divine Shield
    "EX1_021",  # Thrallmar Farseer: Windfury
    "EX1_023",  # Silvermoon Guardian: Divine Shield
    "EX1_028",  # Stranglethorn Tiger: Stealth
    "EX1_032",  # Sunwalker: Taunt, Divine Shield
    "EX1_033",  # Windfury Harpy: Windfury
    "EX1_045",  # Ancient Watcher: Can't attack (CANT_ATTACK; Silence clears it)
    "EX1_067",  # Argent Commander: Charge, Divine Shield
)

# ------------------------------------------------------------------------------ battlecries

# Earthen Ring Farseer: any character (SabberStone: REQ_TARGET_IF_AVAILABLE only).
card("CS2_117", battlecry=Heal(TARGET, 3), requirements={PlayReq.REQ_TARGET_IF_AVAILABLE: 0})
card("CS2_151", battlecry=Summon("CS2_152"))  # Silver Hand Knight: the Squire to its right
card("CS2_181", battlecry=Damage(SELF, 4))  # Injured Blademaster
card(  # The Black Knight
    "EX1_002",
    battlecry=Destroy(TARGET),
    requirements={
        PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
        PlayReq.REQ_MINION_TARGET: 0,
        PlayReq.REQ_ENEMY_TARGET: 0,
        PlayReq.REQ_MUST_TARGET_TAUNTER: 0,
    },
)
card(  # Big Game Hunter
    "EX1_005",
    battlecry=Destroy(TARGET),
    requirements={
        PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
        PlayReq.REQ_MINION_TARGET: 0,
        PlayReq.REQ_TARGET_MIN_ATTACK: 7,
    },
)
# King Mukla: the Bananas go to the opponent's hand (hidden from Mukla's owner like any
# card in an enemy hand).
card("EX1_014", battlecry=ForOpponent(GiveCard("EX1_014t"), GiveCard("EX1_014t")))
card("EX1_014t", play=Buff(TARGET, "EX1_014te"), requirements=A_MINION)  # Bananas
enchantment("EX1_014te", atk=1, health=1)
# Twilight Drake: the drake has left the hand when its battlecry counts it.
card(
    "EX1_043",
    battlecry=If(controls(FRIENDLY_HAND), Buff(SELF, "EX1_043e", scale=Count(FRIENDLY_HAND))),
)
enchantment("EX1_043e", health=1, scaled=True)
# Dark Iron Dwarf: EX1_046e carries TAG_ONE_TURN_EFFECT.
card("EX1_046", battlecry=Buff(TARGET, "EX1_046e"), requirements=MINION_IF_AVAILABLE)
enchantment("EX1_046e", atk=2)
card("EX1_048", battlecry=Silence(TARGET), requirements=MINION_IF_AVAILABLE)  # Spellbreaker
card("EX1_050", battlecry=[Draw(2), Draw(2, enemy=True)])  # Coldlight Oracle: you first
card("EX1_058", battlecry=SetTag(ADJACENT, TAUNT))  # Sunfury Protector
card(  # Crazed Alchemist
    "EX1_059", battlecry=SwapAttackHealth(TARGET, "EX1_059e"), requirements=MINION_IF_AVAILABLE
)
swap_enchantment("EX1_059e")
card("EX1_082", battlecry=SplitDamage(ALL_CHARACTERS - SELF, 3))  # Mad Bomber
card(  # Tinkmaster Overspark: the minion first, then which of the two
    "EX1_083", battlecry=TransformRandom(RANDOM(ALL_MINIONS - SELF), ("EX1_tk29", "EX1_tk28"))
)
card("EX1_089", battlecry=ForOpponent(GainManaCrystal(1)))  # Arcane Golem: an empty crystal
card("EX1_093", battlecry=Buff(ADJACENT, "EX1_093e"))  # Defender of Argus
enchantment("EX1_093e", atk=1, health=1, taunt=1)

# ------------------------------------------------------------------------------ deathrattles

card("EX1_097", deathrattle=Damage(ALL_CHARACTERS, 2))  # Abomination (Taunt: card data)

# ------------------------------------------------------------------------------ auras

# Southsea Deckhand: Charge while a weapon is equipped, as SabberStone's AdaptiveEffect
# (the data has no enchantment for it).
card("CS2_146", aura=SelfBonus(Count(FRIENDLY_WEAPON), charge=1))
# Spiteful Smith: an enrage whose bonus sits on the weapon.
card("CS2_221", aura=Aura(WHILE(is_damaged, FRIENDLY_WEAPON), "CS2_221e"))
enchantment("CS2_221e", atk=2)
card("EX1_009", enrage="EX1_009e")  # Angry Chicken
enchantment("EX1_009e", atk=5)
# Old Murk-Eye: every other Murloc on the battlefield, either side (the text; SabberStone
# counts its own side only).
card("EX1_062", aura=SelfBonus(Count(RACE(ALL_MINIONS, R_MURLOC) - SELF), atk=1))

# ------------------------------------------------------------------------------ triggers

card(  # Young Priestess
    "EX1_004",
    trigger=Trigger(
        EV_TURN_END, Buff(RANDOM(FRIENDLY_MINIONS - SELF), "EX1_004e"), ON_FRIENDLY_PLAYER
    ),
)
enchantment("EX1_004e", health=1)
card("EX1_006", trigger=Trigger(EV_TURN_START, SwapWithHand(), ON_FRIENDLY_PLAYER))  # Alarm-o-Bot
card("EX1_055", trigger=Trigger(EV_CAST, Buff(SELF, "EX1_055o"), ON_FRIENDLY))  # Mana Addict
enchantment("EX1_055o", atk=2)  # TAG_ONE_TURN_EFFECT in the data
# Secretkeeper: a Secret played by either player, even one a Counterspell then counters
# (it was played; the "whenever you play" triggers resolve before the secrets of the cast).
card("EX1_080", trigger=Trigger(EV_PLAYED, Buff(SELF, "EX1_080o"), ON_ANY, when=is_secret))
enchantment("EX1_080o", atk=1, health=1)
