"""The engine as card behaviour sees it: the effect primitives, as a :class:`typing.Protocol`.

Selectors, effects, triggers and auras (:mod:`.dsl`, :mod:`.script`) are typed against
:class:`Primitives`, never against the concrete :class:`games.hearth.game.State`: the card
layer then depends on :mod:`.enums` alone, and the engine on the card layer, not both ways.
The engine's base layer (:class:`games.hearth.core.Core`) declares that it implements this
protocol, so mypy checks every primitive's signature where it is defined.

Everything is addressed by entity id; players are 1 and 2 (index 0 of the zone lists is
unused).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Ctx:
    """What an effect runs with: its source entity, the chosen target (0 = none; for a
    trigger the event's subject), the controlling player (1|2), for deathrattles the board
    slot the source left, and for a trigger the event's other entity (0 = none: the damage
    source, the defender)."""

    __slots__ = ("amount", "other", "player", "slot", "source", "target")

    def __init__(
        self,
        source: int,
        target: int,
        player: int,
        slot: int = -1,
        other: int = 0,
        amount: int = 0,
    ) -> None:
        self.source = source
        self.target = target
        self.player = player
        self.slot = slot
        self.other = other
        self.amount = amount  # a damage event's amount dealt (Eye for an Eye)


# --- hunter --- what a mid-turn choice does with the pick: (game, ctx of its source and
# chooser, the chosen entity id, every offered id in order).
ChoiceDone = Callable[["Primitives", Ctx, int, tuple[int, ...]], None]


class Rng(Protocol):
    """The game's seeded generator, as effects use it."""

    def below(self, n: int) -> int:
        """A uniform int in ``[0, n)``."""
        ...


