"""Kettle game history -> hslog: the independent check that our history means what we think.

Kettle history (seed 000, kettle.md "The dialect Gauntlet speaks") is a flat list of dicts
`{"type": "kettle:types/history/<name>", "<name>": {...}}`. This module turns such a list
into HearthSim's own model and lets hslog (`EntityTreeExporter`) replay it, two ways:

* `to_packet_tree(history)` builds hslog packets directly (kettle.md §5.3);
* `to_power_log(history)` writes Power.log text and `parse_power_log(text)` reads it back
  with `hslog.LogParser`, the stronger check that the history can be logged at all
  (kettle.md §5.1: hslog drops negative values and non-word card ids, so we refuse them).

`export_game(history)` / `export_game_via_log(history)` return the replayed
`hearthstone.entities.Game`; `compare_entities(game, expected)` lists every difference
against an expected {entity id: (card id or None, {tag: value})} mapping, readably.

    >>> history = [
    ...     {"type": "kettle:types/history/create_game", "create_game": {
    ...         "game_entity": {"entityID": 1, "tags": [{"name": 204, "value": 2}]},
    ...         "players": [
    ...             {"playerID": 1, "entity": {"entityID": 2, "tags": []}},
    ...             {"playerID": 2, "entity": {"entityID": 3, "tags": []}}]}},
    ...     {"type": "kettle:types/history/full_entity", "full_entity": {
    ...         "entityID": 4, "name": "CS2_182",
    ...         "tags": [{"name": 49, "value": 3}, {"name": 50, "value": 1}]}},
    ...     {"type": "kettle:types/history/tag_change", "tag_change": {
    ...         "entityID": 4, "tag": 49, "value": 1}},
    ... ]
    >>> game = export_game(history)
    >>> compare_entities(game, {4: ("CS2_182", {GameTag.ZONE: Zone.PLAY})})
    []
    >>> compare_entities(game, {4: ("CS2_182", {GameTag.ZONE: Zone.HAND})})
    ['entity 4 (CS2_182): ZONE is PLAY (1), expected HAND (3)']

Accepted shapes (checked strictly, every violation is a `HistoryError` naming the path of
the offending item, e.g. `history[3].power_block.history[0].tag_change.value`):

* `create_game` exactly once, first: `game_entity` is the game's entity
  `{"entityID": 1, "tags": [...]}` (a bare 1 is accepted too, with the tags, if any, in
  `create_game.tags`); `players` is a list of `{"playerID": int, "entity": {"entityID",
  "tags"}}` with optional `game_accountID` (int, or `{"hi", "lo"}`) and `card_back`.
* `full_entity`, `show_entity`, `change_entity`: `entityID`, `name` (card id; "" = hidden,
  allowed for `full_entity` only), `tags` = list of `{"name": GameTag int, "value": int}`.
* `hide_entity`: `entityID`, `zone`; `tag_change`: `entityID`, `tag`, `value`.
* `power_block`: `power_type` (BlockType int), `entityID`, optional `cardID`,
  `effect_index`, `entity_target`, and the nested list under `history`. Inside a block any
  item but `create_game` is accepted: the seed lists full_entity, tag_change, meta_data and
  power_block, but real logs (and SabberStone) reveal drawn cards with SHOW_ENTITY inside
  blocks, so show/hide/change_entity are accepted there as well.
* `meta_data`: `type` (MetaDataType int), optional `data` (int), `info` (list of ids).

What hslog does with each item (kettle.md §3, `hslog.export.EntityTreeExporter`):
`show_entity` sets the card id and merges the tags; `change_entity` swaps the card id and
merges the tags (and fails on an entity whose card id was never known); `hide_entity` only
marks the entity unrevealed: it keeps the card id and ignores the zone, so a history must
move the entity with a ZONE `tag_change` as real logs do; `meta_data` changes nothing.

CONTROLLER values must be PlayerIDs of create_game (kettle.md §2.1/§3: fireplace's
Kettle wrote the player's entity id there, which hslog silently mis-attributes).
Entity references are checked as hslog would: an operation on an entity that was never
created, or a second `full_entity` for an existing id, is an error.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from typing import Any

from hearthstone.entities import Card, Entity, Game
from hearthstone.enums import TAG_TYPES, BlockType, GameTag, MetaDataType, Zone
from hslog import LogParser
from hslog import packets as P
from hslog.export import EntityTreeExporter

__all__ = [
    "HistoryError",
    "compare_entities",
    "compare_trees",
    "entity_snapshot",
    "export_game",
    "export_game_via_log",
    "export_tree",
    "parse_power_log",
    "to_packet_tree",
    "to_power_log",
]

PREFIX = "kettle:types/history/"
TOP_LEVEL_KINDS = frozenset(
    {
        "create_game",
        "full_entity",
        "show_entity",
        "change_entity",
        "hide_entity",
        "tag_change",
        "power_block",
        "meta_data",
    }
)
BLOCK_KINDS = TOP_LEVEL_KINDS - {"create_game"}

# Limits: a bad or hostile history fails fast instead of eating the machine.
MAX_ITEMS = 2_000_000
MAX_DEPTH = 64
MAX_TAGS = 1_000
MAX_INFO = 1_000
MAX_ENTITY_ID = 1 << 31
MAX_CARD_ID_LEN = 64
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1

BLOCK_TYPES = frozenset(int(v) for v in BlockType)
META_TYPES = frozenset(int(v) for v in MetaDataType)
ZONES = frozenset(int(v) for v in Zone)
CARD_ID_RE = re.compile(r"\w*\Z", re.ASCII)
TIMESTAMP = datetime(2026, 1, 1)
LOG_PREFIX = "D 00:00:00.0000000 GameState.DebugPrintPower() - "


class HistoryError(ValueError):
    """The history is malformed, or hslog refuses it; the message names the item."""


# --------------------------------------------------------------------------------------
# Validation: history dicts -> a small typed tree (shared by both output paths)


@dataclass(frozen=True, slots=True)
class _Entity:
    entity_id: int
    card_id: str
    tags: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class _PlayerItem:
    player_id: int
    hi: int
    lo: int
    entity: _Entity


@dataclass(frozen=True, slots=True)
class _Item:
    kind: str
    path: str
    entity: _Entity | None = None  # create_game (game), full/show/change_entity
    players: tuple[_PlayerItem, ...] = ()
    entity_id: int = 0  # hide_entity, tag_change, power_block
    tag: int = 0
    value: int = 0  # tag_change value, hide_entity zone
    block_type: int = 0
    card_id: str = ""
    effect_index: int = -1
    target: int = 0
    meta_type: int = 0
    data: int = 0
    info: tuple[int, ...] = ()
    children: tuple[_Item, ...] = ()


class _Reader:
    def __init__(self) -> None:
        self.count = 0
        self.known: set[int] = set()
        self.player_ids: set[int] = set()

    def history(self, items: Any, path: str, depth: int) -> tuple[_Item, ...]:
        if not isinstance(items, list):
            raise HistoryError(f"{path}: expected a list of history items, got {_kind(items)}")
        if depth > MAX_DEPTH:
            raise HistoryError(f"{path}: power blocks nested deeper than {MAX_DEPTH}")
        out = []
        for index, raw in enumerate(items):
            self.count += 1
            if self.count > MAX_ITEMS:
                raise HistoryError(f"{path}: more than {MAX_ITEMS} history items")
            out.append(self.item(raw, f"{path}[{index}]", depth, first=depth == 0 and index == 0))
        return tuple(out)

    def item(self, raw: Any, path: str, depth: int, first: bool) -> _Item:
        if not isinstance(raw, Mapping):
            raise HistoryError(f"{path}: expected a history object, got {_kind(raw)}")
        type_name = raw.get("type")
        if not isinstance(type_name, str) or not type_name.startswith(PREFIX):
            raise HistoryError(f"{path}.type: expected '{PREFIX}<name>', got {type_name!r:.80}")
        kind = type_name[len(PREFIX) :]
        allowed = TOP_LEVEL_KINDS if depth == 0 else BLOCK_KINDS
        if kind not in allowed:
            where = "at top level" if depth == 0 else "inside a power_block"
            raise HistoryError(f"{path}.type: {kind!r:.80} is not a history item allowed {where}")
        if depth == 0 and first and kind != "create_game":
            raise HistoryError(f"{path}: a history must start with create_game, got {kind}")
        if depth == 0 and not first and kind == "create_game":
            raise HistoryError(f"{path}: create_game is allowed once, as the first item")
        body = raw.get(kind)
        if not isinstance(body, Mapping):
            raise HistoryError(f"{path}.{kind}: expected an object, got {_kind(body)}")
        path = f"{path}.{kind}"
        return getattr(self, kind)(body, path, depth)

    # one method per history item kind

    def create_game(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        raw_players = body.get("players")
        if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= 8:
            raise HistoryError(f"{path}.players: expected a list of 2 to 8 players")
        # PlayerIDs first: every CONTROLLER value, the players' own included, must be one.
        for index, raw in enumerate(raw_players):
            ppath = f"{path}.players[{index}]"
            if not isinstance(raw, Mapping):
                raise HistoryError(f"{ppath}: expected a player object, got {_kind(raw)}")
            player_id = _int(raw.get("playerID"), f"{ppath}.playerID", 1, 64)
            if player_id in self.player_ids:
                raise HistoryError(f"{ppath}.playerID: duplicate player id {player_id}")
            self.player_ids.add(player_id)
        raw_game = body.get("game_entity")
        if isinstance(raw_game, Mapping):
            game = self.entity(raw_game, f"{path}.game_entity", hidden_ok=True, name_key=None)
        else:
            game_id = _int(raw_game, f"{path}.game_entity", 1, MAX_ENTITY_ID)
            tags = self.tags(body.get("tags", []), f"{path}.tags")
            game = _Entity(game_id, "", tags)
        if game.entity_id != 1:
            raise HistoryError(f"{path}.game_entity: the game entity is 1, got {game.entity_id}")
        self.known.add(game.entity_id)
        players = []
        for index, raw in enumerate(raw_players):
            ppath = f"{path}.players[{index}]"
            player_id = raw["playerID"]
            hi, lo = self.account(raw.get("game_accountID"), f"{ppath}.game_accountID", player_id)
            entity = self.entity(
                raw.get("entity"), f"{ppath}.entity", hidden_ok=True, name_key=None
            )
            self.create(entity.entity_id, f"{ppath}.entity.entityID")
            players.append(_PlayerItem(player_id, hi, lo, entity))
        return _Item("create_game", path, entity=game, players=tuple(players))

    def full_entity(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        entity = self.entity(body, path, hidden_ok=True)
        self.create(entity.entity_id, f"{path}.entityID")
        return _Item("full_entity", path, entity=entity)

    def show_entity(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        entity = self.entity(body, path, hidden_ok=False)
        self.need(entity.entity_id, f"{path}.entityID")
        return _Item("show_entity", path, entity=entity)

    def change_entity(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        entity = self.entity(body, path, hidden_ok=False)
        self.need(entity.entity_id, f"{path}.entityID")
        return _Item("change_entity", path, entity=entity)

    def hide_entity(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        entity_id = self.need(_int(body.get("entityID"), f"{path}.entityID"), f"{path}.entityID")
        zone = _int(body.get("zone"), f"{path}.zone", 0, 255)
        if zone not in ZONES:
            raise HistoryError(f"{path}.zone: {zone} is not a Zone")
        return _Item("hide_entity", path, entity_id=entity_id, value=zone)

    def tag_change(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        entity_id = self.need(_int(body.get("entityID"), f"{path}.entityID"), f"{path}.entityID")
        tag = _int(body.get("tag"), f"{path}.tag", 1, INT32_MAX)
        value = _int(body.get("value"), f"{path}.value", INT32_MIN, INT32_MAX)
        self.check_controller(tag, value, f"{path}.value")
        return _Item("tag_change", path, entity_id=entity_id, tag=tag, value=value)

    def power_block(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        block_type = _int(body.get("power_type"), f"{path}.power_type", 0, 255)
        if block_type not in BLOCK_TYPES:
            raise HistoryError(f"{path}.power_type: {block_type} is not a BlockType")
        entity_id = self.need(_int(body.get("entityID"), f"{path}.entityID"), f"{path}.entityID")
        card_id = self.card_id(body.get("cardID", ""), f"{path}.cardID")
        effect_index = _int(body.get("effect_index", -1), f"{path}.effect_index", -1, INT32_MAX)
        target = _int(body.get("entity_target", 0), f"{path}.entity_target", 0)
        if target:
            self.need(target, f"{path}.entity_target")
        children = self.history(body.get("history", []), f"{path}.history", depth + 1)
        return _Item(
            "power_block",
            path,
            entity_id=entity_id,
            block_type=block_type,
            card_id=card_id,
            effect_index=effect_index,
            target=target,
            children=children,
        )

    def meta_data(self, body: Mapping[str, Any], path: str, depth: int) -> _Item:
        meta_type = _int(body.get("type", 0), f"{path}.type", 0, 255)
        if meta_type not in META_TYPES:
            raise HistoryError(f"{path}.type: {meta_type} is not a MetaDataType")
        data = _int(body.get("data", 0), f"{path}.data", INT32_MIN, INT32_MAX)
        raw_info = body.get("info", [])
        if not isinstance(raw_info, list) or len(raw_info) > MAX_INFO:
            raise HistoryError(f"{path}.info: expected a list of at most {MAX_INFO} entity ids")
        info = tuple(
            self.need(_int(e, f"{path}.info[{i}]"), f"{path}.info[{i}]")
            for i, e in enumerate(raw_info)
        )
        return _Item("meta_data", path, meta_type=meta_type, data=data, info=info)

    # pieces

    def entity(
        self, raw: Any, path: str, hidden_ok: bool, name_key: str | None = "name"
    ) -> _Entity:
        if not isinstance(raw, Mapping):
            raise HistoryError(f"{path}: expected an entity object, got {_kind(raw)}")
        entity_id = _int(raw.get("entityID"), f"{path}.entityID")
        card_id = ""
        if name_key is not None:
            if name_key not in raw:
                raise HistoryError(f'{path}.{name_key}: missing (use "" for a hidden entity)')
            card_id = self.card_id(raw[name_key], f"{path}.{name_key}")
            if not card_id and not hidden_ok:
                raise HistoryError(f'{path}.{name_key}: a card id is required here, got ""')
        if "tags" not in raw:
            raise HistoryError(f"{path}.tags: missing")
        return _Entity(entity_id, card_id, self.tags(raw["tags"], f"{path}.tags"))

    def tags(self, raw: Any, path: str) -> tuple[tuple[int, int], ...]:
        if not isinstance(raw, list) or len(raw) > MAX_TAGS:
            raise HistoryError(f"{path}: expected a list of at most {MAX_TAGS} tags")
        out = []
        for index, item in enumerate(raw):
            if not isinstance(item, Mapping):
                raise HistoryError(f'{path}[{index}]: expected {{"name", "value"}}')
            tag = _int(item.get("name"), f"{path}[{index}].name", 1, INT32_MAX)
            value = _int(item.get("value"), f"{path}[{index}].value", INT32_MIN, INT32_MAX)
            self.check_controller(tag, value, f"{path}[{index}].value")
            out.append((tag, value))
        return tuple(out)

    @staticmethod
    def card_id(raw: Any, path: str) -> str:
        if not isinstance(raw, str) or len(raw) > MAX_CARD_ID_LEN or not CARD_ID_RE.match(raw):
            raise HistoryError(f"{path}: expected a card id (letters, digits, _), got {raw!r:.80}")
        return raw

    @staticmethod
    def account(raw: Any, path: str, player_id: int) -> tuple[int, int]:
        if raw is None:
            return 0, player_id
        if isinstance(raw, Mapping):
            return _int(raw.get("hi", 0), f"{path}.hi", 0), _int(raw.get("lo", 0), f"{path}.lo", 0)
        return 0, _int(raw, path, 0, (1 << 63) - 1)

    def check_controller(self, tag: int, value: int, path: str) -> None:
        # kettle.md §2.1: fireplace's Kettle put the player's *entity* id (2|3) here;
        # hslog and real logs expect the PlayerID, else `entity.controller` is wrong.
        if tag == GameTag.CONTROLLER and value and value not in self.player_ids:
            raise HistoryError(
                f"{path}: CONTROLLER must be a PlayerID {sorted(self.player_ids)}, got {value}"
            )

    def create(self, entity_id: int, path: str) -> None:
        if entity_id in self.known:
            raise HistoryError(f"{path}: entity {entity_id} already exists")
        self.known.add(entity_id)

    def need(self, entity_id: int, path: str) -> int:
        if entity_id not in self.known:
            raise HistoryError(f"{path}: entity {entity_id} was never created")
        return entity_id


def _int(raw: Any, path: str, low: int = 1, high: int = MAX_ENTITY_ID) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise HistoryError(f"{path}: expected an integer, got {_kind(raw)}")
    if not low <= raw <= high:
        raise HistoryError(f"{path}: {raw} is out of range [{low}, {high}]")
    return raw


def _kind(raw: Any) -> str:
    return "nothing" if raw is None else f"{type(raw).__name__} {raw!r:.60}"


def _read(history: Any) -> tuple[_Item, ...]:
    items = _Reader().history(history, "history", 0)
    if not items:
        raise HistoryError("history: empty (it must start with create_game)")
    return items


# --------------------------------------------------------------------------------------
# Path 1: hslog packets directly


def to_packet_tree(history: Sequence[Mapping[str, Any]]) -> P.PacketTree:
    """Builds the hslog `PacketTree` of a Kettle history (raises `HistoryError`)."""
    tree = P.PacketTree(TIMESTAMP)
    tree.packets.extend(_packet(item) for item in _read(history))
    return tree


def _packet(item: _Item) -> P.Packet:
    ts = TIMESTAMP
    if item.kind == "create_game":
        assert item.entity is not None
        packet = P.CreateGame(ts, item.entity.entity_id)
        packet.tags = list(item.entity.tags)
        for player in item.players:
            pp = P.CreateGame.Player(
                ts, player.entity.entity_id, player.player_id, player.hi, player.lo
            )
            pp.tags = list(player.entity.tags)
            packet.players.append(pp)
        return packet
    if item.kind in ("full_entity", "show_entity", "change_entity"):
        assert item.entity is not None
        cls = {"full_entity": P.FullEntity, "show_entity": P.ShowEntity}.get(
            item.kind, P.ChangeEntity
        )
        # hslog's own parser leaves a hidden card's id as None, not "".
        packet = cls(ts, item.entity.entity_id, item.entity.card_id or None)
        packet.tags = list(item.entity.tags)
        return packet
    if item.kind == "hide_entity":
        return P.HideEntity(ts, item.entity_id, item.value)
    if item.kind == "tag_change":
        return P.TagChange(ts, item.entity_id, item.tag, item.value)
    if item.kind == "meta_data":
        meta = P.MetaData(ts, item.meta_type, item.data, len(item.info))
        meta.info = list(item.info)
        return meta
    block = P.Block(
        ts,
        item.entity_id,
        item.block_type,
        -1,
        item.card_id,
        item.effect_index,
        item.target,
        -1,
        None,
    )
    block.packets.extend(_packet(child) for child in item.children)
    block.end()
    return block


def export_tree(tree: P.PacketTree) -> Game:
    """Replays a packet tree with hslog's `EntityTreeExporter`; hslog errors become ours."""
    try:
        game = EntityTreeExporter(tree).export().game
    except Exception as exc:  # hslog raises several unrelated types
        raise HistoryError(f"hslog refused the history: {type(exc).__name__}: {exc}") from exc
    if game is None:
        raise HistoryError("hslog found no game in the history")
    return game


