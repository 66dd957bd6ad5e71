"""The effective cost of a card (SabberStone's ``Playable.Cost`` and ``CostManager``).

A card's COST is worked out in this order, as SabberStone's ``CostManager`` does it
(docs/hearth-cards/costs.md):

1. the printed cost with the card's cost enchantments (Far Sight's (3) less, Shadowstep's
   (2) less): these write the card's own COST tag, as ``_modifiedCost`` does;
2. Summoning Portal's "(2) less, but not less than (1)", before any other aura;
3. the other cost auras on the card, in order of play (Sorcerer's Apprentice -1, Venture
   Co. +3, Kirin Tor Mage / Millhouse: set to 0, Preparation -2);
4. the card's own reduction (the Giants: less for each ...);
5. never below 0.

Only cards in hand are modified by 2.-4. The result minus the base of step 1 is kept as
the card's ``aura`` contribution to COST, so ``e[COST]``, the history's COST tag, the view
and the legal actions all read the same value; a change is written as a TAG_CHANGE COST
on the card (hidden from the opponent like any tag of a card in hand). It is re-evaluated
with the other auras, whenever ``aura_dirty`` is set: a hand change, a board change, a hero
damaged or healed, a cost aura's source gone.
"""

from __future__ import annotations

from .core import AuraInstance, Core
from .entity import Entity
from .enums import ATTACHED, COST, Z_HAND, ZONE
from .primitives import Ctx


class Costs(Core):
    __slots__ = ()

    def cost(self, eid: int) -> int:
        """The cost to pay now (never below 0); the one read every cost check uses."""
        if self.aura_dirty:
            self._update_auras()
        return max(0, self.ents[eid][COST])

    def _update_auras(self) -> None:
        """The aura layer re-evaluates every aura, then calls :meth:`_update_costs`."""
        raise NotImplementedError

    def _cost_auras(self) -> list[AuraInstance]:
        return [inst for inst in self.auras if inst.defn.cost is not None]

    def _effective_cost(self, e: Entity, mods: list[AuraInstance]) -> int:
        c = e.base(COST)
        eid = e.id
        on = [inst for inst in mods if eid in inst.applied] if mods else mods
        for inst in on:
            m = inst.defn.cost
            if m is not None and m.floor:
                c = max(min(c, m.floor), c + m.delta)
        for inst in on:
            m = inst.defn.cost
            if m is None or m.floor:
                continue
            c = m.set_to if m.set_to >= 0 else c + m.delta
        own = e.card.script.self_cost
        if own is not None:
            c -= own(self, Ctx(eid, 0, self.controller(e)))
        return max(0, c)

    def _put_cost(self, e: Entity, delta: int, log: bool = True) -> None:
        a = e.aura
        old = a.get(COST, 0) if a else 0
        if old == delta:
            return
        if a is None:
            a = e.aura = {}
        if delta:
            a[COST] = delta
        else:
            del a[COST]
        self._legal = None
        if log and self.hist is not None:
            self.hist.tag_change(e, COST)

    def _update_costs(self) -> None:
        """Bring every card in hand to its effective cost; a card that left the hand loses
        its cost-layer delta (a played card shows its printed cost again)."""
        ents = self.ents
        mods = self._cost_auras()
        held: list[int] = []
        for p in (1, 2):
            for i in self.hand[p]:
                e = ents[i]
                if (
                    not mods
                    and e.card.script.self_cost is None
                    and i not in self.cost_held
                    and e.base(COST) >= 0  # Far Sight on a (1): the clamp at 0
                ):
                    continue
                d = self._effective_cost(e, mods) - e.base(COST)
                self._put_cost(e, d)
                if d:
                    held.append(i)
        for i in self.cost_held:
            e = ents[i]
            if e[ZONE] != Z_HAND:
                self._put_cost(e, 0)
        self.cost_held = held

    def _set_base_cost(self, e: Entity, value: int) -> None:
        """A cost enchantment changed the card's own COST: one TAG_CHANGE with the new
        effective value (never the intermediate one)."""
        before = e[COST]
        e.tags[COST] = value
        self._legal = None
        if e[ZONE] == Z_HAND:
            d = self._effective_cost(e, self._cost_auras()) - value
            self._put_cost(e, d, log=False)
            if d and e.id not in self.cost_held:
                self.cost_held.append(e.id)
        self.aura_dirty = True
        if self.hist is not None and e[COST] != before:
            self.hist.tag_change(e, COST)

    def _rebase_cost(self, e: Entity) -> None:
        """A card got a new identity (determinization): its own COST is its new card's
        cost with the cost enchantments attached to it."""
        ents = self.ents
        delta = 0
        for i in self.enchants:
            x = ents[i]
            if x.tags.get(ATTACHED) == e.id:
                delta += sum(d for tag, d in x.card.script.buff if tag == COST)
        if delta:
            e.tags[COST] = e.card.cost + delta
        else:
            e.tags.pop(COST, None)
        if e.aura and COST in e.aura:
            del e.aura[COST]
        self.aura_dirty = True


__all__ = ["Costs"]
