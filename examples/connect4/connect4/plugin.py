"""The plugin the Gauntlet server loads through the `gauntlet.games` entry point
`connect4 = "connect4.plugin:PLUGIN"` (this package's pyproject.toml).

No wire protocol of the server speaks Connect Four yet (`protocols` is empty): rooms seat
it with in-process players. The bundled bots are `connect4.bots.RandomBot` ("random") and
`connect4.bots.NegamaxBot` ("negamax").
"""

from __future__ import annotations

from connect4.game import GAME_TYPE, new_game
from server.games.registry import GamePlugin

PLUGIN = GamePlugin(
    game_id=GAME_TYPE,
    new_game=new_game,
    protocols=frozenset(),
    bots=("random", "negamax"),
    seat_count=2,
)
