"""The plugin the Gauntlet server loads through the `gauntlet.games` entry point
`connect4 = "connect4.plugin:PLUGIN"` (this package's pyproject.toml).

No wire protocol of the server speaks Connect Four yet (`protocols` is empty): rooms seat
it with in-process players, the bundled bots `connect4-random` and `connect4-negamax`
(`connect4.bundled`: `play` functions the server runs in a worker thread). Spectators
watch it with `connect4.spectate` and `viewer.js`/`viewer.css`; a finished match exports
as its moves (`connect4.replay`, format "moves").

>>> PLUGIN.name, sorted(PLUGIN.aliases), PLUGIN.replay_format(None).name
('Connect Four', ['c4'], 'moves')
"""

from __future__ import annotations

from pathlib import Path

from connect4.bundled import NAMES, bundled
from connect4.game import GAME_TYPE, new_game
from connect4.replay import MOVES
from connect4.spectate import Connect4Spectating
from server.games.registry import GamePlugin

PLUGIN = GamePlugin(
    game_id=GAME_TYPE,
    display_name="Connect Four",
    aliases=frozenset({"c4"}),
    new_game=new_game,
    protocols=frozenset(),
    bots=NAMES,
    bundled=bundled,
    seat_count=2,
    spectating=Connect4Spectating(),
    viewer=Path(__file__).with_name("viewer.js"),
    replays=(MOVES,),
)
