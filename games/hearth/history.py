"""Kettle game history, produced only when a game is created with ``history=True``.

Entries are the dicts of seed 000 (``{"type": "kettle:types/history/<name>", "<name>":
{...}}``, tags as ``[{"name": GameTag int, "value": int}]``, ``power_block`` nesting its
entries under ``"history"``). Three streams are written side by side: the full one (for
spectators and the store) and one per player, where the opponent's hand and deck are
entities without a card id; a ``show_entity`` reveals a card when it reaches a public zone.
"""

from __future__ import annotations

from typing import Any

from .entity import Entity
from .enums import (
    B_TRIGGER,
    CLASS,
    CONTROLLER,
    ENTITY_ID,
    NEXT_STEP,
    Z_DECK,
    Z_HAND,
    Z_SECRET,
    ZONE,
    ZONE_POSITION,
)

Entry = dict[str, Any]
PREFIX = "kettle:types/history/"
# Tags of a hidden card that its opponent may still see.
PUBLIC_OF_HIDDEN = frozenset({ZONE, ZONE_POSITION, CONTROLLER, ENTITY_ID})
HIDDEN_ZONES = (Z_HAND, Z_DECK, Z_SECRET)  # a secret is revealed when it leaves
_POWER_BLOCK = PREFIX + "power_block"
_TAG_CHANGE = PREFIX + "tag_change"
_TRIGGER = B_TRIGGER


def _tags(tags: dict[int, int]) -> list[dict[str, int]]:
    return [{"name": t, "value": v} for t, v in tags.items()]


def entity_tags(e: Entity) -> dict[int, int]:
    tags = e.all_tags()
    tags[ENTITY_ID] = e.id
    return tags


