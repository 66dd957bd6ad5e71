"""The entity tree a Kettle client keeps: every entity it knows, with its card id and tags.

``EntityTree.apply(entries)`` takes the history entries of a ``history_block`` exactly as
``games.hearth.history`` writes them (``{"type": "kettle:types/history/<name>",
"<name>": {...}}``) and keeps the tree equal to what this player may see:

- ``create_game``: the game entity (1) and the two players (2, 3), with their tags;
- ``full_entity``: a new entity (card id ``""`` when hidden from us) with all its tags;
- ``show_entity`` / ``change_entity``: a card id and tags merged into the entity (a
  reveal, a transform);
- ``hide_entity``: the card leaves our sight (back into the opponent's hand or deck): we
  forget its card id and every tag but ZONE, ZONE_POSITION, CONTROLLER and ENTITY_ID, as
  the engine's view of a hidden card has them; the ZONE ``tag_change`` that follows moves
  it;
- ``tag_change``: one tag's new value;
- ``power_block``: its nested ``"history"`` is applied in order;
- ``meta_data`` (and anything unknown): ignored, it changes no entity.

>>> tree = EntityTree()
>>> tree.apply([
...     {"type": "kettle:types/history/full_entity",
...      "full_entity": {"entityID": 4, "name": "CS2_182",
...                      "tags": [{"name": 49, "value": 3}, {"name": 47, "value": 4}]}},
...     {"type": "kettle:types/history/power_block", "power_block": {
...         "power_type": 7, "entityID": 4, "cardID": "CS2_182", "effect_index": -1,
...         "entity_target": 0, "history": [
...             {"type": "kettle:types/history/tag_change",
...              "tag_change": {"entityID": 4, "tag": 49, "value": 1}}]}}])
>>> tree[4].card_id, tree[4].tags[49], tree[4][47], tree[4][45]
('CS2_182', 1, 4, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from hearthstone.enums import CardType, GameTag, Zone

__all__ = ["PREFIX", "PUBLIC_OF_HIDDEN", "EntityTree", "TreeEntity", "TreeError"]

CARDTYPE = int(GameTag.CARDTYPE)
CONTROLLER = int(GameTag.CONTROLLER)
CURRENT_PLAYER = int(GameTag.CURRENT_PLAYER)
ENTITY_ID = int(GameTag.ENTITY_ID)
PLAYER_ID = int(GameTag.PLAYER_ID)
ZONE = int(GameTag.ZONE)
ZONE_POSITION = int(GameTag.ZONE_POSITION)
Z_HAND = int(Zone.HAND)
Z_PLAY = int(Zone.PLAY)
T_HERO = int(CardType.HERO)
T_HERO_POWER = int(CardType.HERO_POWER)
T_MINION = int(CardType.MINION)

PREFIX = "kettle:types/history/"
PUBLIC_OF_HIDDEN = frozenset({ZONE, ZONE_POSITION, CONTROLLER, ENTITY_ID})
"""The tags a player still sees of a card hidden from it."""


class TreeError(ValueError):
    """A history entry that does not fit the tree (an unknown entity, a malformed entry)."""


class TreeEntity:
    """One entity: ``id``, ``card_id`` (``""`` when unknown to us) and ``tags``.

    ``entity[tag]`` reads a tag, 0 when absent (as the engine and hslog do).
    """

    __slots__ = ("card_id", "id", "tags")

    def __init__(self, entity_id: int, card_id: str, tags: dict[int, int]) -> None:
        self.id = entity_id
        self.card_id = card_id
        self.tags = tags

    def __getitem__(self, tag: int) -> int:
        return self.tags.get(tag, 0)

    @property
    def hidden(self) -> bool:
        return not self.card_id and self.id > 3

    def __repr__(self) -> str:
        return f"<TreeEntity {self.id} {self.card_id or '?'}>"


def _tag_dict(tags: Any) -> dict[int, int]:
    out: dict[int, int] = {}
    for tag in tags:
        out[int(tag["name"])] = int(tag["value"])
    return out


class EntityTree(Mapping[int, TreeEntity]):
    """Entity id -> ``TreeEntity``, kept up to date with ``apply``; a read-only mapping.

    Beside the mapping: ``player_of(entity)``, ``zone(player, zone)`` (ids in
    ZONE_POSITION order), ``hero(player)``, ``hero_power(player)``, ``board(player)``,
    ``hand(player)``, ``current_player``, and ``snapshot()`` (id -> (card id, tags)
    without zero-valued tags, comparable with the engine's ``entities()``).
    """

    def __init__(self) -> None:
        self._entities: dict[int, TreeEntity] = {}

    # -- Mapping -----------------------------------------------------------------------

    def __getitem__(self, entity_id: int) -> TreeEntity:
        return self._entities[entity_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._entities)

    def __len__(self) -> int:
        return len(self._entities)

    # -- updates -----------------------------------------------------------------------

    def apply(self, entries: Iterable[Mapping[str, Any]]) -> None:
        """Apply history entries in order; raises ``TreeError`` on one that does not fit."""
        for entry in entries:
            try:
                self._apply(entry)
            except TreeError:
                raise
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise TreeError(f"malformed history entry {_short(entry)}: {error!r}") from None

    def _apply(self, entry: Mapping[str, Any]) -> None:
        kind = str(entry["type"]).removeprefix(PREFIX)
        body: Any = entry.get(kind)
        if kind == "tag_change":
            self._known(body["entityID"]).tags[int(body["tag"])] = int(body["value"])
        elif kind == "power_block":
            self.apply(body["history"])
        elif kind == "full_entity":
            eid = int(body["entityID"])
            self._entities[eid] = TreeEntity(eid, str(body["name"]), _tag_dict(body["tags"]))
        elif kind in ("show_entity", "change_entity"):
            e = self._known(body["entityID"])
            e.card_id = str(body["name"])
            e.tags.update(_tag_dict(body["tags"]))
        elif kind == "hide_entity":
            e = self._known(body["entityID"])
            e.card_id = ""
            e.tags = {t: v for t, v in e.tags.items() if t in PUBLIC_OF_HIDDEN}
        elif kind == "create_game":
            game = body["game_entity"]
            self._entities[1] = TreeEntity(1, "", _tag_dict(game["tags"]))
            for player in body["players"]:
                entity = player["entity"]
                eid = int(entity["entityID"])
                self._entities[eid] = TreeEntity(eid, "", _tag_dict(entity["tags"]))
        # meta_data and anything unknown: no entity changes

    def _known(self, entity_id: Any) -> TreeEntity:
        e = self._entities.get(int(entity_id))
        if e is None:
            raise TreeError(f"history names entity {entity_id}, which was never created")
        return e

    # -- queries -----------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The PlayerID whose turn it is (0 before the first player is known)."""
        for eid in (2, 3):
            e = self._entities.get(eid)
            if e is not None and e[CURRENT_PLAYER]:
                return e[PLAYER_ID]
        return 0

    def player_of(self, entity_id: int) -> int:
        """The CONTROLLER (PlayerID) of an entity."""
        return self._entities[entity_id][CONTROLLER]

    def zone(self, player: int, zone: int) -> list[int]:
        """Ids of ``player``'s entities in ``zone``, by ZONE_POSITION then id."""
        ids = [e.id for e in self._entities.values()
               if e.id > 3 and e[ZONE] == zone and e[CONTROLLER] == player]
        return sorted(ids, key=lambda i: (self._entities[i][ZONE_POSITION], i))

    def hand(self, player: int) -> list[int]:
        return self.zone(player, Z_HAND)

    def board(self, player: int) -> list[int]:
        """``player``'s minions in play, left to right."""
        return [i for i in self.zone(player, Z_PLAY) if self._entities[i][CARDTYPE] == T_MINION]

    def hero(self, player: int) -> int:
        return self._first(player, T_HERO)

    def hero_power(self, player: int) -> int:
        return self._first(player, T_HERO_POWER)

    def _first(self, player: int, card_type: int) -> int:
        for e in self._entities.values():
            if e[CARDTYPE] == card_type and e[ZONE] == Z_PLAY and e[CONTROLLER] == player:
                return e.id
        return 0

    def snapshot(self) -> dict[int, tuple[str, dict[int, int]]]:
        """id -> (card id, tags without zeros): the engine's ``entities()`` shape."""
        return {i: (e.card_id, {t: v for t, v in e.tags.items() if v})
                for i, e in self._entities.items()}


def _short(entry: object) -> str:
    text = repr(entry)
    return text if len(text) <= 120 else text[:117] + "..."