def export_game(history: Sequence[Mapping[str, Any]]) -> Game:
    """Kettle history -> hslog packets -> the exported `hearthstone.entities.Game`."""
    return export_tree(to_packet_tree(history))


# --------------------------------------------------------------------------------------
# Path 2: Power.log text, parsed by hslog.LogParser


def to_power_log(history: Sequence[Mapping[str, Any]]) -> str:
    """Writes the history as Power.log text that `hslog.LogParser` reads (kettle.md §5.1).

    Tags and values are written as numbers (hslog accepts them for every tag). Negative
    values cannot be logged (hslog's `\\w+` drops them with a warning), so they are refused.
    """
    out: list[str] = []
    for item in _read(history):
        _log_item(item, out, 0)
    return "".join(f"{LOG_PREFIX}{line}\n" for line in out)


def _log_item(item: _Item, out: list[str], depth: int) -> None:
    pad = "    " * depth
    if item.kind == "create_game":
        assert item.entity is not None
        out.append(f"{pad}CREATE_GAME")
        out.append(f"{pad}    GameEntity EntityID={item.entity.entity_id}")
        _log_tags(item.entity.tags, out, pad + "        ", item.path)
        for player in item.players:
            out.append(
                f"{pad}    Player EntityID={player.entity.entity_id} PlayerID={player.player_id} "
                f"GameAccountId=[hi={player.hi} lo={player.lo}]"
            )
            _log_tags(player.entity.tags, out, pad + "        ", item.path)
    elif item.kind in ("full_entity", "show_entity", "change_entity"):
        assert item.entity is not None
        e = item.entity
        head = {
            "full_entity": f"FULL_ENTITY - Creating ID={e.entity_id} CardID={e.card_id}",
            "show_entity": f"SHOW_ENTITY - Updating Entity={e.entity_id} CardID={e.card_id}",
            "change_entity": f"CHANGE_ENTITY - Updating Entity={e.entity_id} CardID={e.card_id}",
        }[item.kind]
        out.append(pad + head)
        _log_tags(e.tags, out, pad + "    ", item.path)
    elif item.kind == "hide_entity":
        out.append(
            f"{pad}HIDE_ENTITY - Entity={item.entity_id} tag={int(GameTag.ZONE)} value={item.value}"
        )
    elif item.kind == "tag_change":
        _loggable(item.value, item.path)
        out.append(f"{pad}TAG_CHANGE Entity={item.entity_id} tag={item.tag} value={item.value}")
    elif item.kind == "meta_data":
        out.append(
            f"{pad}META_DATA - Meta={item.meta_type} Data={item.data} InfoCount={len(item.info)}"
        )
        out.extend(f"{pad}    Info[{i}] = {e}" for i, e in enumerate(item.info))
    else:
        out.append(
            f"{pad}BLOCK_START BlockType={item.block_type} Entity={item.entity_id} "
            f"EffectCardId={item.card_id} EffectIndex={item.effect_index} "
            f"Target={item.target} SubOption=-1"
        )
        for child in item.children:
            _log_item(child, out, depth + 1)
        out.append(f"{pad}BLOCK_END")