class History:
    """Three parallel streams: index 0 = full view, 1 and 2 = what each player may see."""

    __slots__ = ("stacks", "streams")

    def __init__(self) -> None:
        self.streams: tuple[list[Entry], list[Entry], list[Entry]] = ([], [], [])
        self.stacks: list[list[list[Entry]]] = [[s] for s in self.streams]

    def copy(self) -> History:
        """Between actions every block is closed and no entry changes any more, so a copy
        shares the entries (treat them as read-only) and copies only the three lists."""
        if any(len(stack) != 1 for stack in self.stacks):
            raise RuntimeError("cannot copy a history while a block is open")
        h = History()
        h.streams = (self.streams[0][:], self.streams[1][:], self.streams[2][:])
        h.stacks = [[s] for s in h.streams]
        return h

    # -- low level

    def _put(self, viewer: int, entry: Entry) -> None:
        self.stacks[viewer][-1].append(entry)

    def _all(self, entry: Entry) -> None:
        stacks = self.stacks
        stacks[0][-1].append(entry)
        stacks[1][-1].append(entry)
        stacks[2][-1].append(entry)

    # -- entries

    def create_game(self, game: Entity, players: tuple[Entity, Entity]) -> None:
        entry = {
            "type": PREFIX + "create_game",
            "create_game": {
                "game_entity": {"entityID": 1, "name": "", "tags": _tags(entity_tags(game))},
                "players": [
                    {
                        "playerID": p,
                        "game_accountID": p,
                        "card_back": 0,
                        "entity": {
                            "entityID": 1 + p,
                            "name": "",
                            "tags": _tags(entity_tags(players[p - 1])),
                        },
                    }
                    for p in (1, 2)
                ],
            },
        }
        self._all(entry)

    def _entity_entries(
        self, kind: str, e: Entity, before: dict[int, int] | None = None
    ) -> tuple[Entry, Entry, Entry]:
        """The entry for each stream; viewers who may see the card share one object."""
        tags = entity_tags(e)
        if before:
            for t in before:
                if t not in tags:
                    tags[t] = 0
        full = {
            "type": PREFIX + kind,
            kind: {"entityID": e.id, "name": e.card.id, "tags": _tags(tags)},
        }
        if e[ZONE] not in HIDDEN_ZONES:
            return full, full, full
        owner = e[CONTROLLER]
        hidden = {
            "type": PREFIX + kind,
            kind: {
                "entityID": e.id,
                "name": "",
                "tags": _tags({t: v for t, v in tags.items() if t in PUBLIC_OF_HIDDEN}),
            },
        }
        return full, (full if owner == 1 else hidden), (full if owner == 2 else hidden)

    def _entity_entry(self, kind: str, e: Entity, viewer: int) -> Entry:
        return self._entity_entries(kind, e)[viewer]

    @staticmethod
    def hidden_now(e: Entity, viewer: int) -> bool:
        return viewer != 0 and e[ZONE] in HIDDEN_ZONES and e[CONTROLLER] != viewer

    def full_entity(self, e: Entity) -> None:
        entries = self._entity_entries("full_entity", e)
        stacks = self.stacks
        for v in (0, 1, 2):
            stacks[v][-1].append(entries[v])

    def change_entity(self, e: Entity, before: dict[int, int] | None = None) -> None:
        """A transform: new card id and tags; tags the old card had and the new one lacks
        are written as 0, because a reader merges the tags (hslog does)."""
        entries = self._entity_entries("change_entity", e, before)
        stacks = self.stacks
        for v in (0, 1, 2):
            stacks[v][-1].append(entries[v])

    def tag_change(self, e: Entity, tag: int) -> None:
        entry = {
            "type": _TAG_CHANGE,
            "tag_change": {"entityID": e.id, "tag": tag, "value": e[tag]},
        }
        if tag in PUBLIC_OF_HIDDEN or e[ZONE] not in HIDDEN_ZONES:
            stacks = self.stacks
            stacks[0][-1].append(entry)
            stacks[1][-1].append(entry)
            stacks[2][-1].append(entry)
            return
        owner = e[CONTROLLER]
        self._put(0, entry)
        if owner in (1, 2):
            self._put(owner, entry)

    def zone_change(self, e: Entity, old_zone: int, unseen: bool = False) -> None:
        """Called after ZONE was written: reveal or hide per viewer as visibility changes.

        ``unseen`` (--- hunter ---): the owner's opponent only sees the zone change, never
        the card (Tracking's cards, set aside from the deck, drawn or discarded)."""
        new_zone = e[ZONE]
        owner = e[CONTROLLER]
        entry = {
            "type": PREFIX + "tag_change",
            "tag_change": {"entityID": e.id, "tag": ZONE, "value": new_zone},
        }
        for v in (0, 1, 2):
            if unseen and v not in (0, owner):
                self._put(v, entry)
                continue
            was_hidden = v != 0 and old_zone in HIDDEN_ZONES and owner != v
            now_hidden = v != 0 and new_zone in HIDDEN_ZONES and owner != v
            if was_hidden and not now_hidden:
                self._put(v, self._entity_entry("show_entity", e, v))
            elif now_hidden and new_zone == Z_SECRET:
                # A hidden secret shows its class (the opponent sees a Mage secret), as a
                # real log's tag change on it does; never its card.
                self._put(v, entry)
                self._put(v, {
                    "type": _TAG_CHANGE,
                    "tag_change": {"entityID": e.id, "tag": CLASS, "value": e[CLASS]},
                })
            elif now_hidden and not was_hidden:
                # hslog's HideEntity ignores the zone: the ZONE tag_change moves the card.
                self._put(
                    v,
                    {
                        "type": PREFIX + "hide_entity",
                        "hide_entity": {"entityID": e.id, "zone": new_zone},
                    },
                )
                self._put(v, entry)
            else:
                self._put(v, entry)

    def meta_data(self, meta: int, data: int, info: list[int]) -> None:
        self._all(
            {"type": PREFIX + "meta_data", "meta_data": {"type": meta, "data": data, "info": info}}
        )

    def open_block(
        self, src: Entity | None, block_type: int, source: int, target: int, index: int = -1
    ) -> None:
        """``src``: the entity ``source`` names (None if there is none). Each stream gets
        its own block (its contents differ per viewer); the card id is "" for a viewer
        who may not see the source (the same test as :meth:`hidden_now`)."""
        card_id = "" if src is None else src.card.id
        owner = -1  # when >= 0, only viewer 0 and this owner may see the source's card
        if card_id and src is not None and src[ZONE] in HIDDEN_ZONES:
            owner = src[CONTROLLER]
        for v, stack in enumerate(self.stacks):
            children: list[Entry] = []
            stack[-1].append(
                {
                    "type": _POWER_BLOCK,
                    "power_block": {
                        "power_type": block_type,
                        "entityID": source,
                        "cardID": card_id if owner < 0 or v in (0, owner) else "",
                        "effect_index": index,
                        "entity_target": target,
                        "history": children,
                    },
                }
            )
            stack.append(children)

    def next_step_block(self, source: int, index: int, step: int) -> None:
        """A TRIGGER block of ``source`` (the game or a player) holding only NEXT_STEP =
        ``step``: the same for every viewer, so one block is shared by the three streams
        (entries are read-only once written)."""
        block = {
            "type": _POWER_BLOCK,
            "power_block": {
                "power_type": _TRIGGER,
                "entityID": source,
                "cardID": "",
                "effect_index": index,
                "entity_target": 0,
                "history": [
                    {"type": _TAG_CHANGE,
                     "tag_change": {"entityID": 1, "tag": NEXT_STEP, "value": step}}
                ],
            },
        }
        stacks = self.stacks
        stacks[0][-1].append(block)
        stacks[1][-1].append(block)
        stacks[2][-1].append(block)

    def close_block(self) -> None:
        for v in (0, 1, 2):
            self.stacks[v].pop()
