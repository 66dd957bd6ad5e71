"""Classic and Hall of Fame Shaman cards (the rest; shaman_classic.py has the first ones).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_02")
>>> S.play(g, S.give(g, 1, "EX1_567"))               # Doomhammer: Windfury, Overload (2)
>>> g.ents[2][OVERLOAD_OWED], g.attack_value(g.hero[1])
(2, 2)
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_MINIONS,
    EV_PLAYED,
    EV_TURN_END,
    ON_FRIENDLY,
    ON_FRIENDLY_PLAYER,
    RANDOM,
    SELF,
    TARGET,
    Buff,
    Damage,
    DamageRange,
    Draw,
    Resummon,
    Silence,
    Trigger,
    card,
    enchantment,
    enchantment_with_deathrattle,
    vanilla,
)
from ..enums import OVERLOAD, OVERLOAD_OWED, PlayReq  # noqa: F401 (OVERLOAD_OWED: doctest)
from ..primitives import Primitives
from .targets import A_MINION


def _has_overload(g: Primitives, listener: int, subject: int) -> bool:
    return g.tag(subject, OVERLOAD) > 0


# Ancestral Spirit: the enchantment carries the deathrattle (and the DEATHRATTLE keyword);
# the minion comes back for its controller, fresh, where it died (SabberStone CopyTask).
card("CS2_038", spell=Buff(TARGET, "CS2_038e"), requirements=A_MINION)
enchantment_with_deathrattle("CS2_038e", Resummon(), deathrattle=1)
card("EX1_245", spell=[Silence(TARGET), Damage(TARGET, 1, spell=True)], requirements=A_MINION)
# Forked Lightning: castable with one enemy minion, as Cleave (SabberStone: 1; patch 14.6).
card(
    "EX1_251",
    spell=Damage(RANDOM(ENEMY_MINIONS, 2), 2, spell=True),
    requirements={PlayReq.REQ_MINIMUM_ENEMY_MINIONS: 1},
)
# Unbound Elemental: a card played with Overload (EV_PLAYED fires before a minion enters
# play, so the Elemental never counts itself).
card(
    "EX1_258",
    trigger=Trigger(EV_PLAYED, Buff(SELF, "EX1_258e"), ON_FRIENDLY, when=_has_overload),
)
enchantment("EX1_258e", atk=1, health=1)
# Lightning Storm: 2 or 3 to each enemy minion, rolled for each (SabberStone DamageTask(2, 1)).
card("EX1_259", spell=DamageRange(ENEMY_MINIONS, 2, 3, spell=True))
card("EX1_575", trigger=Trigger(EV_TURN_END, Draw(1), ON_FRIENDLY_PLAYER))  # Mana Tide Totem
vanilla(
    "EX1_247",  # Stormforged Axe: Overload (1)
    "EX1_567",  # Doomhammer: Windfury (the hero attacks twice), Overload (2)
    "NEW1_010",  # Al'Akir the Windlord: Charge, Divine Shield, Taunt, Windfury
)
