"""Software-Challenge 2027 Blokus, the server's side of it (registered as `swc_2027_blokus`).

Everything the server does differently for Blokus is here: the room adapter (`room`), how
a match is stored (`record`: moves, not states), how spectators watch it (`spectate`, and
`viewer.js` with `viewer.css` in the web page), how a stored match is exported (`replay`)
and the bots that come with it (`bots`). The rules are `games.blokus`; the wire protocol
is `protocols.sc`.

>>> PLUGIN.game_id, sorted(PLUGIN.protocols), PLUGIN.seat_count
('swc_2027_blokus', ['sc'], 2)
"""

from __future__ import annotations

from pathlib import Path

from server.games.blokus.answers import BlokusAnswers
from server.games.blokus.bots import bundled, explain, kit
from server.games.blokus.demo import BlokusDemo
from server.games.blokus.position import replay_position, stored_position
from server.games.blokus.record import BadRecord, MoveRecording, rebuild, record, record_text
from server.games.blokus.replay import stored_document
from server.games.blokus.room import GAME_TYPE, BlokusGame, new_game
from server.games.blokus.spectate import BlokusSpectating
from server.games.registry import GamePlugin, ReplayFormat

__all__ = ["GAME_TYPE", "PLUGIN", "BadRecord", "BlokusGame", "new_game", "rebuild", "record",
           "record_text"]

PLUGIN = GamePlugin(
    game_id=GAME_TYPE,
    display_name="Blokus",
    aliases=frozenset({"blokus"}),
    viewer=Path(__file__).with_name("viewer.js"),
    new_game=new_game,
    protocols=frozenset({"sc"}),
    default_for=frozenset({"sc"}),
    bots=("blokus-random", "blokus-greedy"),
    bundled=bundled,
    kit=kit,
    explain=explain,
    demo=BlokusDemo(),
    recording=MoveRecording(),
    position=stored_position,
    from_replay=replay_position,
    answers=BlokusAnswers(),
    spectating=BlokusSpectating(),
    replays=(ReplayFormat("sc-xml", "application/xml", f"replay_{GAME_TYPE}_{{id}}.xml",
                          stored_document),),
)
