"""Classic and Hall of Fame Mage cards not declared elsewhere, and Lightspawn.

Ice Block hears its hero's fatal damage before it is dealt (``EV_FATAL_DAMAGE``, resolved
at once as SabberStone's PREDAMAGE with FastExecution): the hero becomes Immune and the
damage is prevented, armor untouched.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> S.play(g, S.give(g, 1, "EX1_295"))               # Ice Block
>>> S.end_turn(g)
>>> S.hit(g, g.hero[1], 25)                            # not fatal: 5 Health left
25
>>> S.play(g, S.give(g, 2, "CS2_029"), target=g.hero[1])   # Fireball: fatal, prevented
>>> g.health(g.hero[1]), g.ents[g.hero[1]][IMMUNE]
(5, 1)
"""

from __future__ import annotations

from ..dsl import (  # --- mage ---
    ADJACENT_TO_TARGET,
    ENEMY_MINIONS,
    EV_TURN_END,
    FRIENDLY_HERO,
    FRIENDLY_SECRETS,
    ON_FRIENDLY_HERO,
    ON_FRIENDLY_PLAYER,
    SELF,
    TARGET,
    Aura,
    Buff,
    Damage,
    Draw,
    Freeze,
    GiveOfClass,
    If,
    Trigger,
    card,
    controls,
    enchantment,
)
from ..enums import ATK, DAMAGE, FROZEN, HEALTH, IMMUNE, T_SPELL, PlayReq  # noqa: F401
from ..primitives import Ctx, Primitives
from ..script import EV_FATAL_DAMAGE, attack_is_health
from .basic import ANY_TARGET
from .targets import A_MINION

_MAGE = 4  # hearthstone.enums.CardClass.MAGE


def _target_frozen(g: Primitives, ctx: Ctx) -> bool:
    return bool(g.tag(ctx.target, FROZEN))


card("CS2_028", play=[Damage(ENEMY_MINIONS, 2, spell=True), Freeze(ENEMY_MINIONS)])  # Blizzard
card(  # Ice Lance: an already Frozen character takes 4 instead of being frozen
    "CS2_031",
    play=If(_target_frozen, Damage(TARGET, 4, spell=True), Freeze(TARGET)),
    requirements=ANY_TARGET,
)
card(  # Icicle: Frozen after the damage (SabberStone's order), a card
    "EX1_179",
    play=[Damage(TARGET, 2, spell=True), If(_target_frozen, Draw(1))],
    requirements=A_MINION,
)
card("EX1_180", play=GiveOfClass(T_SPELL, _MAGE))  # Tome of Intellect
card(  # Ethereal Arcanist
    "EX1_274",
    trigger=Trigger(EV_TURN_END, If(controls(FRIENDLY_SECRETS), Buff(SELF, "EX1_274e")),
                    ON_FRIENDLY_PLAYER),
)
enchantment("EX1_274e", atk=2, health=2)
card(  # Cone of Cold: freeze, then the damage (SabberStone's order)
    "EX1_275",
    play=[Freeze(TARGET + ADJACENT_TO_TARGET), Damage(TARGET + ADJACENT_TO_TARGET, 1, spell=True)],
    requirements=A_MINION,
)
card("EX1_279", play=Damage(TARGET, 10, spell=True), requirements=ANY_TARGET)  # Pyroblast
card("EX1_295", secret=Trigger(EV_FATAL_DAMAGE, Buff(FRIENDLY_HERO, "EX1_295o"), ON_FRIENDLY_HERO))
enchantment("EX1_295o", immune=1)  # one turn: the card data's TAG_ONE_TURN_EFFECT


card("EX1_335", aura=Aura(attack_is_health, "", ((ATK, 1),)))  # Lightspawn
