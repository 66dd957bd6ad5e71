"""Entities: an id, the immutable card, the entity's own tags and the aura contributions.

Reading a tag follows SabberStone's three containers: own tags, else the card's tags,
else 0; then the contributions of the auras currently applied to this entity are added.
"""

from __future__ import annotations

from .carddb import Card


class Entity:
    """One game object (the game, a player, a card or an enchantment).

    >>> from games.hearth.carddb import load_cards
    >>> from games.hearth.enums import ATK, HEALTH
    >>> yeti = Entity(4, load_cards()["CS2_182"])
    >>> yeti[ATK], yeti[HEALTH]
    (4, 5)
    >>> yeti.tags[ATK] = 6; yeti.aura = {ATK: 1}; yeti[ATK]
    7
    """

    __slots__ = ("aura", "card", "id", "order", "tags")

    def __init__(self, entity_id: int, card: Card, tags: dict[int, int] | None = None) -> None:
        self.id = entity_id
        self.card = card
        self.tags: dict[int, int] = tags if tags is not None else {}
        self.aura: dict[int, int] | None = None
        self.order = 0  # order of play (0 = not played/summoned yet)

    def __getitem__(self, tag: int) -> int:
        v = self.tags.get(tag)
        if v is None:
            v = self.card.tags.get(tag, 0)
        a = self.aura
        if a is not None:
            v += a.get(tag, 0)
        return v

    def base(self, tag: int) -> int:
        """The value without aura contributions."""
        v = self.tags.get(tag)
        return self.card.tags.get(tag, 0) if v is None else v

    def copy(self) -> Entity:
        e = Entity.__new__(Entity)
        e.id = self.id
        e.card = self.card
        e.tags = self.tags.copy()
        a = self.aura
        e.aura = None if a is None else a.copy()
        e.order = self.order
        return e

    def all_tags(self) -> dict[int, int]:
        """Every tag with its current value (card tags, own tags, aura contributions)."""
        out = dict(self.card.tags)
        out.update(self.tags)
        if self.aura:
            for t, d in self.aura.items():
                out[t] = out.get(t, 0) + d
        return out

    def __repr__(self) -> str:
        return f"<Entity {self.id} {self.card.id or self.card.name}>"
