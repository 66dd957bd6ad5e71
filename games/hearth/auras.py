"""Auras in play (SabberStone's ``Auras/``): each buffs the entities its selector picks.

An aura's contribution goes to the target's ``aura`` container, never to its own tags, so
it can be taken back exactly. Anything that may change what an aura covers (a summon, a
death, a move, silence, transform, damage or healing of a minion with an aura) sets
``aura_dirty``; the next update re-evaluates each selector and applies only the difference.
Nothing is re-evaluated on reads or on actions that leave the board alone.
"""

from __future__ import annotations

from .carddb import load_cards
from .core import AuraInstance, Core
from .entity import Entity
from .enums import ATK, HEALTH
from .primitives import Ctx


class Auras(Core):
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
            else:
                keep.append(inst)
        self.auras = keep

    def _aura_apply(self, inst: AuraInstance, new: tuple[int, ...]) -> None:
        old = inst.applied
        if old == new:
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

    def _update_auras(self) -> None:
        if not self.aura_dirty:
            return
        self.aura_dirty = False
        ents = self.ents
        # An aura that gives a keyword may change what another aura selects (Tundra Rhino's
        # Charge for Warsong Commander): then evaluate again, until nothing changes.
        for _ in range(len(self.auras) + 1):
            again = False
            for inst in self.auras:
                src = ents[inst.source]
                ctx = Ctx(inst.source, 0, self.controller(src))
                new = tuple(inst.defn.sel(self, ctx))
                if new != inst.applied:
                    buff = load_cards()[inst.defn.enchant_id].script.buff
                    again = again or any(tag not in _STATS for tag, _ in buff)
                    self._aura_apply(inst, new)
            if not again:
                break


_STATS = (ATK, HEALTH)  # what no aura selector reads


__all__ = ["AuraInstance", "Auras"]
