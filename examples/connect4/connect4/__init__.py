"""Connect Four for Gauntlet: rules (`connect4.board`), bots (`connect4.bots`), the room
adapter (`connect4.game`) and the plugin the server loads (`connect4.plugin`)."""

from connect4.board import Board, IllegalMove, InvalidMoveString, Mistake, perft

__all__ = ["Board", "IllegalMove", "InvalidMoveString", "Mistake", "perft"]
