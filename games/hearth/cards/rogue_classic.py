"""Classic Rogue cards with Combo.

Combo: when another card was played before it this turn (NUM_CARDS_PLAYED_THIS_TURN > 0,
The Coin included), a card does its combo text instead; SI:7 Agent offers a target only
then.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_03")
>>> S.play(g, S.give(g, 1, "EX1_124"), g.hero[2])   # Eviscerate alone: 2
>>> S.play(g, S.give(g, 1, "EX1_124"), g.hero[2])   # after a card: 4
>>> g.health(g.hero[2])
24
"""

from __future__ import annotations

from ..dsl import (
    ADJACENT_TO_TARGET,
    ALL_MINIONS,
    BACK_NEXT_TURN,
    ENEMY_HERO,
    ENEMY_MINIONS,
    EV_TURN_START,
    FRIENDLY_MINIONS,
    FRIENDLY_WEAPON,
    ON_FRIENDLY_PLAYER,
    SELF,
    TARGET,
    Buff,
    BuffScaled,
    Damage,
    DamageBy,
    Destroy,
    GiveOfAnotherClass,
    OtherCardsPlayed,
    RemoveSelf,
    ReturnNextTurn,
    ReturnToHand,
    Summon,
    TagOf,
    TagSum,
    Trigger,
    card,
    enchantment,
    enchantment_with_trigger,
    vanilla,
)
from ..enums import ATK, PlayReq
from .basic import ANY_TARGET
from .rogue import ENEMY_MINION
from .targets import A_MINION, ANY_IF_AVAILABLE, FRIENDLY_MINION_IF_AVAILABLE, MINION_IF_AVAILABLE

card(  # Eviscerate
    "EX1_124",
    spell=Damage(TARGET, 2, spell=True),
    combo=Damage(TARGET, 4, spell=True),
    requirements=ANY_TARGET,
)
card(  # SI:7 Agent: no target without combo
    "EX1_134", combo=Damage(TARGET, 2), combo_requirements=ANY_IF_AVAILABLE
)
card("EX1_131", combo=Summon("EX1_131t"))  # Defias Ringleader: the Bandit to its right
card(  # Cold Blood
    "CS2_073",
    spell=Buff(TARGET, "CS2_073e"),
    combo=Buff(TARGET, "CS2_073e2"),
    requirements=A_MINION,
)
enchantment("CS2_073e", atk=2)
enchantment("CS2_073e2", atk=4)
card(  # Perdition's Blade: a weapon's battlecry, target optional
    "EX1_133",
    battlecry=Damage(TARGET, 1),
    combo=Damage(TARGET, 2),
    requirements=ANY_IF_AVAILABLE,
)

# --- rogue --- the last Classic Rogue cards: return to hand, Stealth until your next turn,
# and the combos that count or come back (docs/hearth-cards/rogue-return.md).

card(  # Sap: Return an enemy minion to your opponent's hand.
    "EX1_581", spell=ReturnToHand(TARGET), requirements=ENEMY_MINION
)
card(  # Vanish: Return all minions to their owner's hand (in order of play).
    "NEW1_004", spell=ReturnToHand(ALL_MINIONS)
)
card(  # Shadowstep: Return a friendly minion to your hand. It costs (2) less.
    "EX1_144",
    spell=ReturnToHand(TARGET, "GBL_002e"),
    requirements={
        PlayReq.REQ_TARGET_TO_PLAY: 0,
        PlayReq.REQ_MINION_TARGET: 0,
        PlayReq.REQ_FRIENDLY_TARGET: 0,
    },
)
# The card data has no EX1_144e: the generic "Cost - 2" (Costs (2) less.) stands for it.
enchantment("GBL_002e", cost=-2)
card(  # Kidnapper: Combo: Return a minion to its owner's hand.
    "NEW1_005", combo=ReturnToHand(TARGET), combo_requirements=MINION_IF_AVAILABLE
)
# Headcrack: $2 to the enemy hero. Combo: Return this to your hand next turn (the same
# damage, then the mark that brings it back from the graveyard).
_HEADCRACK = Damage(ENEMY_HERO, 2, spell=True)
card(
    "EX1_137",
    spell=_HEADCRACK,
    combo=[_HEADCRACK, ReturnNextTurn()],
    trigger=BACK_NEXT_TURN,
)
card(  # Conceal: Give your minions Stealth until your next turn.
    "EX1_128", spell=Buff(FRIENDLY_MINIONS, "EX1_128e")
)
card(  # Master of Disguise: Battlecry: a friendly minion gets Stealth until your next turn.
    "NEW1_014", battlecry=Buff(TARGET, "NEW1_014e"), requirements=FRIENDLY_MINION_IF_AVAILABLE
)
# The enchantment goes at the start of its caster's next turn (an attack ends the Stealth
# before: the keyword is then not taken twice).
ONE_TURN_STEALTH_ENDS = Trigger(EV_TURN_START, RemoveSelf(), ON_FRIENDLY_PLAYER)
for _stealthed in ("EX1_128e", "NEW1_014e"):  # "Stealthed until your next turn."
    enchantment_with_trigger(_stealthed, ONE_TURN_STEALTH_ENDS, stealth=1)
card(  # Betrayal: the enemy minion deals its Attack to the minions next to it
    "EX1_126",
    spell=DamageBy(ADJACENT_TO_TARGET, TagOf(TARGET, ATK), by=TARGET),
    requirements=ENEMY_MINION,
)
card(  # Blade Flurry: its weapon's Attack to every enemy minion, then the weapon is destroyed
    "CS2_233",
    spell=[Damage(ENEMY_MINIONS, TagSum(FRIENDLY_WEAPON, ATK), spell=True),
           Destroy(FRIENDLY_WEAPON)],
    requirements={PlayReq.REQ_WEAPON_EQUIPPED: 0},
)
card(  # Edwin VanCleef: Combo: +2/+2 for each other card played this turn
    "EX1_613", combo=BuffScaled(SELF, "EX1_613e", OtherCardsPlayed())
)
enchantment("EX1_613e", scaled=True, atk=2, health=2)  # "Increased stats."
card("EX1_182", spell=GiveOfAnotherClass())  # Pilfer
vanilla("EX1_522")  # Patient Assassin: Stealth, Poisonous (card data)
