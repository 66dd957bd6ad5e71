"""Classic Shaman cards with Overload.

Overload (the card data's OVERLOAD tag): playing the card adds that much to the player's
OVERLOAD_OWED; at the start of the player's next turn it becomes OVERLOAD_LOCKED, crystals
that cannot be spent that turn (and last turn's lock ends).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_02")
>>> S.play(g, S.give(g, 1, "EX1_238"), g.hero[2])   # Lightning Bolt: 3, Overload (1)
>>> S.end_turn(g); S.end_turn(g)
>>> g.health(g.hero[2]), g.mana(1)                  # 10 crystals, 1 locked
(27, 9)
"""

from __future__ import annotations

from ..dsl import TARGET, Damage, Summon, card, vanilla
from .basic import ANY_TARGET
from .targets import ONE_SLOT

card("EX1_238", spell=Damage(TARGET, 3, spell=True), requirements=ANY_TARGET)  # Bolt
card("EX1_241", spell=Damage(TARGET, 5, spell=True), requirements=ANY_TARGET)  # Lava Burst
# Feral Spirit: two 2/3 Taunt wolves at the right end (one with six minions).
card("EX1_248", spell=Summon("EX1_tk11", count=2, side="end"), requirements=ONE_SLOT)
vanilla(
    "EX1_243",  # Dust Devil: Windfury, Overload (2)
    "EX1_250",  # Earth Elemental: Taunt, Overload (3)
)
