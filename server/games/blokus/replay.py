"""Blokus replays from the store: the official replay document (reference §7) of a match.

A stored state event holds its move (`server.games.blokus.record`): its memento is rebuilt,
the same bytes the live replay file has (`server.net.replay.replay_bytes`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

from protocols.sc import messages as m
from server.games.blokus.record import KEY, BadRecord, rebuild
from server.net.replay import packet_bytes

log = logging.getLogger(__name__)


def stored_packets(match_id: str, events: Iterable[Any]) -> Iterator[str]:
    """The replay's packets from a stored match's events (`Store.events_since`), in order.

    A Blokus state event holds its move (`server.games.blokus.record`): its memento is
    rebuilt here, the same bytes the live replay has. Other events hold their packets.
    A log that does not rebuild (a gap) ends the packets there, logged.
    """
    state = None
    for event in events:
        payload = event.payload if isinstance(event.payload, dict) else {}
        if KEY in payload:
            try:
                state = rebuild(state, payload[KEY])
            except BadRecord as exc:
                log.error("match %s: replay cut at event %s: %s", match_id, event.seq, exc)
                return
            yield packet_bytes(m.Memento(match_id, state)).decode()
        elif payload.get("replay"):
            yield from payload.get("xml", [])


def stored_document(match_id: str, events: list[Any]) -> str:
    """The replay document of a stored match: `<protocol>`, its packets, `</protocol>`."""
    return "<protocol>\n" + "".join(p + "\n" for p in stored_packets(match_id, events)) \
        + "</protocol>"
