"""The engine's base layer: what a game is made of, and the only ways to write it.

:class:`games.hearth.game.State` is built in layers, one module each, every layer using
only those below it (SabberStone's split of ``Game``, ``Actions/Generic.cs``,
``PlayCard.cs``/``Attack.cs``, ``Triggers/`` and ``Auras/``)::

    Core        core.py      entities, zones, tag writes (with history), small queries
    Costs       costs.py     the effective cost of cards in hand
    Auras       auras.py     aura instances, kept up to date incrementally
    Triggers    triggers.py  the event index, the trigger queue, entering and leaving play
    Effects     effects.py   the effect primitives cards call (damage, draw, summon, ...)
    Play        play.py      playing cards, the hero power, attacks, and which are legal
    Determinize determinize.py  hidden cards' identities, rebuilding from a player's view
    State       game.py      creation, cloning, the step machine, deaths, apply

The layers are mixins of one class with one set of ``__slots__`` (declared here), so a
method call costs what it cost in a single class. :class:`Core` declares that it
implements :class:`~.primitives.Primitives`, the protocol card behaviour is typed against;
the primitives themselves come from :mod:`.effects`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action
from .carddb import Card
from .entity import Entity
from .enums import (
    ATK,
    ATTACHED,
    CONTROLLER,
    CREATOR,
    DAMAGE,
    ENTITY_ID,
    HEALTH,
    OVERLOAD_LOCKED,
    RESOURCES,
    RESOURCES_USED,
    SPELLPOWER,
    STATE,
    T_HERO,
    T_MINION,
    TEMP_RESOURCES,
    TO_BE_DESTROYED,
    Z_PLAY,
    ZONE,
    ZONE_POSITION,
)
from .enums import State as GameState
from .history import History
from .primitives import ChoiceDone, Primitives
from .rng import SplitMix64
from .script import Aura, Trigger

_COMPLETE = int(GameState.COMPLETE)

# Keyword arguments of Core._create and the tags they set.
_EXTRA = {"attached": ATTACHED, "creator": CREATOR}


class AuraInstance:
    """An aura in play: its source, its declaration and the entities it currently buffs."""

    __slots__ = ("applied", "defn", "source")

    def __init__(self, source: int, defn: Aura, applied: tuple[int, ...] = ()) -> None:
        self.source = source
        self.defn = defn
        self.applied = applied


class PendingChoice(NamedTuple):
    """A mid-turn choice (Tracking, Sightless Watcher): ``player`` picks one of ``offered``
    (entity ids, in order); then ``then`` runs with the pick, ``source`` as its source."""

    player: int
    offered: tuple[int, ...]
    source: int
    then: ChoiceDone


class Core(Primitives):
    """Entities, zones and the seeded RNG of one game, and the tag writes every layer uses."""

    __slots__ = (
        "_legal",
        "aura_dirty",
        "auras",
        "board",
        "choices",
        "coin",
        "cost_held",
        "current",
        "deck",
        "enchants",
        "ents",
        "hand",
        "hero",
        "hist",
        "maybe_dead",
        "next_id",
        "next_order",
        "over",
        "power",
        "queue",
        "reason",
        "rng",
        "secrets",
        "step",
        "triggers",
        "turn_cap",
        "unseen",
        "weapon",
        "winner",
    )

    rng: SplitMix64

    def __init__(self) -> None:
        self.ents: dict[int, Entity] = {}
        self.next_id = 1
        self.next_order = 1
        self.rng = SplitMix64(0)
        self.hand: list[list[int]] = [[], [], []]
        self.deck: list[list[int]] = [[], [], []]
        self.board: list[list[int]] = [[], [], []]
        self.hero = [0, 0, 0]
        self.power = [0, 0, 0]
        self.weapon = [0, 0, 0]
        self.secrets: list[list[int]] = [[], [], []]  # ids in the SECRET zone, in play order
        self.coin = 0
        # event type -> listener ids, in order of play
        self.triggers: dict[int, list[int]] = {}
        self.auras: list[AuraInstance] = []
        self.enchants: list[int] = []
        # triggers waiting to resolve: (listener, trigger, subject, other)
        self.queue: list[tuple[int, Trigger, int, int, int]] = []
        self.aura_dirty = False
        self.maybe_dead = False  # something took damage or was destroyed: run a death phase
        self.hist: History | None = None
        self.turn_cap: int | None = None
        self.current = 0
        self.step = 0
        self.over = False
        self.winner = -1
        self.reason = ""
        self._legal: list[Action] | None = None
        # --- costs: cards whose COST carries a cost-layer delta (in e.aura), see .costs
        self.cost_held: list[int] = []
        # --- hunter --- mid-turn choices waiting for their player, oldest first
        self.choices: list[PendingChoice] = []
        # Cards in a public zone (SETASIDE, GRAVEYARD) that their owner's opponent never saw
        # (Tracking's): the opponent's history names them nowhere.
        self.unseen: set[int] = set()

    def _create(self, card: Card, controller: int, zone: int, **extra: int) -> Entity:
        eid = self.next_id
        self.next_id += 1
        tags = {ENTITY_ID: eid, CONTROLLER: controller, ZONE: zone, ZONE_POSITION: 0}
        for k, v in extra.items():
            tags[_EXTRA[k]] = v
        e = Entity(eid, card, tags)
        self.ents[eid] = e
        if self.hist is not None:
            self.hist.full_entity(e)
        return e

    # ------------------------------------------------------------------ small queries

    def by_order(self, ids: Sequence[int]) -> list[int]:
        if len(ids) < 2:
            return list(ids)
        ents = self.ents
        return sorted(ids, key=lambda i: ents[i].order)

    @staticmethod
    def controller(e: Entity) -> int:
        return e.tags.get(CONTROLLER) or e[CONTROLLER]

    def controller_of(self, eid: int) -> int:
        return self.controller(self.ents[eid])

    def tag(self, eid: int, tag: int) -> int:
        return self.ents[eid][tag]

    def card_type(self, eid: int) -> int:
        return self.ents[eid].card.type

    def card_id(self, eid: int) -> str:
        return self.ents[eid].card.id

    def health(self, eid: int) -> int:
        e = self.ents[eid]
        return e[HEALTH] - e[DAMAGE]

    def alive(self, eid: int) -> bool:
        """On the board (or a hero) and not mortally wounded or marked for destruction."""
        e = self.ents[eid]
        return e[ZONE] == Z_PLAY and e[HEALTH] - e[DAMAGE] > 0 and not e.tags.get(TO_BE_DESTROYED)

    def is_on_board(self, eid: int) -> bool:
        e = self.ents[eid]
        return e.card.type == T_MINION and eid in self.board[self.controller(e)]

    def mana(self, p: int) -> int:
        pe = self.ents[1 + p]
        # After a Coin turn RESOURCES_USED may exceed RESOURCES until the next MAIN_READY.
        # Overload locks crystals for the turn after the card was played.
        return max(
            0, pe[RESOURCES] + pe[TEMP_RESOURCES] - pe[RESOURCES_USED] - pe[OVERLOAD_LOCKED]
        )

    def spell_damage(self, p: int) -> int:
        ents = self.ents
        return sum(ents[i][SPELLPOWER] for i in self.board[p])

    def attack_value(self, eid: int) -> int:
        """Attack as used in combat: a hero adds its weapon only on its own turn (sheathed)."""
        e = self.ents[eid]
        v = e[ATK]
        if e.card.type == T_HERO:
            p = self.controller(e)
            w = self.weapon[p]
            if w and p == self.current:
                v += self.ents[w][ATK]
        return v

    def _attached(self, target: int) -> list[int]:
        """The enchantments attached to ``target``."""
        ents = self.ents
        return [i for i in self.enchants if ents[i].tags.get(ATTACHED) == target]

    # ------------------------------------------------------------------ tag writes

    def _set(self, e: Entity, tag: int, value: int) -> None:
        e.tags[tag] = value
        self._legal = None  # any change (also a direct call from a test) drops the cache
        if self.hist is not None:
            self.hist.tag_change(e, tag)

    def _move(self, e: Entity, zone: int) -> None:
        old = e[ZONE]
        e.tags[ZONE] = zone
        self._legal = None
        if self.hist is not None and old != zone:
            self.hist.zone_change(e, old)

    def _positions(self, ids: list[int]) -> None:
        ents = self.ents
        for n, i in enumerate(ids, 1):
            e = ents[i]
            if e.tags.get(ZONE_POSITION) != n:
                self._set(e, ZONE_POSITION, n)

    def _lose_health(self, e: Entity, lost: int) -> None:
        """Maximum health went down by ``lost``: current = min(current, new maximum)."""
        dmg = e[DAMAGE]
        if dmg:
            self._set(e, DAMAGE, max(0, dmg - lost))

    def _block(self, block_type: int, source: int, target: int = 0, index: int = -1) -> None:
        if self.hist is not None:
            self.hist.open_block(self.ents.get(source), block_type, source, target, index)

    def _end_block(self) -> None:
        h = self.hist
        if h is not None:
            h.close_block()
            # A game that ended inside a block is wrapped up once every block is closed:
            # a real log writes LOST/WON and FINAL_WRAPUP at the top level.
            if self.over and len(h.stacks[0]) == 1 and self.ents[1][STATE] != _COMPLETE:
                self._wrap_up()

    def _wrap_up(self) -> None:
        """The end of a finished game (:meth:`.game.State._wrap_up`)."""
        raise NotImplementedError


__all__ = ["AuraInstance", "Core", "PendingChoice"]
