"""The Hearth card game, the server's side of it (registered as `hearth`).

Everything the server does differently for Hearth is here: the room adapter (`room`), how
spectators watch it (`spectate`, and `viewer.js` with `viewer.css` in the web page), the
Kettle session that seats it (`kettle`), its replays (`replay`: Power.log and HSReplay
XML) and the bots that come with it (`bots`).
The rules are `games.hearth`; the wire protocol is `protocols.kettle`.

>>> PLUGIN.game_id, sorted(PLUGIN.protocols), PLUGIN.seat_count
('hearth', ['kettle'], 2)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.hearth import decks
from server.games.hearth.answers import HearthAnswers
from server.games.hearth.bots import bundled, kit
from server.games.hearth.kettle import KettleSession
from server.games.hearth.position import stored_position
from server.games.hearth.replay import (
    stored_hsreplay_document,
    stored_power_log,
    with_hsreplay,
    write_hearth_replay,
)
from server.games.hearth.room import (
    CHOOSE,
    GAME_TYPE,
    ILLEGAL,
    MULLIGAN,
    OPTIONS,
    HearthAsk,
    HearthGame,
    HearthView,
    new_game,
)
from server.games.hearth.spectate import HearthSpectating
from server.games.registry import GamePlugin, ReplayFormat

__all__ = ["CHOOSE", "GAME_TYPE", "ILLEGAL", "MULLIGAN", "OPTIONS", "PLUGIN", "HearthAsk",
           "HearthGame", "HearthView", "new_game"]

def _use_deck(game: Any, seat: int, deck: decks.Deck) -> None:
    game.use_deck(seat, *deck.pair())


PLUGIN = GamePlugin(
    game_id=GAME_TYPE,
    display_name="Hearth",
    viewer=Path(__file__).with_name("viewer.js"),
    new_game=new_game,
    protocols=frozenset({"kettle"}),
    default_for=frozenset({"kettle"}),
    bots=("hearth-random", "hearth-greedy"),
    bundled=bundled,
    kit=kit,
    read_events=with_hsreplay,
    replay_files=write_hearth_replay,
    sessions={"kettle": KettleSession},
    spectating=HearthSpectating(),
    read_deck=decks.resolve,
    use_deck=_use_deck,
    position=stored_position,
    fresh_rng=True,
    answers=HearthAnswers(),
    replays=(ReplayFormat("hsreplay", "application/xml", "{id}.hsreplay.xml",
                          stored_hsreplay_document),
             ReplayFormat("power-log", "text/plain; charset=utf-8", "{id}.power.log",
                          stored_power_log)),
)
