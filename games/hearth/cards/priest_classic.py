"""Priest Classic and Hall of Fame cards (take-control and copy cards are in
:mod:`.control_classic`).

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_09")
>>> yeti = S.summon(g, 2, "CS2_182")
>>> _ = S.hit(g, yeti, 2)
>>> S.play(g, S.give(g, 1, "CS2_236"), yeti)   # Divine Spirit: 3 Health left, +3
>>> g.health(yeti), g.ents[yeti][HEALTH]
(6, 8)
"""

from __future__ import annotations

from ..dsl import (
    ALL_MINIONS,
    DAMAGED,
    ENEMY_HERO,
    ENEMY_MINIONS,
    EV_HEALED,
    EV_TURN_START,
    FRIENDLY_CHARACTERS,
    FRIENDLY_HERO,
    ON_ANY,
    ON_FRIENDLY_PLAYER,
    RANDOM,
    SELF,
    TARGET,
    BaseAtMost,
    Buff,
    Damage,
    Destroy,
    Draw,
    Heal,
    HealthOf,
    RemoveSelf,
    SetStatTo,
    Silence,
    Trigger,
    attack_at_least,
    card,
    enchantment,
    is_minion,
    with_player_tags,
)
from ..enums import ATK, HEALTH, PlayReq  # noqa: F401 (HEALTH: doctest)
from ..script import CardScript, register
from .targets import A_MINION, FRIENDLY_MINION_IF_AVAILABLE, MINION_IF_AVAILABLE

ENEMY_MINION_IF_AVAILABLE = {
    PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
    PlayReq.REQ_MINION_TARGET: 0,
    PlayReq.REQ_ENEMY_TARGET: 0,
}

ANY = {PlayReq.REQ_TARGET_TO_PLAY: 0}

# Inner Fire: Attack set to the current Health (a set-stat enchantment, undone by Silence).
card("CS1_129", spell=SetStatTo(TARGET, "CS1_129e", ATK, HealthOf(TARGET)), requirements=A_MINION)
enchantment("CS1_129e", scaled=True, atk=1)
# Northshire Cleric: any minion healed, either side's (never a hero).
card("CS2_235", trigger=Trigger(EV_HEALED, Draw(1), ON_ANY, when=is_minion))
# Divine Spirit: + the current Health to the maximum (a damaged 4/5 at 3 becomes 6/8).
card("CS2_236", spell=Buff(TARGET, "CS2_236e", scale=HealthOf(TARGET)), requirements=A_MINION)
enchantment("CS2_236e", scaled=True, health=1)
card("DS1_233", spell=Damage(ENEMY_HERO, 5, spell=True))  # Mind Blast
card("EX1_195", battlecry=Buff(TARGET, "EX1_195e"), requirements=FRIENDLY_MINION_IF_AVAILABLE)
enchantment("EX1_195e", health=2)  # Kul Tiran Chaplain
# Scarlet Subjugator: -2 Attack (as much of it as the minion has, never below 0), gone at
# the start of the caster's next turn.
card(
    "EX1_196",
    battlecry=Buff(TARGET, "EX1_196e", scale=BaseAtMost(TARGET, ATK, 2)),
    requirements=ENEMY_MINION_IF_AVAILABLE,
)
register(
    "EX1_196e",
    CardScript(
        buff=((ATK, -1),),
        scaled=True,
        triggers=(Trigger(EV_TURN_START, RemoveSelf(), ON_FRIENDLY_PLAYER),),
    ),
)
card("EX1_197", spell=Destroy(ALL_MINIONS.filter(attack_at_least(5), "ATK5")))  # Shadow Word: Ruin
# Natalie Seline: the Health gained is the victim's current Health, taken before it dies.
card(
    "EX1_198",
    battlecry=[Buff(SELF, "EX1_198e", scale=HealthOf(TARGET)), Destroy(TARGET)],
    requirements=MINION_IF_AVAILABLE,
)
enchantment("EX1_198e", scaled=True, health=1)
# Lightwell: a random damaged friendly character (hero included), none: nothing.
card(
    "EX1_341",
    trigger=Trigger(
        EV_TURN_START, Heal(RANDOM(DAMAGED(FRIENDLY_CHARACTERS)), 3), ON_FRIENDLY_PLAYER
    ),
)
# Prophet Velen and Auchenai Soulpriest change what their controller's damage and healing
# do (the engine's damage() / heal() read these tags from the minions in play).
card("EX1_350")
with_player_tags("EX1_350", spellpower_double=1, spell_healing_double=1, hero_power_double=1)
card("EX1_591")
with_player_tags("EX1_591", healing_does_damage=1)
card("EX1_621", spell=Heal(ALL_MINIONS, 4))  # Circle of Healing
card("EX1_623", battlecry=Buff(TARGET, "EX1_623e"), requirements=FRIENDLY_MINION_IF_AVAILABLE)
enchantment("EX1_623e", health=3)  # Temple Enforcer
card("EX1_624", spell=[Damage(TARGET, 5, spell=True), Heal(FRIENDLY_HERO, 5)], requirements=ANY)
card("EX1_626", spell=[Silence(ENEMY_MINIONS), Draw(1)])  # Mass Dispel
