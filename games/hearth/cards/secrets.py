"""Secrets of the Classic set (Mage, Hunter, Paladin), declared by id.

A secret is a spell whose card data carries SECRET: played, it goes hidden to its owner's
SECRET zone (at most five, never two of one card); its trigger is heard only on the
opponent's turn, and the secret is revealed (to the graveyard) before its effect runs.
Secrets that trigger on the same event resolve in the order they were played.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> S.play(g, S.give(g, 1, "EX1_289"))        # Ice Barrier
>>> S.end_turn(g)
>>> boar = S.summon(g, 2, "CS2_171")
>>> S.attack(g, boar, g.hero[1])
>>> g.ents[g.hero[1]][ARMOR], g.health(g.hero[1])
(7, 30)
"""

from __future__ import annotations

from ..dsl import (
    ALL_CHARACTERS,
    ENEMY_CHARACTERS,
    EV_AFTER_PLAYED,
    EV_ATTACK,
    EV_CAST,
    EV_DIED,
    ON_DEFENDER_FRIENDLY,
    ON_DEFENDER_FRIENDLY_HERO,
    ON_DEFENDER_FRIENDLY_MINION,
    ON_ENEMY,
    ON_ENEMY_MINION,
    ON_FRIENDLY_MINION,
    TARGET,
    CounterIt,
    Damage,
    Destroy,
    GainArmor,
    NewTarget,
    RedirectRandom,
    Resurrect,
    ReturnToHand,
    Summon,
    SummonCopy,
    Trigger,
    card,
    enchantment,
)
from ..enums import ARMOR, CARD_TARGET, MAX_BOARD, T_MINION  # noqa: F401 (ARMOR: doctest)
from ..primitives import Primitives


def _room(g: Primitives, listener: int, subject: int) -> bool:
    """The secret's owner has a free board slot (summoning secrets stay hidden otherwise)."""
    return len(g.board[g.controller_of(listener)]) < MAX_BOARD


def _by_minion(g: Primitives, listener: int, subject: int) -> bool:
    return g.card_type(subject) == T_MINION


def _on_a_minion(g: Primitives, listener: int, subject: int) -> bool:
    target = g.tag(subject, CARD_TARGET)
    return bool(target) and g.card_type(target) == T_MINION and _room(g, listener, subject)


def _other_character(g: Primitives, listener: int, subject: int) -> bool:
    mine = g.controller_of(listener)
    ids = [g.hero[1], g.hero[2], *g.board[1], *g.board[2]]
    return any(i not in (subject, g.hero[mine]) and g.alive(i) for i in ids)


# ------------------------------------------------------------------------------ Mage

card("EX1_287", secret=Trigger(EV_CAST, CounterIt(), ON_ENEMY))  # Counterspell
card("EX1_289", secret=Trigger(EV_ATTACK, GainArmor(8), ON_DEFENDER_FRIENDLY_HERO))  # Ice Barrier
# Mirror Entity: the copy keeps the played minion's changed tags and enchantments.
card(
    "EX1_294",
    secret=Trigger(EV_AFTER_PLAYED, SummonCopy(TARGET), ON_ENEMY_MINION, when=_room),
)
# Spellbender: only a spell aimed at a minion (either side's), and only with a free slot.
card("tt_010", secret=Trigger(EV_CAST, NewTarget("tt_010a"), ON_ENEMY, when=_on_a_minion))
card(  # Vaporize: a minion attacking the hero (not a hero) is destroyed; the attack is off.
    "EX1_594",
    secret=Trigger(EV_ATTACK, Destroy(TARGET), ON_DEFENDER_FRIENDLY_HERO, when=_by_minion),
)

# ------------------------------------------------------------------------------ Hunter

card(  # Explosive Trap: $2, so Spell Damage counts
    "EX1_610",
    secret=Trigger(
        EV_ATTACK, Damage(ENEMY_CHARACTERS, 2, spell=True), ON_DEFENDER_FRIENDLY_HERO
    ),
)
card(  # Misdirection: neither the attacker nor the hero it attacked
    "EX1_533",
    secret=Trigger(
        EV_ATTACK,
        RedirectRandom(ALL_CHARACTERS),
        ON_DEFENDER_FRIENDLY_HERO,
        when=_other_character,
    ),
)
card(  # Snake Trap
    "EX1_554",
    secret=Trigger(
        EV_ATTACK,
        Summon("EX1_554t", count=3, side="end"),
        ON_DEFENDER_FRIENDLY_MINION,
        when=_room,
    ),
)
card("EX1_609", secret=Trigger(EV_AFTER_PLAYED, Damage(TARGET, 4, spell=True), ON_ENEMY_MINION))

# ------------------------------------------------------------------------------ Paladin

card(  # Noble Sacrifice: any enemy attack (on the hero or a minion) while a slot is free
    "EX1_130",
    secret=Trigger(EV_ATTACK, NewTarget("EX1_130a"), ON_DEFENDER_FRIENDLY, when=_room),
)
card(  # Redemption: a fresh copy at the right end, with 1 Health
    "EX1_136",
    secret=Trigger(EV_DIED, Resurrect(TARGET, 1), ON_FRIENDLY_MINION, when=_room),
)


# --- rogue --- Freezing Trap: When an enemy minion attacks, return it to its owner's hand.
# It costs (2) more. (SabberStone: only an attacker still alive; the attack is then off.)
def _attacker_alive(g: Primitives, listener: int, subject: int) -> bool:
    return g.alive(subject)


card(
    "EX1_611",
    secret=Trigger(
        EV_ATTACK, ReturnToHand(TARGET, "EX1_611e"), ON_ENEMY_MINION, when=_attacker_alive
    ),
)
# "Trapped": the card data's text names something else; the cost is Freezing Trap's text.
enchantment("EX1_611e", cost=2)