def _log_tags(tags: Iterable[tuple[int, int]], out: list[str], pad: str, path: str) -> None:
    for tag, value in tags:
        _loggable(value, path)
        out.append(f"{pad}tag={tag} value={value}")


def _loggable(value: int, path: str) -> None:
    if value < 0:
        raise HistoryError(f"{path}: negative value {value} cannot be written to Power.log")


def parse_power_log(text: str) -> P.PacketTree:
    """Parses Power.log text with `hslog.LogParser`; exactly one game is expected."""
    parser = LogParser()
    try:
        parser.read(io.StringIO(text))
        parser.flush()
    except Exception as exc:
        raise HistoryError(f"hslog could not parse the log: {type(exc).__name__}: {exc}") from exc
    if len(parser.games) != 1:
        raise HistoryError(f"expected one game in the log, hslog found {len(parser.games)}")
    return parser.games[0]


def export_game_via_log(history: Sequence[Mapping[str, Any]]) -> Game:
    """Kettle history -> Power.log text -> `hslog.LogParser` -> the exported `Game`."""
    return export_tree(parse_power_log(to_power_log(history)))


# --------------------------------------------------------------------------------------
# Comparing


Expected = Mapping[int, tuple[str | None, Mapping[int, int]]]


def compare_entities(game: Game, expected: Expected) -> list[str]:
    """Differences between an exported game and {id: (card id or None, {tag: value})}.

    A card id of None means "hidden": the exported entity must have no card id. A tag the
    exported entity lacks counts as 0 (the game's default), so expecting 0 for an absent
    tag is no difference. Entities the mapping does not name are not checked.
    """
    problems: list[str] = []
    for entity_id in sorted(expected):
        card_id, tags = expected[entity_id]
        entity = game.find_entity_by_id(entity_id)
        if entity is None:
            problems.append(f"entity {entity_id}: missing from the exported game")
            continue
        label = _label(entity)
        if isinstance(entity, Card) and (entity.card_id or None) != (card_id or None):
            problems.append(
                f"entity {entity_id}: card id is {entity.card_id!r}, expected {card_id!r}"
            )
        for tag in sorted(tags):
            want = tags[tag]
            got = entity.tags.get(tag, 0)
            if got != want:
                name = _tag_name(tag)
                problems.append(
                    f"entity {label}: {name} is {_value_name(tag, got)}, "
                    f"expected {_value_name(tag, want)}"
                )
    return problems


