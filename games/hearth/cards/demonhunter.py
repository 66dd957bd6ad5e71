"""Demon Hunter Basic cards (Ashes of Outland core), Demon Claws (HERO_10bp) and tokens.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_10")
>>> S.power(g)                                 # Demon Claws: +1 Attack this turn
>>> g.attack_value(g.hero[1])
1
"""

from __future__ import annotations

from ..dsl import (
    ALL_MINIONS,
    ENEMY_MINIONS,
    EV_AFTER_ATTACK,
    FRIENDLY_HERO,
    ON_FRIENDLY_HERO,
    RANDOM,
    TARGET,
    Buff,
    Damage,
    Draw,
    Summon,
    Trigger,
    card,
    enchantment,
    vanilla,
)
from ..enums import PlayReq
from .targets import ONE_SLOT

card("HERO_10bp", play=Buff(FRIENDLY_HERO, "HERO_10bpe"))  # Demon Claws
enchantment("HERO_10bpe", atk=1)
card("BT_035", spell=[Buff(FRIENDLY_HERO, "BT_035e"), Draw(1)])  # Chaos Strike
enchantment("BT_035e", atk=2)
# Coordinated Strike: three 1/1 Rush Illidari at the right end (as many as fit).
card("BT_036", spell=Summon("BT_036t", count=3, side="end"), requirements=ONE_SLOT)
vanilla("BT_036t")  # Illidari Initiate (Rush)
card("BT_142", battlecry=Buff(FRIENDLY_HERO, "BT_142e"))  # Shadowhoof Slayer
enchantment("BT_142e", atk=1)
card("BT_235", spell=Damage(ALL_MINIONS, 4, spell=True))  # Chaos Nova
# Satyr Overseer: after your hero attacks (combat damage dealt), a 2/2 Satyr to its right.
card("BT_352", trigger=Trigger(EV_AFTER_ATTACK, Summon("BT_352t"), ON_FRIENDLY_HERO))
vanilla("BT_352t")  # Illidari Satyr
# Glaivebound Adept: a target is offered only when the hero attacked this turn.
card(
    "BT_495",
    battlecry=Damage(TARGET, 4),
    requirements={
        PlayReq.REQ_TARGET_IF_AVAILABLE_AND_HERO_ATTACKED_THIS_TURN: 0,
        PlayReq.REQ_NONSELF_TARGET: 0,
    },
)
card("BT_512", spell=Buff(FRIENDLY_HERO, "BT_512e"))  # Inner Demon
enchantment("BT_512e", atk=8)
# Soul Cleave: Lifesteal is the spell's data tag (the damage heals its caster's hero).
card(
    "BT_740",
    spell=Damage(RANDOM(ENEMY_MINIONS, 2), 2, spell=True),
    requirements={PlayReq.REQ_MINIMUM_ENEMY_MINIONS: 1},
)
vanilla("BT_921")  # Aldrachi Warblades (Lifesteal)
