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

from ..dsl import TARGET, Buff, Damage, Summon, card, enchantment
from .basic import ANY_TARGET
from .targets import A_MINION, ANY_IF_AVAILABLE

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
