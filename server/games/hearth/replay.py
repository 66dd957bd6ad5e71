"""Hearth replays: a finished match's full history as Power.log text and HSReplay XML.

The full stream (`game.view(None)`, every card id) is written as the Power.log lines
HearthSim's `hslog` parses (numbers for tags and values), then `hsreplay` turns the parsed
log into an HSReplay document. Both files can be read back with the same tools
(`hslog.LogParser` / `hsreplay.document.HSReplayDocument.from_xml_file`). Runs in a worker
thread (`asyncio.to_thread`): parsing a whole game takes milliseconds.

A stored match keeps no HSReplay copy: its state events hold the observers' history, news
by news (`payload["public"]`), and `stored_hsreplay` writes the document from them when it
is asked for (stamped with the result event's time). Matches stored before that carry the
document in their result event, which is used as it is.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from server.rooms import MatchResult, Room

__all__ = ["hsreplay_xml", "power_log", "stored_hsreplay", "with_hsreplay",
           "write_hearth_replay"]

_PREFIX = "D {time} GameState.DebugPrintPower() - "
_ZONE = 49  # GameTag.ZONE


def power_log(history: Sequence[Mapping[str, Any]], when: datetime | None = None) -> str:
    """The history as Power.log text (every line stamped with `when`'s time of day).

    >>> text = power_log([{"type": "kettle:types/history/tag_change",
    ...                    "tag_change": {"entityID": 2, "tag": 26, "value": 4}}],
    ...                  datetime(2024, 1, 1, 12, tzinfo=UTC))
    >>> text
    'D 12:00:00.0000000 GameState.DebugPrintPower() - TAG_CHANGE Entity=2 tag=26 value=4\\n'
    """
    stamp = (when or datetime.now(UTC)).strftime("%H:%M:%S.%f") + "0"
    prefix = _PREFIX.format(time=stamp)
    lines: list[str] = []
    _lines(history, lines, "")
    return "".join(f"{prefix}{line}\n" for line in lines)


def _lines(history: Iterable[Mapping[str, Any]], out: list[str], pad: str) -> None:
    for item in history:
        kind = str(item["type"]).rsplit("/", 1)[1]
        body = item[kind]
        if kind == "create_game":
            out.append(f"{pad}CREATE_GAME")
            game = body["game_entity"]
            out.append(f"{pad}    GameEntity EntityID={game['entityID']}")
            _tags(game["tags"], out, pad + "        ")
            for player in body["players"]:
                entity = player["entity"]
                out.append(f"{pad}    Player EntityID={entity['entityID']} "
                           f"PlayerID={player['playerID']} "
                           f"GameAccountId=[hi=0 lo={player.get('game_accountID', 0)}]")
                _tags(entity["tags"], out, pad + "        ")
        elif kind in ("full_entity", "show_entity", "change_entity"):
            head = {"full_entity": "FULL_ENTITY - Creating ID",
                    "show_entity": "SHOW_ENTITY - Updating Entity",
                    "change_entity": "CHANGE_ENTITY - Updating Entity"}[kind]
            out.append(f"{pad}{head}={body['entityID']} CardID={body['name']}")
            _tags(body["tags"], out, pad + "    ")
        elif kind == "hide_entity":
            out.append(f"{pad}HIDE_ENTITY - Entity={body['entityID']} tag={_ZONE} "
                       f"value={body['zone']}")
        elif kind == "tag_change":
            out.append(f"{pad}TAG_CHANGE Entity={body['entityID']} tag={body['tag']} "
                       f"value={body['value']}")
        elif kind == "meta_data":
            info = body.get("info", [])
            out.append(f"{pad}META_DATA - Meta={body['type']} Data={body.get('data', 0)} "
                       f"InfoCount={len(info)}")
            out.extend(f"{pad}    Info[{i}] = {entity}" for i, entity in enumerate(info))
        elif kind == "power_block":
            out.append(f"{pad}BLOCK_START BlockType={body['power_type']} "
                       f"Entity={body['entityID']} EffectCardId={body.get('cardID') or ''} "
                       f"EffectIndex={body.get('effect_index', -1)} "
                       f"Target={body.get('entity_target', 0)} SubOption=-1")
            _lines(body["history"], out, pad + "    ")
            out.append(f"{pad}BLOCK_END")


def _tags(tags: Iterable[Mapping[str, int]], out: list[str], pad: str) -> None:
    out.extend(f"{pad}tag={tag['name']} value={tag['value']}" for tag in tags)


def hsreplay_xml(text: str, when: datetime) -> str:
    """The HSReplay document of a Power.log `text` (as `power_log` writes it)."""
    from hsreplay.document import HSReplayDocument
    from hsreplay.dumper import parse_log

    parser = parse_log(io.StringIO(text), "GameState", when)
    try:
        xml: str = HSReplayDocument.from_parser(parser).to_xml(pretty=True)
    finally:
        _release(parser.games)
    return xml


def _release(packets: Iterable[Any]) -> None:
    """Empty hslog's packet lists: its blocks refer back to their packet tree, so a game's
    thousand-odd packets would otherwise wait for the cyclic garbage collector (whose
    passes over them, 200 Hearth matches at a time, paused the server for hundreds of
    milliseconds in `make soak`)."""
    for packet in packets:
        children = getattr(packet, "packets", None)
        if isinstance(children, list):
            _release(children)
            children.clear()


def write_hearth_replay(room: Room, result: MatchResult, directory: Path) -> tuple[Path, Path]:
    """Write `<room id>.power.log` and `<room id>.hsreplay.xml`; returns both paths."""
    directory.mkdir(parents=True, exist_ok=True)
    when = datetime.now(UTC)
    text = power_log(room.game.view(None).history, when)
    log_path = directory / f"{room.id}.power.log"
    log_path.write_text(text, encoding="utf-8")
    xml_path = directory / f"{room.id}.hsreplay.xml"
    xml_path.write_text(hsreplay_xml(text, when), encoding="utf-8")
    return log_path, xml_path


# --- stored matches ----------------------------------------------------------------------

_CACHE: OrderedDict[tuple[str, int, str], str] = OrderedDict()
_CACHE_SIZE = 16  # a document is built in about 50 ms; a client may ask for it repeatedly
_CACHE_LOCK = threading.Lock()


def stored_history(events: Iterable[Any]) -> list[Mapping[str, Any]]:
    """The full history of a stored match: its state events' observer news, in order."""
    history: list[Mapping[str, Any]] = []
    for event in events:
        payload = event.payload
        if event.kind == "state" and isinstance(payload, dict) and payload.get("observers"):
            history.extend(payload.get("public") or ())
    return history


def stored_hsreplay(events: Sequence[Any]) -> str | None:
    """The HSReplay document of a stored match (all its events, `Store.events_since`), as
    it was made when the match ended: from its history, at its result event's time. None
    for a match without a result event (or without any history)."""
    result = next((e for e in reversed(events) if e.kind == "result"), None)
    if result is None:
        return None
    payload = result.payload if isinstance(result.payload, dict) else {}
    if isinstance(payload.get("hsreplay"), str):  # stored so by an earlier version
        return str(payload["hsreplay"])
    key = (str(result.match_id), int(result.seq), result.time.isoformat())
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    history = stored_history(events)
    if not history:
        return None
    when = result.time
    document = hsreplay_xml(power_log(history, when), when)
    with _CACHE_LOCK:
        _CACHE[key] = document
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return document


def stored_power_log(match_id: str, events: Sequence[Any]) -> str | None:
    """The Power.log text of a stored match, as `write_hearth_replay` wrote it when the
    match ended (at its result event's time); None without a result or a history."""
    result = next((e for e in reversed(events) if e.kind == "result"), None)
    history = stored_history(events) if result is not None else []
    if result is None or not history:
        return None
    return power_log(history, result.time)


def stored_hsreplay_document(match_id: str, events: Sequence[Any]) -> str | None:
    """`stored_hsreplay` as a replay format's export (`server.games.registry.ReplayFormat`)."""
    return stored_hsreplay(events)


def with_hsreplay(events: list[Any], whole: Callable[[], Sequence[Any]]) -> list[Any]:
    """`events` (a slice of a stored match's log) with the HSReplay document in the
    result event's payload, as the result events of earlier versions held it. `whole()`:
    every event of the match (read only when the slice holds a result without one)."""
    for i, event in enumerate(events):
        payload = event.payload
        if event.kind != "result" or not isinstance(payload, dict) or "hsreplay" in payload:
            continue
        document = stored_hsreplay(whole())
        if document is not None:
            events[i] = event.model_copy(update={"payload": {**payload,
                                                             "hsreplay": document}})
    return events
