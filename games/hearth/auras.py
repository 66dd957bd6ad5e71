"""Auras in play (SabberStone's ``Auras/``): each buffs the entities its selector picks.

An aura's contribution goes to the target's ``aura`` container, never to its own tags, so
it can be taken back exactly. Anything that may change what an aura covers (a summon, a
death, a move, silence, transform, damage or healing of a minion with an aura) sets
``aura_dirty``; the next update re-evaluates each selector and applies only the difference.
Nothing is re-evaluated on reads or on actions that leave the board alone.
"""

from __future__ import annotations

from .carddb import load_cards
from .core import AuraInstance
from .costs import Costs
from .entity import Entity
from .enums import HEALTH
from .primitives import Ctx


class Auras(Costs):
    __slots__ = ()

    def _add_auras(self, e: Entity) -> None:
        """``e`` entered play (or became a new card): its auras start working."""
        for a in e.card.script.auras:
            self.auras.append(AuraInstance(e.id, a))
            self.aura_dirty = True

    def _remove_auras(self, e: Entity) -> None:
        """``e`` left play, was silenced or transformed: its auras take their buffs back."""
        eid = e.id
        keep = []
        for inst in self.auras:
            if inst.source == eid:
                self._aura_apply(inst, ())
                if inst.defn.cost is not None:  # --- costs: the hand's costs go back
                    self.aura_dirty = True
            else:
                keep.append(inst)
        self.auras = keep

    def _aura_apply(self, inst: AuraInstance, new: tuple[int, ...]) -> None:
        old = inst.applied
        if old == new:
            return
        if inst.defn.cost is not None:  # --- costs: applied by _update_costs
            inst.applied = new
            return
        if inst.defn.buff:  # --- neutralA: a counted aura with its own deltas
            self._counted_apply(inst, new)
            return
        self._legal = None  # aura writes go to e.aura, not through _set
        buff = load_cards()[inst.defn.enchant_id].script.buff
        ents = self.ents
        hist = self.hist
        for i in old:
            if i in new:
                continue
            e = ents[i]
            a = e.aura
            if a is None:
                continue
            for tag, d in buff:
                a[tag] = a.get(tag, 0) - d
                if hist is not None:
                    hist.tag_change(e, tag)
                if tag == HEALTH and d > 0:
                    self._lose_health(e, d)
        for i in new:
            if i in old:
                continue
            e = ents[i]
            if e.aura is None:
                e.aura = {}
            a = e.aura
            for tag, d in buff:
                a[tag] = a.get(tag, 0) + d
                if hist is not None:
                    hist.tag_change(e, tag)
        inst.applied = new

    def _aura_selection(self, inst: AuraInstance) -> tuple[int, ...]:
        """What ``inst`` should cover now. A counted aura's selector sees its own signed
        share as ``ctx.amount`` (Lightspawn's Attack set to its Health: the gap to make up)."""
        share = _signed(inst.applied, inst.source) if inst.defn.buff else 0
        ctx = Ctx(inst.source, 0, self.controller(self.ents[inst.source]), amount=share)
        return tuple(inst.defn.sel(self, ctx))

    def _update_auras(self) -> None:
        if not self.aura_dirty:
            return
        self.aura_dirty = False
        # An aura may read what another one gives (Warsong Commander reads the Charge that
        # Tundra Rhino's aura gives): repeat until nothing changes (bounded).
        for _ in range(8):
            changed = False
            for inst in self.auras:
                new = self._aura_selection(inst)
                if new != inst.applied:
                    changed = True
                    self._aura_apply(inst, new)
            if not changed:
                break
        self._update_costs()  # --- costs

    # --- neutralA

    def _counted_apply(self, inst: AuraInstance, new: tuple[int, ...]) -> None:
        """An aura with its own deltas whose selection may name an entity several times
        (Old Murk-Eye: itself once per other Murloc): each entity gets the deltas times
        the change in how often it is named."""
        self._legal = None
        old = inst.applied
        ents = self.ents
        hist = self.hist
        for i in dict.fromkeys(abs(i) for i in old + new):
            n = _signed(new, i) - _signed(old, i)
            if not n:
                continue
            e = ents[i]
            if e.aura is None:
                e.aura = {}
            a = e.aura
            for tag, d in inst.defn.buff:
                a[tag] = a.get(tag, 0) + d * n
                if hist is not None:
                    hist.tag_change(e, tag)
                if tag == HEALTH and d * n < 0:
                    self._lose_health(e, -d * n)
        inst.applied = new


def _signed(applied: tuple[int, ...], eid: int) -> int:
    """How many units a counted aura gives ``eid``: ``-eid`` in a selection is a unit taken."""
    return applied.count(eid) - applied.count(-eid)


__all__ = ["AuraInstance", "Auras"]
