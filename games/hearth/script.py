"""What a card does, as data: :class:`CardScript` and its slots, and the script registry.

A script holds behaviour only (stats come from the card data): the play effect, the
deathrattle, triggers (indexed by the event types below), auras, play requirements, and for
enchantments their tag deltas. The declarations in :mod:`games.hearth.cards` fill
:data:`SCRIPTS` through :func:`games.hearth.dsl.card`; :func:`games.hearth.carddb.load_cards`
imports them on first use and joins each script to its card.

This module depends on :mod:`.enums` and the :class:`~.primitives.Primitives` protocol only:
the engine imports it, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .enums import T_MINION
from .primitives import Ctx, Primitives

# Event types; triggers are indexed by these, never broadcast to every entity.
EV_DAMAGED = 1  # subject = the damaged character (after the damage)
EV_SUMMONED = 2  # subject = the minion summoned (after the summon / after the play)
EV_TURN_START = 3  # subject = the player entity whose turn starts
EV_TURN_END = 4  # subject = the player entity whose turn ends
EV_HEALED = 5  # subject = the healed character

# Trigger scopes: which subjects a listener reacts to.
ON_SELF = "self"
ON_OTHER_FRIENDLY_MINION = "other_friendly_minion"
ON_FRIENDLY_PLAYER = "friendly_player"
ON_ANY = "any"

# A selection: entity ids computed when an effect or aura runs (dsl.Selector is one).
Selection = Callable[[Primitives, Ctx], list[int]]


class Effect:
    """A small reusable action; ``run`` changes the game through its primitives only."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Trigger:
    """``effect`` runs when ``event`` happens to a subject in ``scope`` (owner in play)."""

    event: int
    effect: Effect
    scope: str = ON_SELF

    def matches(self, g: Primitives, listener: int, subject: int) -> bool:
        scope = self.scope
        if scope == ON_SELF:
            return subject == listener
        if scope == ON_OTHER_FRIENDLY_MINION:
            return (
                subject != listener
                and g.card_type(subject) == T_MINION
                and g.controller_of(subject) == g.controller_of(listener)
            )
        if scope == ON_FRIENDLY_PLAYER:
            return subject == 1 + g.controller_of(listener)
        return True


@dataclass(frozen=True)
class Aura:
    """While the source is in play, entities in ``sel`` (evaluated for the source) get the
    deltas of enchantment ``enchant_id``. Kept up to date incrementally when the board changes."""

    sel: Selection
    enchant_id: str


@dataclass(frozen=True)
class CardScript:
    """The behaviour of one card id (stats come from the card data)."""

    play: Effect | None = None  # battlecry, spell text, hero power, weapon battlecry
    deathrattle: Effect | None = None
    triggers: tuple[Trigger, ...] = ()
    auras: tuple[Aura, ...] = ()
    requirements: dict[int, int] = field(default_factory=dict)
    # enchantments: tag deltas, multiplied by TAG_SCRIPT_DATA_NUM_1 when ``scaled``
    buff: tuple[tuple[int, int], ...] = ()
    scaled: bool = False
    # derived
    needs_target: bool = False  # REQ_TARGET_TO_PLAY: unplayable without a valid target
    takes_target: bool = False  # REQ_TARGET_TO_PLAY or REQ_TARGET_IF_AVAILABLE


EMPTY_SCRIPT = CardScript()
SCRIPTS: dict[str, CardScript] = {}


def register(card_id: str, script: CardScript) -> CardScript:
    """Record ``script`` as the behaviour of ``card_id`` (each id is declared once)."""
    if card_id in SCRIPTS:
        raise ValueError(f"{card_id} declared twice")
    SCRIPTS[card_id] = script
    return script


__all__ = [
    "EMPTY_SCRIPT",
    "EV_DAMAGED",
    "EV_HEALED",
    "EV_SUMMONED",
    "EV_TURN_END",
    "EV_TURN_START",
    "ON_ANY",
    "ON_FRIENDLY_PLAYER",
    "ON_OTHER_FRIENDLY_MINION",
    "ON_SELF",
    "SCRIPTS",
    "Aura",
    "CardScript",
    "Effect",
    "Selection",
    "Trigger",
    "register",
]
