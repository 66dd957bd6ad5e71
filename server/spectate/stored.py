"""Matches read back from the store: the frames stored beside their events, streamed again.

Every observer event of a stored match carries the frame live spectators got for it
(`server.spectate.frames`: `payload["spectate"]`, and `payload["spectateFull"]` for hidden
information), so a match this server no longer holds in memory (an earlier run, or older
than the hub's retention) is streamed exactly as it was live: the same messages under the
same sequence numbers, then a close 1000. The full frames (both Hearth hands) go to an
admin, or to anybody once the match is `finished`; an aborted or unfinished match shows a
neutral spectator the neutral frames only.

A game may store a state event more compactly than as its frame (Blokus stores its move)
and render the frame again when it is read: its plugin's `spectating.stored_frames`
(`server.games.registry.Spectating`) does, and also what events stored before the frames
were still allow.

Everything here reads the database: call it in a worker thread.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from server.games.registry import GameRegistry, Spectating
from server.spectate.filters import MatchFilter
from server.spectate.frames import Frame, stored_with
from server.spectate.render import dumps
from server.store import Match, Store

log = logging.getLogger(__name__)

LOBBY_PAGE = 20
"""Stored matches per page of the match list."""
MAX_LOBBY_PAGE = 100


def _stamp(when: datetime | None) -> float | None:
    return None if when is None else when.timestamp()


def _names(store: Store, match_id: str) -> tuple[list[str], list[Any]]:
    seats = store.seats(match_id)
    return [seat.display_name or f"seat {seat.index + 1}" for seat in seats], seats


def _result(store: Store, match: Match, names: list[str], seats: list[Any]
            ) -> dict[str, Any] | None:
    """The result as the hub shows it (`render.result_json`), from the result row."""
    row = store.get_result(match.id)
    if row is None:
        return None
    scores = row.scores if isinstance(row.scores, dict) else {}
    winner = row.winner
    return {
        "winner": winner,
        "winnerName": names[winner] if winner is not None and 0 <= winner < len(names)
        else None,
        "reason": row.reason,
        "scores": list(scores.get("scores") or []),
        "cause": scores.get("cause"),
        "violationSeat": _violation_seat(seats) if scores.get("cause") else None,
    }


def _violation_seat(seats: list[Any]) -> int | None:
    return next((seat.index for seat in seats if seat.failure), None)


def stored_frames(match_id: str, events: list[Any], spectating: Spectating | None = None,
                  names: list[str] | None = None, violation_seat: int | None = None
                  ) -> list[Frame]:
    """The frames of a stored match's events: the ones stored with them, and where a game
    stored a state event more compactly (Blokus: its move), the frames its plugin's
    `spectating.stored_frames` renders."""
    if spectating is not None:
        return spectating.stored_frames(match_id, events, names or [], violation_seat)
    return stored_with(events)


def _info(match: Match, names: list[str], result: dict[str, Any] | None,
          last_seq: int | None) -> dict[str, Any]:
    """What `MatchFeed.info()` says, for a match the hub does not hold."""
    return {"id": match.id, "game": match.game, "status": match.status, "live": False,
            "players": names, "created": _stamp(match.created),
            "started": _stamp(match.started), "finished": _stamp(match.finished),
            "result": result, "lastSeq": last_seq}


@dataclass
class StoredMatch:
    """A stored match's frames and what the hub would say of it."""

    info: dict[str, Any]
    meta: dict[str, Any]
    frames: list[Frame] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.info["status"] == "finished"

    def texts(self, full: bool, since: int | None, *, reveal: bool = True) -> list[str]:
        """The texts a spectator gets (hello, then a snapshot or the frames from `since`),
        as `MatchFeed.attach` makes them for a closed match (`reveal`: the same)."""
        full = full or (reveal and self.finished)
        first = [dumps({"type": "hello", "match": self.info, "meta": self.meta,
                        "full": full})]
        if since is None:
            first.append(dumps(self.snapshot(full)))
        else:
            first.extend(frame.text(full) for frame in self.frames if frame.seq >= since)
        return first

    def snapshot(self, full: bool) -> dict[str, Any]:
        """The live snapshot's fold: the latest state, the pause flag, the result."""
        neutral: Any = None
        full_state: Any = None
        paused = False
        result = None
        for frame in self.frames:
            kind = frame.kind
            if kind == "state":
                neutral = frame.neutral.get("state")
                full_state = frame.full.get("state") if frame.full is not None else None
            elif kind == "result":
                neutral, full_state = frame.neutral.get("state"), None
                result = frame.neutral.get("result")
            elif kind == "pause":
                paused = bool(frame.neutral.get("paused"))
        state = full_state if full and full_state is not None else neutral
        return {"type": "snapshot", "seq": self.frames[-1].seq if self.frames else -1,
                "status": self.info["status"], "paused": paused,
                "result": result if result is not None else self.info["result"],
                "state": state}


def load_match(store: Store, match_id: str, games: GameRegistry | None = None
               ) -> StoredMatch | None:
    """A stored match with its frames (None: not in the store); `games` says how each
    game is watched (a game it does not know gets the frames stored with its events)."""
    match = store.get_match(match_id)
    if match is None:
        return None
    names, seats = _names(store, match_id)
    events = store.events_since(match_id, 0)
    spectating = games.get(match.game).spectating \
        if games is not None and match.game in games else None
    frames = stored_frames(match_id, events, spectating, names, _violation_seat(seats))
    result = next((f.neutral.get("result") for f in reversed(frames) if f.kind == "result"),
                  None)
    if result is None:
        result = _result(store, match, names, seats)
    info = _info(match, names, result, frames[-1].seq if frames else None)
    meta = spectating.meta(names) if spectating is not None else {}
    return StoredMatch(info, meta, frames)


def stored_page(store: Store, offset: int = 0, limit: int = LOBBY_PAGE,
                chosen: MatchFilter | None = None) -> dict[str, Any]:
    """A page of the stored matches, newest first: `{"offset", "limit", "total", "matches"}`;
    `chosen`: only those that pass it (filtered in the database, `total` counts those)."""
    limit = max(1, min(limit, MAX_LOBBY_PAGE))
    chosen = chosen or MatchFilter()
    page = store.list_matches(game=chosen.game, status=chosen.status, player=chosen.bot,
                              limit=limit, offset=max(0, offset))
    matches = []
    for match in page.items:
        names, seats = _names(store, match.id)
        matches.append(_info(match, names, _result(store, match, names, seats), None))
    return {"offset": page.offset, "limit": page.limit, "total": page.total,
            "matches": matches}
