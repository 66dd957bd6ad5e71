"""Spells of other classes built on this helper's mechanics: Charge (Warrior) and
Humility (Paladin).

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> yeti = S.summon(g, 2, "CS2_182")
>>> S.play(g, S.give(g, 1, "EX1_360"), yeti)   # Humility: Attack becomes 1
>>> g.attack_value(yeti), g.health(yeti)
(1, 5)
"""

from __future__ import annotations

from ..dsl import (
    EV_TURN_END,
    ON_ANY,
    TARGET,
    Buff,
    RemoveSelf,
    SetStat,
    Trigger,
    card,
    enchantment,
)
from ..enums import ATK, CANNOT_ATTACK_HEROES, CHARGE, PlayReq
from ..script import CardScript, register
from .targets import A_MINION

card("EX1_360", spell=SetStat(TARGET, "EX1_360e", ATK, 1), requirements=A_MINION)  # Humility
enchantment("EX1_360e", scaled=True, atk=1)
# Charge: CS2_103e2 grants Charge and "can't attack heroes"; the card data has no one-turn
# tag on it, so the enchantment removes itself at the end of the turn (the minion is no
# longer exhausted by then, so losing Charge changes nothing).
card(
    "CS2_103",
    spell=Buff(TARGET, "CS2_103e2"),
    requirements={**A_MINION, PlayReq.REQ_FRIENDLY_TARGET: 0},
)
register(
    "CS2_103e2",
    CardScript(
        buff=((CHARGE, 1), (CANNOT_ATTACK_HEROES, 1)),
        triggers=(Trigger(EV_TURN_END, RemoveSelf(), ON_ANY),),
    ),
)
