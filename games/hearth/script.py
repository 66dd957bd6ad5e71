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

from .enums import ATK, ATTACHED, DAMAGE, HEALTH, T_MINION, Z_PLAY
from .primitives import Ctx, Primitives

# Event types; triggers are indexed by these, never broadcast to every entity. Each event
# has a subject and, for some, an ``other`` entity (the effect sees them as ``ctx.target``
# and ``ctx.other``).
EV_DAMAGED = 1  # subject = the damaged character (after the damage); other = the source
EV_SUMMONED = 2  # subject = the minion summoned (after the summon / after the play)
EV_TURN_START = 3  # subject = the player entity whose turn starts
EV_TURN_END = 4  # subject = the player entity whose turn ends
EV_HEALED = 5  # subject = the healed character; other = the source
# "Whenever ... attacks": subject = the attacker, other = the defender; resolves before
# any combat damage (an attacker or defender it removes cancels the attack).
EV_ATTACK = 6
EV_AFTER_ATTACK = 7  # "After ... attacks": after the combat damage, before the deaths
# "Whenever you play a card" (subject = the card, before its battlecry or text) and
# "whenever you cast a spell" (subject = the spell, before its text).
EV_PLAYED = 8
EV_CAST = 9
EV_AFTER_CAST = 10  # "After you cast a spell": subject = the spell, after its text
EV_DIED = 11  # subject = a minion that died (after it left play, with the death phase)
# "After ... plays a minion": subject = the minion played from hand, after its battlecry and
# the death phase after it (with EV_SUMMONED; a summon by an effect fires EV_SUMMONED only).
EV_AFTER_PLAYED = 12

# Trigger scopes: which subjects a listener reacts to ("friendly" = the listener's
# controller's; for an enchantment, the controller of whoever cast it).
ON_SELF = "self"
ON_OTHER_FRIENDLY_MINION = "other_friendly_minion"
ON_FRIENDLY_MINION = "friendly_minion"
ON_ENEMY_MINION = "enemy_minion"
ON_FRIENDLY_PLAYER = "friendly_player"
ON_ENEMY_PLAYER = "enemy_player"
ON_FRIENDLY_HERO = "friendly_hero"
ON_FRIENDLY = "friendly"  # any entity the listener's controller controls (a card played)
ON_ENEMY = "enemy"
ON_ATTACHED = "attached"  # an enchantment's listener: the entity it is attached to
ON_BY_SELF = "by_self"  # the event's other entity is the listener (damage it dealt)
# Attack events: the defender (the event's other entity) is the listener's hero / one of
# its minions / either; the attacker is then always an enemy.
ON_DEFENDER_FRIENDLY_HERO = "defender_friendly_hero"
ON_DEFENDER_FRIENDLY_MINION = "defender_friendly_minion"
ON_DEFENDER_FRIENDLY = "defender_friendly"
ON_ANY = "any"

# A selection: entity ids computed when an effect or aura runs (dsl.Selector is one).
Selection = Callable[[Primitives, Ctx], list[int]]