def entity_snapshot(
    game: Game, tags: Iterable[int] | None = None
) -> dict[int, tuple[str | None, dict[int, int]]]:
    """{id: (card id or None, {tag: value})} of every exported entity (all tags, or `tags`)."""
    wanted = None if tags is None else list(tags)
    snapshot: dict[int, tuple[str | None, dict[int, int]]] = {}
    for entity in game.entities:
        card_id = (entity.card_id or None) if isinstance(entity, Card) else None
        own = {int(t): int(v) for t, v in entity.tags.items()}
        if wanted is not None:
            own = {t: own.get(t, 0) for t in wanted}
        snapshot[entity.id] = (card_id, own)
    return snapshot


def compare_trees(ours: P.PacketTree, theirs: P.PacketTree) -> list[str]:
    """Packet-by-packet differences of two trees (e.g. built directly vs parsed from text).

    Compares kind, nesting depth, entity, card id, tags and block fields; returns at most
    a few differences, the first one being the one to look at.
    """
    a, b = list(_shape(ours.packets, 0)), list(_shape(theirs.packets, 0))
    problems = [
        f"packet {i}: {x} != {y}" for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y
    ]
    if len(a) != len(b):
        problems.append(f"packet counts differ: {len(a)} != {len(b)}")
    return problems[:5]