class Primitives(Protocol):
    """What card behaviour may read and do. ``hero``/``weapon``/``board`` are indexed by
    player; read them, never write them (only the engine's primitives move entities)."""

    __slots__ = ()

    hero: list[int]
    weapon: list[int]  # 0 = no weapon
    board: list[list[int]]  # minion ids, left to right
    secrets: list[list[int]]  # ids in the SECRET zone, in order of play
    hand: list[list[int]]  # card ids in hand, left to right

    @property
    def rng(self) -> Rng: ...

    # -- reads

    def tag(self, eid: int, tag: int) -> int:
        """The current value of a tag (own, else the card's, plus auras)."""
        ...

    def card_type(self, eid: int) -> int: ...

    def card_id(self, eid: int) -> str: ...

    def controller_of(self, eid: int) -> int: ...

    def by_order(self, ids: Sequence[int]) -> list[int]:
        """``ids`` sorted by order of play."""
        ...

    def alive(self, eid: int) -> bool:
        """In play and neither mortally wounded nor marked for destruction."""
        ...

    def is_on_board(self, eid: int) -> bool: ...

    def spell_damage(self, p: int) -> int: ...

    def cost(self, eid: int) -> int:
        """--- costs: what playing the card costs now (auras, enchantments; never < 0)."""
        ...

    # -- effects (each returns what it did where a caller may need it)

    def damage(self, source: int, target: int, amount: int) -> int: ...

    def heal(self, source: int, target: int, amount: int) -> int: ...

    def draw(self, p: int) -> int: ...

    def give(self, p: int, card_id: str) -> int:
        """A new ``card_id`` in ``p``'s hand (0 when the hand is full)."""
        ...

    def summon(self, p: int, card_id: str, position: int, creator: int = 0) -> int: ...

    def add_enchantment(self, card_id: str, target: int, source: int, scale: int = 0) -> int: ...

    def destroy(self, target: int) -> None: ...

    def redirect_attack(self, defender: int) -> None: ...

    def leave_health(self, target: int, health: int) -> None: ...

    def counter(self, spell: int) -> None: ...

    def retarget(self, spell: int, target: int) -> None: ...

    def silence(self, target: int) -> None: ...

    def freeze(self, target: int) -> None: ...

    def transform(self, target: int, card_id: str) -> None: ...

    def transform_copy(self, source: int, target: int) -> None: ...

    def gain_armor(self, p: int, amount: int) -> None: ...

    def gain_temp_mana(self, p: int, amount: int) -> None: ...

    def equip(self, p: int, card_id: str, creator: int = 0) -> int: ...

    def gain_mana_crystal(self, p: int, amount: int = 1, full: bool = False) -> int: ...

    def attack_value(self, eid: int) -> int:
        """Attack as in combat (a hero with its weapon on its own turn)."""
        ...

    def set_stat(self, card_id: str, target: int, source: int, tag: int, value: int) -> int: ...

    def remove_enchantment(self, eid: int) -> None: ...
    def discard(self, p: int, card: int) -> None: ...
    def set_tag(self, target: int, tag: int, value: int) -> None: ...

    # --- neutralA

    def swap_attack_health(self, card_id: str, target: int, source: int) -> int:
        """Swap a minion's Attack and Health through enchantment ``card_id``."""
        ...

    def swap_with_hand(self, minion: int, card: int) -> int:
        """``minion`` goes from the board to the hand, ``card`` from the hand to its slot."""
        ...

    # --- neutralB ---
    deck: list[list[int]]  # card ids in the deck, the top last (order: hidden information)

    def damage_weapon(self, weapon: int, amount: int) -> None:
        """Remove ``amount`` Durability from a weapon (it breaks in the death phase)."""
        ...

    def card_pool(self, card_type: int, race: int = 0, rarity: int = 0) -> Sequence[str]:
        """The collectible cards the engine plays of a type (and race, rarity), by id."""
        ...

    def draw_card(self, p: int, card: int) -> int:
        """Draw ``card`` out of ``p``'s deck (burned when the hand is full)."""
        ...

    def died_this_turn(self, p: int) -> list[int]:
        """``p``'s minions that died this turn, in order of death."""
        ...

    # --- control ---

    def take_control(self, target: int, p: int) -> bool:
        """``p`` takes control of minion ``target`` (right end of ``p``'s board, summoning
        sickness unless Charge); False when ``p``'s board is full (it stays put)."""
        ...

    def base_tag(self, eid: int, tag: int) -> int:
        """A tag without aura contributions (what an enchantment may take away)."""
        ...

    def give_copy(self, p: int, original: int) -> int:
        """A copy of ``original`` in ``p``'s hand that ``original``'s controller knows
        (hidden from ``p``'s opponent in the history all the same); 0 if the hand is full."""
        ...

    def player_tag(self, p: int, tag: int) -> int:
        """What ``p``'s minions in play give ``p`` of ``tag`` (CardScript.player_tags)."""
        ...

    # --- warlock ---
    power: list[int]  # each player's hero power entity

    def replace_hero(self, p: int, hero_card_id: str, source: int, weapon_card_id: str = "") -> int:
        """``p``'s hero is replaced by a fresh ``hero_card_id`` (Lord Jaraxxus)."""
        ...

    def replace_hero_power(self, p: int, card_id: str, creator: int = 0) -> int:
        """``p``'s hero power is replaced by a fresh, unused ``card_id`` (Shadowform)."""
        ...

    def lose_mana_crystal(self, p: int, amount: int = 1) -> None:
        """Destroy ``amount`` of ``p``'s Mana Crystals, spent ones first (Felguard)."""
        ...

    def add_stats_enchantment(
        self, card_id: str, target: int, source: int, atk: int, health: int
    ) -> int:
        """Attach ``card_id`` giving +atk/+health held in its TAG_SCRIPT_DATA_NUM_1/2."""
        ...

    # --- hunter ---

    def offer_choice(
        self, p: int, source: int, offered: Sequence[int], then: ChoiceDone
    ) -> None:
        """``p`` must pick one of ``offered`` (their own cards) before anything else is
        done; ``then`` runs with the pick. The offered cards are named to ``p`` only."""
        ...

    def set_aside_unseen(self, card: int) -> None:
        """Take ``card`` out of its owner's deck into SETASIDE, still hidden from the
        opponent (Tracking's top three cards while its player looks at them)."""
        ...

    def take_into_hand(self, p: int, card: int) -> int:
        """Put a set-aside card of ``p``'s into ``p``'s hand (burned, unseen by the
        opponent, when the hand is full); 0 when it was not set aside."""
        ...

    def discard_unseen(self, card: int) -> None:
        """A set-aside card goes to the graveyard without being shown to the opponent."""
        ...

    def put_on_top(self, p: int, card: int) -> None:
        """Move ``card`` of ``p``'s deck to the top (nothing if it left the deck)."""
        ...

    def destroy_secret(self, secret: int) -> None:
        """Destroy a secret in play (Flare, SI:7 Infiltrator): it goes to the graveyard,
        shown to everyone, without its effect."""
        ...

    # --- rogue ---

    def return_to_hand(self, minion: int) -> int:
        """``minion`` goes from the board to its controller's hand as a fresh card (a new
        entity); a full hand: to the graveyard without dying. Returns the card in hand."""
        ...

    def listen_from_graveyard(self, card: int) -> None:
        """``card``'s graveyard triggers start listening (Headcrack's combo)."""
        ...

    def return_from_graveyard(self, card: int) -> int:
        """A fresh copy of a card in the graveyard goes to its controller's hand (the card
        stays in the graveyard and stops listening); returns the copy (0: hand full)."""
        ...


__all__ = ["ChoiceDone", "Ctx", "Primitives", "Rng"]
