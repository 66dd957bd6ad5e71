"""Triggers (SabberStone's ``Triggers/``), and entering and leaving play.

Triggers are indexed by event type: ``triggers[event]`` lists the ids of the entities in
play that listen to it, in order of play. Listeners are minions on the board, equipped
weapons and enchantments (Corruption's "at the start of your turn, destroy it" lives on
the enchantment it attaches). Firing an event looks at that event's listeners
only (never at every entity) and queues the matching triggers; the queue resolves when
the effect that caused them has finished, before the death phase, each trigger in its own
TRIGGER block.
"""

from __future__ import annotations

from .auras import Auras
from .entity import Entity
from .enums import (
    B_TRIGGER,
    CANT_PLAY,
    SILENCED,
    Z_GRAVEYARD,
    Z_PLAY,
    Z_SECRET,
    ZONE,
    ZONE_POSITION,
)
from .primitives import Ctx
from .script import EV_AFTER_CAST, EV_CAST, EV_SECRET_REVEALED

_CAST_EVENTS = (EV_CAST, EV_AFTER_CAST)


class Triggers(Auras):
    __slots__ = ()

    def _register(self, e: Entity) -> None:
        """``e`` entered play (or became a new card): index its triggers, start its auras."""
        if e.tags.get(SILENCED):
            return
        for ev in {t.event for t in e.card.script.triggers if t.zone == Z_PLAY}:
            self.triggers.setdefault(ev, []).append(e.id)
        self._add_auras(e)

    def _listen_in(self, e: Entity, zone: int) -> None:
        """--- rogue --- index ``e``'s triggers that fire while it is in ``zone`` (a spell in
        the graveyard: Headcrack); :meth:`_unregister` takes them off again."""
        for ev in {t.event for t in e.card.script.triggers if t.zone == zone}:
            lst = self.triggers.setdefault(ev, [])
            if e.id not in lst:
                lst.append(e.id)

    def _unregister(self, e: Entity) -> None:
        """``e`` left play, was silenced or is being transformed."""
        eid = e.id
        for ev in {t.event for t in e.card.script.triggers}:
            lst = self.triggers.get(ev)
            if lst and eid in lst:
                lst.remove(eid)
        if e.card.script.auras:
            self._remove_auras(e)

    def _fire(self, event: int, subject: int, other: int = 0, amount: int = 0) -> None:
        listeners = self.triggers.get(event)
        if not listeners:
            return
        ents = self.ents
        queue = self.queue
        # Secrets resolve before the other triggers of one event (a Counterspell stops
        # the "whenever you cast a spell" triggers of the spell it counters).
        at = len(queue)
        for lid in listeners:
            for trig in ents[lid].card.script.triggers:
                if trig.event != event or not trig.matches(self, lid, subject, other):
                    continue
                if not trig.secret:
                    queue.append((lid, trig, subject, other, amount))
                elif self.controller(ents[lid]) != self.current:  # never on its owner's turn
                    queue.insert(at, (lid, trig, subject, other, amount))
                    at += 1

    def _resolve(self) -> None:
        """Run queued triggers in order (each may queue more)."""
        q = self.queue
        while q:
            lid, trig, subject, other, amount = q.pop(0)
            e = self.ents[lid]
            zone = e[ZONE]
            if trig.secret:
                # Revealed first: a secret that triggered once is gone (a second queued
                # trigger of the same secret finds it in the graveyard and does nothing).
                if zone != Z_SECRET or not trig.matches(self, lid, subject, other):
                    continue
                self._block(B_TRIGGER, lid, 0, 0)
                self._reveal_secret(e)
                self._fire(EV_SECRET_REVEALED, lid)  # --- hunter --- (Eaglehorn Bow)
                ctx = Ctx(lid, subject, self.controller(e), other=other, amount=amount)
                trig.effect.run(self, ctx)
                self._end_block()
                continue
            if zone != trig.zone or e.tags.get(SILENCED) or e.card.script.triggers == ():
                continue
            if trig not in e.card.script.triggers:
                continue
            if trig.event in _CAST_EVENTS and self.ents[subject][CANT_PLAY]:
                continue  # a countered spell was not cast
            self._block(B_TRIGGER, lid, 0, 0)
            trig.effect.run(self, Ctx(lid, subject, self.controller(e), other=other, amount=amount))
            self._end_block()

    def _put_secret(self, e: Entity, p: int) -> None:
        """A played secret goes (hidden from the opponent) to ``p``'s SECRET zone."""
        self._move(e, Z_SECRET)
        self.secrets[p].append(e.id)
        self._positions(self.secrets[p])  # ZONE_POSITION keeps the order (as real logs do)
        self._register(e)

    def _reveal_secret(self, e: Entity) -> None:
        """The secret triggers: it leaves the SECRET zone for the graveyard (revealed)."""
        secrets = self.secrets[self.controller(e)]
        secrets.remove(e.id)
        self._unregister(e)
        self._set(e, ZONE_POSITION, 0)
        self._move(e, Z_GRAVEYARD)
        self._positions(secrets)


__all__ = ["Triggers"]
