"""Spectator frames: each observer entry of a room's log rendered once, for every outlet.

A frame is the JSON message a spectator gets for one log entry (`{"type": "event", "seq",
"kind", ...}`): `neutral` for everybody, `full` (games with hidden information only) for an
admin or once the match is over. The hub sends frames to live spectators; the match
service stores the same dicts beside each stored event (`payload["spectate"]`,
`payload["spectateFull"]`), which is what a match replayed from the store is streamed from.

A room's `FrameMaker` (`frames_for(room)`) listens to its match log and hands every
entry, with its frame, to its subscribers (the recorder, the hub's feed, a worker's
outlet): an observer entry is rendered once, as it is logged (a renderer reads the game
as it is right then: Hearth's does), and only when a subscriber wants its frame (a Blokus
state the store rebuilds from its move is not rendered for the store alone). Rendering
never touches the room; a room's frame maker lives as long as the room.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
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

log = logging.getLogger(__name__)

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


FrameListener = Callable[[Entry, "Frame | None"], None]
"""Told of every entry of a room's log, with its frame (None: not rendered, or not an
observer entry)."""
Wants = Callable[[Entry], bool]
"""Whether a subscriber needs an observer entry's frame."""


class FrameMaker:
    """A room's renderer and the fan-out of its match log to the frames' subscribers.

    >>> import asyncio
    >>> from server.rooms import Lobby, SlotRequest
    >>> async def main():
    ...     lobby = Lobby()
    ...     room, _codes = lobby.prepare(None, [SlotRequest("a"), SlotRequest("b")], False)
    ...     got = []
    ...     frames_for(room).subscribe(lambda entry, frame: got.append((entry.seq, frame)))
    ...     room.log.append(PauseChanged(True), observers=True)  # as the room logs one
    ...     room.log.append(PauseChanged(False))  # for the seats only: no frame
    ...     await lobby.close()
    ...     return [(seq, frame and frame.neutral["kind"]) for seq, frame in got[:2]]
    >>> asyncio.run(main())
    [(0, 'pause'), (1, None)]
    """

    def __init__(self, room: Room) -> None:
        self._room = weakref.ref(room)
        self.renderer: Renderer = renderer_for(room, names_of(room))
        self._subscribers: list[tuple[FrameListener, Wants | None]] = []
        room.log.listen(self._logged)

    def subscribe(self, listener: FrameListener, wants: Wants | None = None
                  ) -> Callable[[], None]:
        """Tell `listener` of every entry logged from now on, in order, with its frame when
        it is an observer entry and `wants(entry)` (None: always); returns the unsubscribe."""
        item = (listener, wants)
        self._subscribers.append(item)

        def stop() -> None:
            if item in self._subscribers:
                self._subscribers.remove(item)

        return stop

    def _logged(self, entry: Entry) -> None:
        subscribers = list(self._subscribers)
        frame = None
        if entry.observers and any(w is None or w(entry) for _l, w in subscribers):
            try:
                frame = self.frame(entry)
            except Exception:  # a rendering bug must not touch the match
                log.exception("entry %d not rendered for spectators", entry.seq)
        for listener, _wants in subscribers:
            try:
                listener(entry, frame)
            except Exception:
                log.exception("a frame subscriber failed on entry %d", entry.seq)

    def frame(self, entry: Entry) -> Frame | None:
        """`entry`'s frame rendered now (None: spectators are not told of it): for an entry
        not logged yet (the result the recorder stores first) or logged before a late
        subscriber came (its backfill)."""
        if not entry.observers:
            return None
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
    """The room's frame maker (made on the first call: it hears the entries logged from
    then on)."""
    maker = _MAKERS.get(room)
    if maker is None:
        maker = _MAKERS[room] = FrameMaker(room)
    return maker


def frame_of(room: Room, entry: Entry) -> Frame | None:
    """The spectators' frame of `entry` of `room`, rendered now (`FrameMaker.frame`)."""
    return frames_for(room).frame(entry)
