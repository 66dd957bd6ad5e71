"""Classic Druid cards, most of them Choose One.

A Choose One card lists its option cards (the card data's own ``<id>a``/``<id>b``, in that
order, as the client shows them); the play names the option by index in ``Action.cards``,
and the option's text, with its own requirements, is what the card does (a minion's option
is its battlecry).

>>> from games.hearth import scenario as S
>>> from games.hearth.actions import Action, Kind
>>> g = S.prepared()
>>> yeti = S.summon(g, 2, "CS2_182")
>>> wrath = S.give(g, 1, "EX1_154")
>>> sorted({a.cards for a in g.legal_actions() if a.entity == wrath})
[(0,), (1,)]
>>> g.apply(Action(Kind.PLAY, wrath, yeti, -1, (1,)))   # Nature's Wrath: 1 and a card
>>> g.health(yeti), len(g.hand[1])
(4, 1)
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_MINIONS,
    FRIENDLY_HERO,
    FRIENDLY_MINIONS,
    SELF,
    TARGET,
    Buff,
    Damage,
    Destroy,
    Draw,
    GainArmor,
    GainFullManaCrystals,
    Heal,
    HeroAttack,
    Silence,
    Summon,
    Transform,
    card,
    enchantment,
    enchantment_with_deathrattle,
)
from ..enums import PlayReq
from .targets import A_MINION

_IF_ANY = {PlayReq.REQ_TARGET_IF_AVAILABLE: 0}
_IF_MINION = {PlayReq.REQ_TARGET_IF_AVAILABLE: 0, PlayReq.REQ_MINION_TARGET: 0}
_SLOT = {PlayReq.REQ_NUM_MINION_SLOTS: 1}

# Wrath
card("EX1_154", choose=("EX1_154a", "EX1_154b"))
card("EX1_154a", play=Damage(TARGET, 3, spell=True), requirements=A_MINION)
card("EX1_154b", play=[Damage(TARGET, 1, spell=True), Draw(1)], requirements=A_MINION)
# Mark of Nature
card("EX1_155", choose=("EX1_155a", "EX1_155b"))
card("EX1_155a", play=Buff(TARGET, "EX1_155ae"), requirements=A_MINION)
card("EX1_155b", play=Buff(TARGET, "EX1_155be"), requirements=A_MINION)
enchantment("EX1_155ae", atk=4)
enchantment("EX1_155be", health=4, taunt=1)
# Soul of the Forest: the Treant takes the slot the minion left
card("EX1_158", play=Buff(FRIENDLY_MINIONS, "EX1_158e"))
enchantment_with_deathrattle("EX1_158e", Summon("EX1_158t", side="slot"))
# Power of the Wild
card("EX1_160", choose=("EX1_160a", "EX1_160b"))
card("EX1_160a", play=Summon("EX1_160t", side="end"), requirements=_SLOT)
card("EX1_160b", play=Buff(FRIENDLY_MINIONS, "EX1_160be"))
enchantment("EX1_160be", atk=1, health=1)
# Naturalize: the opponent's two cards come after the destroy (SabberStone queues them)
card("EX1_161", play=[Destroy(TARGET), Draw(2, enemy=True)], requirements=A_MINION)
# Nourish
card("EX1_164", choose=("EX1_164a", "EX1_164b"))
card("EX1_164a", play=GainFullManaCrystals(2))
card("EX1_164b", play=Draw(3))
# Druid of the Claw: the minion becomes the chosen form (a new card, Charge or Taunt)
card("EX1_165", choose=("EX1_165a", "EX1_165b"))
card("EX1_165a", play=Transform(SELF, "EX1_165t1"))
card("EX1_165b", play=Transform(SELF, "EX1_165t2"))
# Keeper of the Grove
card("EX1_166", choose=("EX1_166a", "EX1_166b"))
card("EX1_166a", play=Damage(TARGET, 2), requirements=_IF_ANY)
card("EX1_166b", play=Silence(TARGET), requirements=_IF_MINION)
# Ancient of War: a is Rooted (+5 Health and Taunt), b Uproot (+5 Attack), as the data names them
card("EX1_178", choose=("EX1_178a", "EX1_178b"))
card("EX1_178a", play=Buff(SELF, "EX1_178ae"))
card("EX1_178b", play=Buff(SELF, "EX1_178be"))
enchantment("EX1_178ae", health=5, taunt=1)
enchantment("EX1_178be", atk=5)
# Gift of the Wild
card("EX1_183", play=Buff(FRIENDLY_MINIONS, "EX1_183e"))
enchantment("EX1_183e", atk=2, health=2, taunt=1)
# Bite: a one-turn +4 Attack (the data's TAG_ONE_TURN_EFFECT) and 4 Armor
card("EX1_570", play=[Buff(FRIENDLY_HERO, "EX1_570e"), GainArmor(4)])
enchantment("EX1_570e", atk=4)
# Force of Nature (17.6: three 2/2 Treants, no Charge)
card("EX1_571", play=Summon("EX1_158t", 3, side="end"), requirements=_SLOT)
# Cenarius
card("EX1_573", choose=("EX1_573a", "EX1_573b"))
card("EX1_573a", play=Buff(FRIENDLY_MINIONS - SELF, "EX1_573ae"))
card("EX1_573b", play=Summon("EX1_573t", 2))
enchantment("EX1_573ae", atk=2, health=2)
# Savagery: no $ in the 17.6 text, so no Spell Damage; the hero's Attack with its weapon
card("EX1_578", play=Damage(TARGET, HeroAttack()), requirements=A_MINION)
# Starfall: a is Stellar Drift (2 to all enemy minions), b Starlord (5 to a minion)
card("NEW1_007", choose=("NEW1_007a", "NEW1_007b"))
card("NEW1_007a", play=Damage(ENEMY_MINIONS, 2, spell=True))
card("NEW1_007b", play=Damage(TARGET, 5, spell=True), requirements=A_MINION)
# Ancient of Lore
card("NEW1_008", choose=("NEW1_008a", "NEW1_008b"))
card("NEW1_008a", play=Draw(1))
card("NEW1_008b", play=Heal(TARGET, 5), requirements=_IF_ANY)