def _shape(packets: Iterable[P.Packet], depth: int) -> Iterable[tuple[Any, ...]]:
    for p in packets:
        name = type(p).__name__
        if isinstance(p, P.CreateGame):
            yield depth, name, int(p.entity), _tag_tuple(p.tags)
            for player in p.players:
                entity_id = getattr(player.entity, "entity_id", player.entity)
                yield depth, "Player", int(entity_id), player.player_id, _tag_tuple(player.tags)
        elif isinstance(p, P.FullEntity | P.ShowEntity | P.ChangeEntity):
            yield depth, name, int(p.entity), p.card_id or None, _tag_tuple(p.tags)
        elif isinstance(p, P.HideEntity):
            yield depth, name, int(p.entity), int(p.zone)
        elif isinstance(p, P.TagChange):
            yield depth, name, int(p.entity), int(p.tag), int(p.value)
        elif isinstance(p, P.MetaData):
            yield depth, name, int(p.meta), tuple(int(i) for i in p.info)
        elif isinstance(p, P.Block):
            yield (
                depth,
                name,
                int(p.entity),
                int(p.type),
                p.effectid or "",
                int(p.effectindex),
                int(p.target or 0),
            )
            yield from _shape(p.packets, depth + 1)
        else:
            yield depth, name


def _tag_tuple(tags: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(t), int(v)) for t, v in tags)


