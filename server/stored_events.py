"""A room's log entries as stored events: what the recorder hands the store writer.

Runs on the writer thread (`StoreWriter.append_rendered`): the entries' states are clones
nobody mutates. Each entry becomes plain JSON (its audience, a summary, an SC game's XML
packets, a recorded state's compact record: `GamePlugin.recording`) with the spectators'
frame of an observer entry beside it; the store's readers (spectating, replays, the events
API) read these payloads back.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import logging
from datetime import UTC, datetime
from typing import Any

from server.games.registry import Recording
from server.rooms import (
    DecisionRequested,
    Entry,
    GameOver,
    MoveRejected,
    PauseChanged,
    Room,
    RoomClosed,
    RoomEvent,
    StateChanged,
    Welcome,
)
from server.spectate.frames import Frame
from server.store import JSONText, NewEvent, encode_json

__all__ = ["entry_payload", "record_of", "recorded", "sc_packets", "to_events"]

log = logging.getLogger(__name__)

_KINDS: dict[type, str] = {
    Welcome: "welcome", StateChanged: "state", DecisionRequested: "decision",
    MoveRejected: "rejected", PauseChanged: "pause", GameOver: "result", RoomClosed: "closed",
}


def to_events(room: Room, sc: bool, entries: list[Entry],
               frames: dict[int, Frame] | None = None,
               extra: tuple[int, dict[str, Any]] | None = None) -> list[NewEvent]:
    """Runs on the writer thread: the entries' states are clones nobody mutates, and each
    observer entry's spectator frame (`server.spectate.frames`, plain dicts rendered when
    the entry was logged) is stored beside its payload: replays read it back. `extra`:
    (seq, fields merged into that entry's payload) of the result event. (A Hearth match's
    HSReplay document is not stored: `server.games.hearth.replay.stored_hsreplay` builds it
    from the events' history when it is read.)
    Each event's time is its entry's, when the room logged it (not the batch's: the
    writer stores many entries at once)."""
    frames = frames or {}
    events = []
    stamp = _stamp
    for e in entries:
        now = stamp(int(e.at * 1000))
        event = e.event
        if type(event) is DecisionRequested and e.seq not in frames:
            # Every move has one; its payload is one of a few texts (see _decision_text).
            text = _decision_text(e.seats, e.observers, event.seat)
            events.append(NewEvent(room.id, e.seq, "decision", text, now))
            continue
        frame = frames.get(e.seq)
        found = record_of(event, room) if frame is None and (
            extra is None or e.seq != extra[0]) else None
        if found is not None:
            # Every move has one too: the payload `entry_payload` makes, written directly.
            key, record = found
            prefix = _state_prefix(e.seats, e.observers, e.to_players, key)
            events.append(NewEvent(room.id, e.seq, "state", JSONText(f"{prefix}{record}}}"),
                                   now))
            continue
        payload = entry_payload(room, sc, e)
        if frame is not None:
            payload.update(frame.payload())
        if extra is not None and e.seq == extra[0]:
            payload.update(extra[1])
        events.append(NewEvent(room.id, e.seq, _KINDS.get(type(event), "other"),
                               JSONText(encode_json(payload)), now))
    return events


@functools.lru_cache(maxsize=64)
def _stamp(milliseconds: int) -> datetime:
    """An entry's time to the millisecond, one object per millisecond: the store converts a
    time for the database once for a run of events that share it (a move's two)."""
    return datetime.fromtimestamp(milliseconds / 1000, UTC)


@functools.lru_cache(maxsize=256)
def _decision_text(seats: frozenset[int], observers: bool, seat: int) -> JSONText:
    """A decision request's stored payload (as `entry_payload` makes it): it depends on
    nothing else, so each of the few there are is encoded once."""
    return JSONText(encode_json({**_audience(seats, observers, False), "seat": seat}))


@functools.lru_cache(maxsize=256)
def _state_prefix(seats: frozenset[int], observers: bool, replay: bool, key: str) -> str:
    """A recorded state's payload up to its record: `{...audience...,"<key>":`."""
    return encode_json(_audience(seats, observers, replay))[:-1] + f",{encode_json(key)}:"


def _audience(seats: frozenset[int], observers: bool, replay: bool) -> dict[str, Any]:
    """The part of every stored payload that says who got the entry and whether the
    official replay shows it."""
    return {"seats": sorted(seats), "observers": observers, "replay": replay}


def recorded(event: RoomEvent, room: Room) -> Recording | None:
    """How a state event is stored when its game records states compactly
    (`GamePlugin.recording`: Blokus stores the move); None: stored as its news."""
    if not isinstance(event, StateChanged) or room.plugin is None:
        return None
    return room.plugin.recording


def record_of(event: RoomEvent, room: Room) -> tuple[str, str] | None:
    """A recorded state event's (payload field, record as JSON text); None: not recorded."""
    recording = recorded(event, room)
    if recording is None or not isinstance(event, StateChanged):
        return None
    return recording.key, recording.record_text(event)


def entry_payload(room: Room, sc: bool, entry: Entry) -> dict[str, Any]:
    """One log entry as plain JSON: audience, a summary, and for SC games its XML packets
    (a state of a game that records states: its record, `GamePlugin.recording`)."""
    event = entry.event
    replay = ((isinstance(event, StateChanged) and entry.to_players)
              or isinstance(event, MoveRejected | GameOver))
    payload = _audience(entry.seats, entry.observers, replay)
    found = record_of(event, room)
    match event:
        case Welcome(seat=seat) | DecisionRequested(seat=seat):
            payload["seat"] = seat
        case MoveRejected():
            payload.update(seat=event.seat, rule=event.rule, mistake=event.mistake_name,
                           text=event.mistake_text, process=event.process, final=event.final,
                           move=_plain(event.move))
        case PauseChanged(paused=paused):
            payload["paused"] = paused
        case GameOver(result=result):
            payload.update(winner=result.winner, reason=result.reason,
                           scores=list(result.scores),
                           cause=None if result.violation is None
                           else result.violation.cause.value)
        case StateChanged(views=views) if not sc and found is None:
            # As it is when it is plain data (a Hearth history: `_plain`'s depth bound cut
            # nested blocks, and the HSReplay document is rebuilt from these on read).
            payload["public"] = views.public if _is_plain(views.public) \
                else _plain(views.public)
            if event.answer is not None:
                # The move that made these news (a game that records states has it in
                # its record): with the seed, the match replays move by move.
                payload["answer"] = {"seat": event.answer[0], "move": _plain(event.answer[1])}
    if found is not None:
        # The record (Blokus: the move), not the state: readers rebuild the state from it.
        payload[found[0]] = json.loads(found[1])
    elif sc and not isinstance(event, DecisionRequested):  # a moveRequest says nothing
        try:
            payload["xml"] = sc_packets(room, entry)
        except Exception:
            log.exception("room %s: entry %d not rendered as SC XML", room.id, entry.seq)
    return payload


def sc_packets(room: Room, entry: Entry) -> list[str]:
    """The SC packets of an entry as the official replay records them (the first seat's)."""
    from server.net.replay import packet_bytes
    from server.net.sc_translate import room_event_messages

    seat = min(entry.seats) if entry.seats else None
    return [packet_bytes(message).decode()
            for message in room_event_messages(room, entry, seat)]


def _is_plain(value: Any) -> bool:
    """Whether `value` is JSON as it is (dicts with string keys, lists and tuples, strings,
    numbers, booleans, None), however deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(k) is str for k in item):
                return False
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif not (item is None or kind is str or kind is int or kind is bool
                  or kind is float):
            return False
    return True


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-able rendering of game data (bounded depth and size)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value if not isinstance(value, str) else value[:10_000]
    if depth > 8:
        return repr(value)[:200]
    if isinstance(value, enum.Enum):
        return _plain(value.value, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), depth + 1)
                for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in list(value.items())[:1000]}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v, depth + 1) for v in list(value)[:1000]]
    return repr(value)[:1000]
