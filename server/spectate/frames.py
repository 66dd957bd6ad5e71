"""Spectator frames: each observer entry of a room's log rendered once, for every outlet.

A frame is the JSON message a spectator gets for one log entry (`{"type": "event", "seq",
"kind", ...}`): `neutral` for everybody, `full` (games with hidden information only) for an
admin or once the match is over. The hub sends frames to live spectators; the match
service stores the same dicts beside each stored event (`payload["spectate"]`,
`payload["spectateFull"]`), which is what a match replayed from the store is streamed from.

Both outlets ask `frame_of(room, entry)` in the same loop turn the entry is logged (the
recorder's `MatchLog` listener first, then the room's observers): a renderer reads the
game as it is right then (Hearth's does), so the entry is rendered once and the second
caller gets the same frame. Rendering never touches the room; a room's frame maker lives
as long as the room.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from server.rooms import Room
from server.rooms.events import (
    Entry,
    GameOver,
    MoveRejected,
    PauseChanged,
    RoomClosed,
    StateChanged,
)
from server.spectate.render import Renderer, dumps, renderer_for, result_json

NEUTRAL_KEY = "spectate"
"""The stored payload's key of the neutral frame."""
FULL_KEY = "spectateFull"
"""The stored payload's key of the full frame (hidden cards: admins, or after the end)."""


@dataclass
class Frame:
    """One rendered observer entry; `full` None: the same for every spectator."""

    seq: int
    neutral: dict[str, Any]
    full: dict[str, Any] | None = None
    _texts: dict[bool, str] = field(default_factory=dict, repr=False, compare=False)

    def text(self, full: bool) -> str:
        full = full and self.full is not None
        found = self._texts.get(full)
        if found is None:
            found = self._texts[full] = dumps(self.full if full and self.full else self.neutral)
        return found

    def payload(self) -> dict[str, Any]:
        """What goes into the stored event's payload."""
        found: dict[str, Any] = {NEUTRAL_KEY: self.neutral}
        if self.full is not None:
            found[FULL_KEY] = self.full
        return found

    @classmethod
    def from_payload(cls, seq: int, payload: Any) -> Frame | None:
        """The frame stored with an event (None: the event had none)."""
        if not isinstance(payload, dict) or not isinstance(payload.get(NEUTRAL_KEY), dict):
            return None
        full = payload.get(FULL_KEY)
        return cls(seq, payload[NEUTRAL_KEY], full if isinstance(full, dict) else None)

    @property
    def kind(self) -> str:
        return str(self.neutral.get("kind", ""))


def stored_with(events: list[Any]) -> list[Frame]:
    """The frames stored beside a match's events (`Frame.payload`), in order."""
    return [frame for event in events
            if (frame := Frame.from_payload(event.seq, event.payload)) is not None]


def names_of(room: Room) -> list[str]:
    return [slot.display_name or f"seat {i + 1}" for i, slot in enumerate(room.slots)]


class FrameMaker:
    """A room's renderer and the frame of its latest rendered entry."""

    def __init__(self, room: Room) -> None:
        self._room = weakref.ref(room)
        self.renderer: Renderer = renderer_for(room, names_of(room))
        self._last: Frame | None = None

    def frame(self, entry: Entry) -> Frame | None:
        """The frame of `entry` (None: spectators are not told of it)."""
        last = self._last
        if last is not None and last.seq == entry.seq:
            return last
        frame = self._render(entry)
        if frame is not None:
            self._last = frame
        return frame

    def _render(self, entry: Entry) -> Frame | None:
        event = entry.event
        head: dict[str, Any] = {"type": "event", "seq": entry.seq}
        renderer = self.renderer
        match event:
            case StateChanged():
                # The neutral state first: a renderer reads its news once per entry there.
                neutral = renderer.state(entry, False)
                full = renderer.state(entry, True) if renderer.hidden_information else None
                return Frame(entry.seq, {**head, "kind": "state", "state": neutral},
                             None if full is None else {**head, "kind": "state", "state": full})
            case PauseChanged(paused=paused):
                return Frame(entry.seq, {**head, "kind": "pause", "paused": paused})
            case MoveRejected():
                return Frame(entry.seq, {**head, "kind": "rejected", "seat": event.seat,
                                         "name": event.mistake_name, "text": event.mistake_text,
                                         "final": event.final})
            case GameOver(result=result):
                # Over: every spectator may see everything now (both hands).
                room = self._room()
                names = names_of(room) if room is not None else []
                return Frame(entry.seq, {**head, "kind": "result",
                                         "result": result_json(result, names),
                                         "state": renderer.state(entry, True)})
            case RoomClosed():
                return Frame(entry.seq, {**head, "kind": "closed"})
        return None


_MAKERS: weakref.WeakKeyDictionary[Room, FrameMaker] = weakref.WeakKeyDictionary()


def frames_for(room: Room) -> FrameMaker:
    """The room's frame maker (made on the first call)."""
    maker = _MAKERS.get(room)
    if maker is None:
        maker = _MAKERS[room] = FrameMaker(room)
    return maker


def frame_of(room: Room, entry: Entry) -> Frame | None:
    """The spectators' frame of an entry of `room`'s log (rendered once per entry)."""
    if not entry.observers:
        return None
    return frames_for(room).frame(entry)
