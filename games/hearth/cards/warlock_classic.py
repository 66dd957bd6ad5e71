"""Classic and Hall of Fame Warlock cards, and Shadowform (hero power replacement).

Lord Jaraxxus replaces the hero (SabberStone's ReplaceHeroTask): the minion, the hero and
its hero power go to SETASIDE; the new hero has the card data's 15 Health, no armor.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_07")
>>> S.play(g, S.give(g, 1, "EX1_323"))               # Lord Jaraxxus
>>> g.ents[g.hero[1]].card.id, g.health(g.hero[1]), g.ents[g.power[1]].card.id
('EX1_323h', 15, 'EX1_tk33')
"""

from __future__ import annotations

from ..dsl import (
    ADJACENT,
    ALL_MINIONS,
    ATTACHED_TO,
    ENEMY_MINIONS,
    EV_TURN_END,
    FRIENDLY_HERO,
    FRIENDLY_MINIONS,
    ON_ANY,
    ON_FRIENDLY_PLAYER,
    RACE,
    RANDOM,
    SELF,
    TARGET,
    Aura,
    Buff,
    Consume,
    Damage,
    Destroy,
    DiscardRandom,
    DrawOfRace,
    GiveCard,
    GiveRandomOf,
    Heal,
    If,
    LoseManaCrystal,
    ReplaceHero,
    ReplaceHeroPower,
    Summon,
    SummonRandomOf,
    TagOf,
    Trigger,
    card,
    enchantment,
    enchantment_with_trigger,
    hero_power_is,
    stats_enchantment,
)
from ..enums import ATK, CARDRACE, R_DEMON, T_MINION, PlayReq
from ..primitives import Ctx, Primitives
from .basic import ANY_TARGET
from .targets import A_MINION, ONE_SLOT

FRIENDLY_MINION = {**A_MINION, PlayReq.REQ_FRIENDLY_TARGET: 0}


def _killed(g: Primitives, ctx: Ctx) -> bool:
    """ "If that kills it": mortally wounded after the damage (SabberStone IsDead)."""
    return not g.alive(ctx.target)


def _friendly_demon(g: Primitives, ctx: Ctx) -> bool:
    t = ctx.target
    return g.controller_of(t) == ctx.player and g.tag(t, CARDRACE) == R_DEMON


# Blood Imp: another random friendly minion, at the end of its controller's turn.
card(
    "CS2_059",
    trigger=Trigger(
        EV_TURN_END, Buff(RANDOM(FRIENDLY_MINIONS - SELF), "CS2_059o"), ON_FRIENDLY_PLAYER
    ),
)
enchantment("CS2_059o", health=1)
card("EX1_181", spell=GiveRandomOf(T_MINION, R_DEMON))  # Call of the Void
card("EX1_185", aura=Aura(RACE(FRIENDLY_MINIONS, R_DEMON) - SELF, "EX1_185e"))  # Siegebreaker
enchantment("EX1_185e", atk=1)
card("EX1_301", battlecry=LoseManaCrystal(1))  # Felguard (Taunt from the data)
# Shadowflame: the Attack is read after the destroy mark (the minion is still in play).
card(
    "EX1_303",
    spell=[Destroy(TARGET), Damage(ENEMY_MINIONS, TagOf(TARGET, ATK), spell=True)],
    requirements=FRIENDLY_MINION,
)
card("EX1_304", battlecry=Consume(ADJACENT, "EX1_304e"))  # Void Terror
stats_enchantment("EX1_304e")
card("EX1_309", spell=[Destroy(TARGET), Heal(FRIENDLY_HERO, 3)], requirements=A_MINION)
card("EX1_310", battlecry=DiscardRandom(2))  # Doomguard (Charge from the data)
card("EX1_312", spell=Destroy(ALL_MINIONS))  # Twisting Nether
card("EX1_313", battlecry=Damage(FRIENDLY_HERO, 5))  # Pit Lord
# Power Overwhelming: the enchantment kills its bearer at the end of the turn, before the
# one-turn +4/+4 goes in MAIN_CLEANUP (SabberStone: TURN_END, either turn).
card("EX1_316", spell=Buff(TARGET, "EX1_316e"), requirements=FRIENDLY_MINION)
enchantment_with_trigger(
    "EX1_316e", Trigger(EV_TURN_END, Destroy(ATTACHED_TO), ON_ANY), atk=4, health=4
)
# Sense Demons: a Worthless Imp for each Demon the deck lacks.
card("EX1_317", spell=DrawOfRace(R_DEMON, 2, otherwise=GiveCard("EX1_317t")))
card("EX1_319", battlecry=Damage(FRIENDLY_HERO, 3))  # Flame Imp
card(  # Bane of Doom
    "EX1_320",
    spell=[Damage(TARGET, 2, spell=True), If(_killed, SummonRandomOf(R_DEMON))],
    requirements=ANY_TARGET,
)
card("EX1_323", battlecry=ReplaceHero("EX1_323h", "EX1_323w"))  # Lord Jaraxxus
card("EX1_tk33", play=Summon("EX1_tk34", side="end"), requirements=ONE_SLOT)  # INFERNO!
card(  # Demonfire
    "EX1_596",
    spell=If(_friendly_demon, Buff(TARGET, "EX1_596e"), Damage(TARGET, 2, spell=True)),
    requirements=A_MINION,
)
enchantment("EX1_596e", atk=2, health=2)

# Priest: Shadowform. "If already in Shadowform" = the hero power is Mind Spike or Mind
# Shatter; either way the new one is unused this turn (SabberStone's ReplaceHeroPower).
SHADOWFORM = ("EX1_625t", "EX1_625t2")
card(
    "EX1_625",
    spell=If(
        hero_power_is(*SHADOWFORM), ReplaceHeroPower("EX1_625t2"), ReplaceHeroPower("EX1_625t")
    ),
)
card("EX1_625t", play=Damage(TARGET, 2), requirements=ANY_TARGET)  # Mind Spike
card("EX1_625t2", play=Damage(TARGET, 3), requirements=ANY_TARGET)  # Mind Shatter
