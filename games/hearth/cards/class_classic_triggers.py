"""Classic class minions whose text is a trigger (Mage, Hunter, Warrior), declared by id.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> wyrm = S.summon(g, 1, "NEW1_012")            # Mana Wyrm
>>> S.play(g, S.give(g, 1, "CS2_025"))           # Arcane Explosion
>>> g.ents[wyrm][ATK]
2
"""

from __future__ import annotations

from ..dsl import (
    EV_CAST,
    EV_DAMAGED,
    EV_DIED,
    ON_ANY,
    ON_FRIENDLY,
    ON_FRIENDLY_MINION,
    SELF,
    Buff,
    GainArmor,
    GiveCard,
    Trigger,
    card,
    enchantment,
    is_race,
)
from ..enums import ATK, CARDRACE, R_BEAST, T_MINION  # noqa: F401 (ATK: doctest)
from ..primitives import Primitives


def _minion(g: Primitives, listener: int, subject: int) -> bool:
    return g.card_type(subject) == T_MINION


# Mage
card("NEW1_012", trigger=Trigger(EV_CAST, Buff(SELF, "NEW1_012o"), ON_FRIENDLY))  # Mana Wyrm
enchantment("NEW1_012o", atk=1)
card("EX1_559", trigger=Trigger(EV_CAST, GiveCard("CS2_029"), ON_FRIENDLY))  # Antonidas

# Hunter
card(  # Scavenging Hyena
    "EX1_531",
    trigger=Trigger(EV_DIED, Buff(SELF, "EX1_531e"), ON_FRIENDLY_MINION, when=is_race(R_BEAST)),
)
enchantment("EX1_531e", atk=2, health=1)

# Warrior
card("EX1_402", trigger=Trigger(EV_DAMAGED, GainArmor(1), ON_FRIENDLY_MINION))  # Armorsmith
card(  # Frothing Berserker: each minion damaged, either side, itself included
    "EX1_604", trigger=Trigger(EV_DAMAGED, Buff(SELF, "EX1_604o"), ON_ANY, when=_minion)
)
enchantment("EX1_604o", atk=1)