def _label(entity: Entity) -> str:
    card_id = getattr(entity, "card_id", None)
    return f"{entity.id} ({card_id})" if card_id else str(entity.id)


def _tag_name(tag: int) -> str:
    try:
        return GameTag(tag).name
    except ValueError:
        return f"tag {tag}"


def _value_name(tag: int, value: int) -> str:
    enum = TAG_TYPES.get(tag)  # type: ignore[call-overload]
    # TAG_TYPES also holds plain markers (Type.BOOL, Type.LOCSTRING) next to enum classes.
    if isinstance(enum, type) and issubclass(enum, IntEnum):
        try:
            return f"{enum(value).name} ({value})"
        except ValueError:
            pass
    return str(value)


def main(argv: Sequence[str] | None = None) -> None:
    """Writes the Power.log of one random game, for a look with hslog or other tools::

    .venv/bin/python tests/hearth/hslog_bridge.py --seed 3 --viewer 1 > Power.log
    """
    import argparse
    import random
    import sys

    from games import hearth

    parser = argparse.ArgumentParser(description="Power.log of a uniformly random game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--viewer", type=int, choices=(1, 2), help="a player's stream")
    args = parser.parse_args(argv)
    state = hearth.new_game(seed=args.seed, history=True)
    rng = random.Random(args.seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    sys.stdout.write(to_power_log(state.history(args.viewer)))


if __name__ == "__main__":
    main()
