"""Paladin Basic cards (Blessing of Kings is in :mod:`.basic`, Consecration in :mod:`.priest`).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_04")
>>> S.play(g, S.give(g, 1, "CS2_097"))        # Truesilver Champion: heals before the hit
>>> _ = S.hit(g, g.hero[1], 5)
>>> S.attack(g, g.hero[1], g.hero[2])
>>> g.health(g.hero[1]), g.health(g.hero[2])
(27, 26)
"""

from __future__ import annotations

from ..dsl import (
    EV_ATTACK,
    FRIENDLY_HERO,
    ON_FRIENDLY_HERO,
    TARGET,
    Buff,
    Damage,
    Draw,
    Heal,
    Trigger,
    card,
    enchantment,
    vanilla,
)
from ..enums import PlayReq
from .targets import A_MINION

ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}

card("CS2_087", spell=Buff(TARGET, "CS2_087e"), requirements=A_MINION)  # Blessing of Might
enchantment("CS2_087e", atk=3)
card("CS2_088", battlecry=Heal(FRIENDLY_HERO, 6))  # Guardian of Kings
card("CS2_089", spell=Heal(TARGET, 6), requirements=ANY)  # Holy Light
card("CS2_094", spell=[Damage(TARGET, 3, spell=True), Draw(1)], requirements=ANY)  # Hammer of Wrath
vanilla("CS2_091")  # Light's Justice
card(  # Truesilver Champion: heals before the combat damage (EV_ATTACK)
    "CS2_097", trigger=Trigger(EV_ATTACK, Heal(FRIENDLY_HERO, 2), scope=ON_FRIENDLY_HERO)
)