class Effect:
    """A small reusable action; ``run`` changes the game through its primitives only."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        raise NotImplementedError


# A trigger's extra condition: (game, listener, subject) -> fires?
Condition = Callable[[Primitives, int, int], bool]


@dataclass(frozen=True)
class Trigger:
    """``effect`` runs when ``event`` happens to a subject in ``scope`` (owner in play) and
    ``when`` (if given) holds, e.g. a Beast summoned."""

    event: int
    effect: Effect
    scope: str = ON_SELF
    when: Condition | None = None
    # A secret's trigger: heard only on the opponent's turn, and the secret is revealed
    # (moved to the graveyard) before its effect runs.
    secret: bool = False
    # --- rogue --- where the listener must be for it to fire: in play, or (Headcrack's
    # "return this to your hand next turn") in the graveyard, where an effect registers it.
    zone: int = Z_PLAY

    def matches(self, g: Primitives, listener: int, subject: int, other: int = 0) -> bool:
        if not self._in_scope(g, listener, subject, other):
            return False
        return self.when is None or self.when(g, listener, subject)

    def _in_scope(self, g: Primitives, listener: int, subject: int, other: int) -> bool:
        scope = self.scope
        if scope == ON_SELF:
            return subject == listener
        if scope == ON_ANY:
            return True
        if scope == ON_ATTACHED:
            return subject == g.tag(listener, ATTACHED)
        if scope == ON_BY_SELF:
            return other == listener
        mine = g.controller_of(listener)
        if scope == ON_DEFENDER_FRIENDLY_HERO:
            return other == g.hero[mine]
        if scope == ON_DEFENDER_FRIENDLY_MINION:
            return other in g.board[mine]
        if scope == ON_DEFENDER_FRIENDLY:
            return other == g.hero[mine] or other in g.board[mine]
        if scope == ON_FRIENDLY_PLAYER:
            return subject == 1 + mine
        if scope == ON_ENEMY_PLAYER:
            return subject == 4 - mine
        if scope == ON_FRIENDLY_HERO:
            return subject == g.hero[mine]
        friendly = g.controller_of(subject) == mine
        if scope == ON_FRIENDLY:
            return friendly
        if scope == ON_ENEMY:
            return not friendly
        minion = g.card_type(subject) == T_MINION
        if scope == ON_OTHER_FRIENDLY_MINION:
            return minion and friendly and subject != listener
        if scope == ON_FRIENDLY_MINION:
            return minion and friendly
        if scope == ON_ENEMY_MINION:
            return minion and not friendly
        raise ValueError(f"unknown trigger scope {scope!r}")


# --- costs
# A card's own cost reduction: (game, the card in hand as ctx.source) -> how much less.
CostFn = Callable[[Primitives, Ctx], int]


@dataclass(frozen=True)
class CostMod:
    """What a cost aura does to a card in hand (see :mod:`.costs` for the order):
    ``delta`` (Sorcerer's Apprentice -1, Venture Co. +3), or ``set_to`` >= 0 (Millhouse:
    spells cost (0)), or with ``floor`` a ``delta`` < 0 that stops at ``floor`` and is
    applied before every other aura (Summoning Portal: (2) less, but not less than (1))."""

    delta: int = 0
    set_to: int = -1
    floor: int = 0


@dataclass(frozen=True)
class Aura:
    """While the source is in play, entities in ``sel`` (evaluated for the source) get the
    deltas of enchantment ``enchant_id``. Kept up to date incrementally when the board changes."""

    sel: Selection
    enchant_id: str
    # --- neutralA: deltas given by the aura itself when the card data has no enchantment
    # for it (Old Murk-Eye's Attack, Southsea Deckhand's Charge); the selection may then
    # name an entity several times, once per unit of the bonus.
    buff: tuple[tuple[int, int], ...] = ()
    # --- costs: a cost aura on hand cards (its selection names cards in hand); the cost
    # layer (:mod:`.costs`) applies it, nothing is written to e.aura by the aura machinery.
    cost: CostMod | None = None


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
    # Combo: what the card does instead when another card was played before it this turn,
    # and that text's requirements (empty: the card's own)
    combo: Effect | None = None
    combo_requirements: dict[int, int] = field(default_factory=dict)
    # REQ_ENTIRE_ENTOURAGE_NOT_IN_PLAY: the cards it may summon (Totemic Call's totems)
    entourage: tuple[str, ...] = ()
    # --- neutralA: a stat swap enchantment (Crazed Alchemist's EX1_059e), undone by Silence
    swaps_stats: bool = False
    # derived
    needs_target: bool = False  # REQ_TARGET_TO_PLAY: unplayable without a valid target
    takes_target: bool = False  # REQ_TARGET_TO_PLAY or REQ_TARGET_IF_AVAILABLE
    combo_needs_target: bool = False  # the same, with combo
    combo_takes_target: bool = False
    # --- control ---
    # While this minion is in play and not silenced, its controller has these tags (Prophet
    # Velen's SPELLPOWER_DOUBLE, Auchenai's HEALING_DOES_DAMAGE): counted, never stored.
    player_tags: tuple[tuple[int, int], ...] = ()
    # --- warlock ---
    # An enchantment whose +Attack/+Health the game decides (Void Terror's Consume): they
    # are TAG_SCRIPT_DATA_NUM_1 and TAG_SCRIPT_DATA_NUM_2 of the enchantment entity.
    stats_from_data: bool = False
    # An enchantment's "when it goes", removed by its own trigger or by a Silence (Shadow
    # Madness gives the minion back); its ``deathrattle`` is one it gives its bearer.
    on_removed: Effect | None = None
    # --- druid ---
    # Choose One: the option cards (their own text and requirements); the card is played with
    # ``Action.cards == (k,)``, k the option's index here.
    choose: tuple[str, ...] = ()
    # --- costs: "Costs (1) less for each ..." (the Giants): the reduction, read while the
    # card is in hand (subject = the card itself).
    self_cost: CostFn | None = None


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
    "EV_AFTER_ATTACK",
    "EV_AFTER_CAST",
    "EV_AFTER_PLAYED",
    "EV_ATTACK",
    "EV_CAST",
    "EV_DAMAGED",
    "EV_DIED",
    "EV_HEALED",
    "EV_PLAYED",
    "EV_SUMMONED",
    "EV_TURN_END",
    "EV_TURN_START",
    "ON_ANY",
    "ON_ATTACHED",
    "ON_BY_SELF",
    "ON_DEFENDER_FRIENDLY",
    "ON_DEFENDER_FRIENDLY_HERO",
    "ON_DEFENDER_FRIENDLY_MINION",
    "ON_ENEMY",
    "ON_ENEMY_MINION",
    "ON_ENEMY_PLAYER",
    "ON_FRIENDLY",
    "ON_FRIENDLY_HERO",
    "ON_FRIENDLY_MINION",
    "ON_FRIENDLY_PLAYER",
    "ON_OTHER_FRIENDLY_MINION",
    "ON_SELF",
    "SCRIPTS",
    "Aura",
    "CardScript",
    "Condition",
    "Effect",
    "Selection",
    "Trigger",
    "register",
]

# --- neutralB ---
# "After you play a card" (Xavius): subject = the card played from hand, any type, once its
# play has resolved (after EV_AFTER_CAST / EV_AFTER_PLAYED), before the play's last death phase.
EV_AFTER_PLAY_CARD = 13
__all__ += ["EV_AFTER_PLAY_CARD"]
__all__ += ["CostFn", "CostMod"]  # --- costs

# --- hunter ---
# "Whenever a friendly Secret is revealed" (Eaglehorn Bow): subject = the secret, once it
# has left the SECRET zone because its own trigger went off (not when Flare destroys it).
EV_SECRET_REVEALED = 21
__all__ += ["EV_SECRET_REVEALED"]

# --- mage ---
# "When your hero takes fatal damage" (Ice Block): subject = the hero, before the damage
# (after armor) would bring its Health to 0 or below; resolved at once.
EV_FATAL_DAMAGE = 41
__all__ += ["EV_FATAL_DAMAGE"]


def attack_is_health(g: Primitives, ctx: Ctx) -> list[int]:
    """The selection of a counted ATK aura that sets its source's Attack to its Health
    (Lightspawn, SabberStone's AdaptiveEffect SET): the units that make up the gap, whatever
    else buffs the Attack; ``ctx.amount`` is what the aura gives now."""
    me = ctx.source
    gap = g.tag(me, HEALTH) - g.tag(me, DAMAGE) - g.tag(me, ATK) + ctx.amount
    return [me] * gap if gap >= 0 else [-me] * -gap


__all__ += ["attack_is_health"]
