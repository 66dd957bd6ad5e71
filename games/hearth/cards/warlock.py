"""Warlock Basic cards and Life Tap.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_07")
>>> S.power(g)                                  # Life Tap
>>> len(g.hand[1]), g.health(g.hero[1])
(1, 28)
"""

from __future__ import annotations

from ..dsl import (
    ALL_CHARACTERS,
    ATTACHED_TO,
    EV_TURN_START,
    FRIENDLY_HERO,
    ON_FRIENDLY_PLAYER,
    SELF,
    TARGET,
    Buff,
    Damage,
    Destroy,
    DiscardRandom,
    Draw,
    Heal,
    If,
    Trigger,
    card,
    vanilla,
)
from ..enums import R_DEMON, PlayReq
from .targets import A_MINION

ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}

card("HERO_07bp", play=[Draw(1), Damage(FRIENDLY_HERO, 2)])  # Life Tap (no spell damage)

vanilla("CS2_065")  # Voidwalker
card("CS2_057", spell=Damage(TARGET, 4, spell=True), requirements=A_MINION)  # Shadow Bolt
card("CS2_061", spell=[Damage(TARGET, 2, spell=True), Heal(FRIENDLY_HERO, 2)], requirements=ANY)
card("CS2_062", spell=Damage(ALL_CHARACTERS, 3, spell=True))  # Hellfire
card("CS2_064", battlecry=Damage(ALL_CHARACTERS - SELF, 1))  # Dread Infernal
# Corruption: the enchantment carries the trigger; "friendly" = the caster's turn.
card(
    "CS2_063",
    spell=Buff(TARGET, "CS2_063e"),
    requirements={**A_MINION, PlayReq.REQ_ENEMY_TARGET: 0},
)
card("CS2_063e", trigger=Trigger(EV_TURN_START, Destroy(ATTACHED_TO), ON_FRIENDLY_PLAYER))
# Mortal Coil: "kills" = mortally wounded after the damage (SabberStone IsDead).
card(
    "EX1_302",
    spell=[Damage(TARGET, 1, spell=True), If(lambda g, ctx: not g.alive(ctx.target), Draw(1))],
    requirements=A_MINION,
)
card("EX1_306", battlecry=DiscardRandom(1))  # Felstalker
card("EX1_308", spell=[Damage(TARGET, 4, spell=True), DiscardRandom(1)], requirements=ANY)
card(  # Sacrificial Pact: a friendly Demon (17.6 text)
    "NEW1_003",
    spell=[Destroy(TARGET), Heal(FRIENDLY_HERO, 5)],
    requirements={
        PlayReq.REQ_TARGET_TO_PLAY: 0,
        PlayReq.REQ_FRIENDLY_TARGET: 0,
        PlayReq.REQ_TARGET_WITH_RACE: R_DEMON,
    },
)
