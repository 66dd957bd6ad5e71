"""Cards that change costs (helper costs): cost auras on hand cards, one-shot "the next
... costs" effects, a cost enchantment on a drawn card and the Giants.

The cost layer (:mod:`games.hearth.costs`) applies them in SabberStone's order; the
references' disagreements are in ``docs/hearth-cards/costs.md``.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> giant = S.give(g, 1, "EX1_105")               # Mountain Giant (12)
>>> for _ in range(4):
...     _ = S.give(g, 1, "CS2_231")
>>> g.cost(giant)
8
"""

from __future__ import annotations

from ..dsl import (
    ALL_HANDS,
    ALL_MINIONS,
    ENEMY_HAND,
    EV_TURN_END,
    FRIENDLY_HAND,
    FRIENDLY_HERO,
    FRIENDLY_PLAYER,
    FRIENDLY_WEAPON,
    HAS,
    OF_TYPE,
    ON_ENEMY_PLAYER,
    SELF,
    WHILE,
    Buff,
    CostAura,
    Count,
    DrawAndEnchant,
    RemoveSelf,
    TagOf,
    Trigger,
    card,
    card_costing_less,
    cost_enchantment,
    enchantment,
    is_secret,
    is_spell,
    no_minion_played,
    used_by,
)
from ..enums import ATK, DAMAGE, SECRET, T_MINION, T_SPELL

YOUR_MINIONS = OF_TYPE(FRIENDLY_HAND, T_MINION)
YOUR_SPELLS = OF_TYPE(FRIENDLY_HAND, T_SPELL)

# --- cost auras of minions in play

# Sorcerer's Apprentice: Your spells cost (1) less.
card("EX1_608", aura=CostAura(YOUR_SPELLS, "EX1_608e", less=1))
# Venture Co. Mercenary: Your minions cost (3) more.
card("CS2_227", aura=CostAura(YOUR_MINIONS, "CS2_227e", more=3))
# Mana Wraith: ALL minions cost (1) more.
card("EX1_616", aura=CostAura(OF_TYPE(ALL_HANDS, T_MINION), "EX1_616e", more=1))
# Summoning Portal: Your minions cost (2) less, but not less than (1).
card("EX1_315", aura=CostAura(YOUR_MINIONS, "EX1_315e", less=2, floor=1))
# Pint-Sized Summoner: The first minion you play each turn costs (1) less.
card("EX1_076", aura=CostAura(WHILE(no_minion_played, YOUR_MINIONS), "EX1_076e", less=1))

# --- one-shot effects: an enchantment on a player holding a cost aura

# Kirin Tor Mage: Battlecry: The next Secret you play this turn costs (0).
card("EX1_612", battlecry=Buff(FRIENDLY_PLAYER, "EX1_612o"))
cost_enchantment(
    "EX1_612o", CostAura(HAS(FRIENDLY_HAND, SECRET), "EX1_612o", set_to=0), used_by(is_secret)
)
# Preparation (17.6): The next spell you cast this turn costs (2) less.
card("EX1_145", spell=Buff(FRIENDLY_PLAYER, "EX1_145o"))
cost_enchantment("EX1_145o", CostAura(YOUR_SPELLS, "EX1_145o", less=2), used_by(is_spell))
# Millhouse Manastorm: Battlecry: Enemy spells cost (0) next turn. As SabberStone: an
# enchantment on Millhouse's controller (NEW1_029t "Spells cost (0) this turn!") gives the
# enemy's spells in hand cost (0) until the end of the enemy's turn.
card("NEW1_029", battlecry=Buff(FRIENDLY_PLAYER, "NEW1_029t"))
cost_enchantment(
    "NEW1_029t",
    CostAura(OF_TYPE(ENEMY_HAND, T_SPELL), "NEW1_029t", set_to=0),
    Trigger(EV_TURN_END, RemoveSelf(), ON_ENEMY_PLAYER),
)

# --- a cost enchantment on a card in hand

# Far Sight: Draw a card. That card costs (3) less.
card("CS2_053", spell=DrawAndEnchant("CS2_053e"))
enchantment("CS2_053e", cost=-3)

# --- the card's own cost (SELF is the card in hand)

# Mountain Giant: Costs (1) less for each other card in your hand.
card_costing_less("EX1_105", Count(FRIENDLY_HAND - SELF))
# Sea Giant: Costs (1) less for each other minion on the battlefield.
card_costing_less("EX1_586", Count(ALL_MINIONS))
# Molten Giant: Costs (1) less for each damage your hero has taken.
card_costing_less("EX1_620", TagOf(FRIENDLY_HERO, DAMAGE))
# Dread Corsair: Taunt. Costs (1) less per Attack of your weapon.
card_costing_less("NEW1_022", TagOf(FRIENDLY_WEAPON, ATK))
