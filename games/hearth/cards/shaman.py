"""Shaman Basic cards, Totemic Call and the four basic totems.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_02")
>>> S.power(g)                                  # Totemic Call: a random basic totem
>>> g.ents[g.board[1][0]].card.id in TOTEMS
True
"""

from __future__ import annotations

from ..dsl import (
    EV_TURN_END,
    FRIENDLY_MINIONS,
    ON_FRIENDLY_PLAYER,
    RACE,
    TARGET,
    AdjacentAura,
    Buff,
    Damage,
    Freeze,
    FullHeal,
    Heal,
    SetTag,
    SummonNew,
    Transform,
    Trigger,
    card,
    enchantment,
)
from ..enums import R_TOTEM, WINDFURY, PlayReq
from .targets import A_MINION, ANY_IF_AVAILABLE, FRIENDLY_MINION_IF_AVAILABLE

# Searing, Stoneclaw, Wrath of Air (keyword tokens: no declaration needed) and Healing Totem.
TOTEMS = ("CS2_050", "CS2_051", "CS2_052", "NEW1_009")

# Totemic Call: unusable with a full board or with all four totems in play (SabberStone).
card(
    "HERO_02bp",
    play=SummonNew(TOTEMS),
    entourage=TOTEMS,
    requirements={
        PlayReq.REQ_NUM_MINION_SLOTS: 1,
        PlayReq.REQ_ENTIRE_ENTOURAGE_NOT_IN_PLAY: 0,
    },
)
card(  # Healing Totem
    "NEW1_009", trigger=Trigger(EV_TURN_END, Heal(FRIENDLY_MINIONS, 1), ON_FRIENDLY_PLAYER)
)

card(  # Frost Shock: an enemy character
    "CS2_037",
    spell=[Damage(TARGET, 1, spell=True), Freeze(TARGET)],
    requirements={PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_ENEMY_TARGET: 0},
)
card("CS2_039", spell=SetTag(TARGET, WINDFURY), requirements=A_MINION)  # Windfury
card("CS2_041", spell=[FullHeal(TARGET), Buff(TARGET, "CS2_041e")], requirements=A_MINION)
enchantment("CS2_041e", taunt=1)  # Ancestral Infusion
card("CS2_042", battlecry=Damage(TARGET, 3), requirements=ANY_IF_AVAILABLE)  # Fire Elemental
card(  # Rockbiter Weapon: a friendly character (hero included); a one-turn enchantment
    "CS2_045",
    spell=Buff(TARGET, "CS2_045e"),
    requirements={PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_FRIENDLY_TARGET: 0},
)
enchantment("CS2_045e", atk=3)
card("CS2_046", spell=Buff(FRIENDLY_MINIONS, "CS2_046e"))  # Bloodlust (one turn)
enchantment("CS2_046e", atk=3)
card("EX1_244", spell=Buff(RACE(FRIENDLY_MINIONS, R_TOTEM), "EX1_244e"))  # Totemic Might
enchantment("EX1_244e", health=2)
card("EX1_246", spell=Transform(TARGET, "hexfrog"), requirements=A_MINION)  # Hex
card("EX1_565", aura=AdjacentAura("EX1_565o"))  # Flametongue Totem
enchantment("EX1_565o", atk=2)
card(  # Windspeaker
    "EX1_587", battlecry=SetTag(TARGET, WINDFURY), requirements=FRIENDLY_MINION_IF_AVAILABLE
)
