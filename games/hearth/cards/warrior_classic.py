"""Classic and Hall of Fame Warrior cards.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_01")
>>> S.play(g, S.give(g, 1, "EX1_409"))                 # Upgrade!: a 1/3 Heavy Axe
>>> S.play(g, S.give(g, 1, "EX1_409"))                 # then +1/+1
>>> w = g.weapon[1]; g.ents[w].card.id, g.ents[w][ATK], g.ents[w][DURABILITY]
('EX1_409t', 2, 4)
"""

from __future__ import annotations

from ..dsl import (
    ALL_MINIONS,
    DAMAGED,
    EV_AFTER_ATTACK,
    EV_ATTACK,
    FRIENDLY_CHARACTERS,
    FRIENDLY_HERO,
    FRIENDLY_PLAYER,
    FRIENDLY_WEAPON,
    ON_FRIENDLY_HERO,
    RANDOM,
    SELF,
    TARGET,
    Buff,
    Damage,
    DamageEach,
    Destroy,
    Draw,
    DrawEach,
    Equip,
    If,
    SetTag,
    TagOf,
    Trigger,
    card,
    controls,
    enchantment,
)
from ..enums import (
    ARMOR,
    ATK,  # noqa: F401 (doctest)
    DAMAGE,
    DURABILITY,  # noqa: F401 (doctest)
    HEALTH,
    IMMUNE,
    PROPOSED_DEFENDER,
    T_MINION,
    PlayReq,
)
from ..primitives import Ctx, Primitives
from .basic import ANY_TARGET
from .targets import A_MINION, MINION_IF_AVAILABLE


def _survived(g: Primitives, ctx: Ctx) -> bool:
    return g.alive(ctx.target)


def _low_health(g: Primitives, ctx: Ctx) -> bool:
    """Mortal Strike: "12 or less Health" (armor does not count)."""
    hero = g.hero[ctx.player]
    return g.tag(hero, HEALTH) - g.tag(hero, DAMAGE) <= 12


def _at_a_minion(g: Primitives, ctx: Ctx) -> bool:
    """The attack's defender now (after a Misdirection or Noble Sacrifice) is a minion."""
    defender = g.tag(1, PROPOSED_DEFENDER) or ctx.other
    return g.card_type(defender) == T_MINION


card(  # Rampage
    "CS2_104",
    spell=Buff(TARGET, "CS2_104e"),
    requirements={**A_MINION, PlayReq.REQ_DAMAGED_TARGET: 0},
)
enchantment("CS2_104e", atk=3, health=3)
card(
    "EX1_391", spell=[Damage(TARGET, 2, spell=True), If(_survived, Draw(1))], requirements=A_MINION
)
card("EX1_392", spell=DrawEach(DAMAGED(FRIENDLY_CHARACTERS)))  # Battle Rage
card("EX1_398", battlecry=Equip("EX1_398t"))  # Arathi Weaponsmith
# Brawl: one random survivor (SabberStone: REQ_MINIMUM_TOTAL_MINIONS 2).
card(
    "EX1_407",
    spell=Destroy(ALL_MINIONS - RANDOM(ALL_MINIONS)),
    requirements={PlayReq.REQ_MINIMUM_TOTAL_MINIONS: 2},
)
card(  # Mortal Strike
    "EX1_408",
    spell=If(_low_health, Damage(TARGET, 6, spell=True), Damage(TARGET, 4, spell=True)),
    requirements=ANY_TARGET,
)
card(  # Upgrade!
    "EX1_409",
    spell=If(controls(FRIENDLY_WEAPON), Buff(FRIENDLY_WEAPON, "EX1_409e"), Equip("EX1_409t")),
)
enchantment("EX1_409e", atk=1, durability=1)
# Shield Slam: the card data marks it AFFECTED_BY_SPELL_POWER (SabberStone: armor + spell damage).
card(
    "EX1_410",
    spell=DamageEach(TARGET, 1, TagOf(FRIENDLY_HERO, ARMOR), spell=True),
    requirements=A_MINION,
)
# Gorehowl (SabberStone): attacking a minion, the weapon is Immune (no durability lost) and
# afterwards loses 1 Attack (EX1_411e2); each attack sets the Immune flag anew, so a
# cancelled attack leaves none behind.
card(
    "EX1_411",
    trigger=[
        Trigger(
            EV_ATTACK,
            If(_at_a_minion, SetTag(SELF, IMMUNE, 1), SetTag(SELF, IMMUNE, 0)),
            ON_FRIENDLY_HERO,
        ),
        Trigger(
            EV_AFTER_ATTACK,
            If(_at_a_minion, [Buff(SELF, "EX1_411e2"), SetTag(SELF, IMMUNE, 0)]),
            ON_FRIENDLY_HERO,
        ),
    ],
)
enchantment("EX1_411e2", atk=-1)
card("EX1_414", enrage="EX1_414e")  # Grommash Hellscream (Charge from the data)
enchantment("EX1_414e", atk=6)
card(  # Cruel Taskmaster
    "EX1_603",
    battlecry=[Damage(TARGET, 1), Buff(TARGET, "EX1_603e")],
    requirements=MINION_IF_AVAILABLE,
)
enchantment("EX1_603e", atk=2)
card(  # Inner Rage
    "EX1_607",
    spell=[Damage(TARGET, 1, spell=True), Buff(TARGET, "EX1_607e")],
    requirements=A_MINION,
)
enchantment("EX1_607e", atk=2)
# Commanding Shout: NEW1_036e2 on the player entity (SabberStone: on the controller) raises
# its HEALTH_MINIMUM for this turn; damage to its minions stops at 1 Health.
card("NEW1_036", spell=[Buff(FRIENDLY_PLAYER, "NEW1_036e2"), Draw(1)])
enchantment("NEW1_036e2", health_minimum=1)
