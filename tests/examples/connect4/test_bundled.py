"""The bundled bots as the server runs them (`BundledBot.play(view, payload)`), and a whole
Room match between them seated as `server.rooms.inprocess` seats them, its news, frames and
moves document."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import connect4.bundled
import pytest
from connect4.board import Board
from connect4.bots import NegamaxBot, RandomBot
from connect4.bundled import NAMES, Player, bundled, has_play_field
from connect4.game import Connect4Game
from connect4.plugin import PLUGIN
from connect4.replay import moves_document

from server.games.registry import BundledBot
from server.rooms import Clocks, GameOver, Room, Slot, StateChanged
from server.spectate.frames import frame_of

from .test_board import DRAW

needs_play = pytest.mark.skipif(
    "play" not in BundledBot.__dataclass_fields__,
    reason="server.games.registry.BundledBot has no `play` field yet (in-process bots)")


def plays() -> dict[str, Any]:
    found = {bot.name: bot.play for bot in bundled()}
    assert all(callable(play) for play in found.values())
    return found


def random_positions(count: int, seed: int) -> list[Board]:
    """Open positions after random playouts of 0..30 plies."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board()
        for _ in range(rng.randrange(31)):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_over:
                break
        if not board.is_over:
            found.append(board)
    return found


@needs_play
def test_bundled_names_the_two_bots_without_a_command_line() -> None:
    bots = bundled()
    assert [bot.name for bot in bots] == list(NAMES) == list(PLUGIN.bots)
    assert NAMES == ("connect4-random", "connect4-negamax")
    assert all(isinstance(bot, BundledBot) and bot.argv == () for bot in bots)
    assert all(isinstance(bot.play, Player) for bot in bots)
    assert PLUGIN.bundled is bundled and has_play_field()


def test_without_the_play_field_there_are_no_bundled_bots(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connect4.bundled, "has_play_field", lambda: False)
    assert bundled() == ()


@needs_play
def test_play_returns_a_legal_column_and_leaves_the_view_alone() -> None:
    found = plays()
    for board in random_positions(25, seed=11):
        payload = tuple(board.legal_moves)
        before = (board.moves, board.key())
        for name, play in found.items():
            column = play(board, payload)
            assert type(column) is int and column in payload, (name, board)
            assert (board.moves, board.key()) == before
    # One column left: both play it
    board = Board.from_moves(DRAW[:-1])
    [only] = board.legal_moves
    assert {play(board, (only,)) for play in found.values()} == {only}


@needs_play
def test_negamax_takes_an_immediate_win() -> None:
    play = plays()["connect4-negamax"]
    # X: a row of three with both ends open; O: three in column 1 (X has three in column 2)
    positions = [Board.from_moves("445566"), Board.from_moves("2121217")]
    positions += random_positions(200, seed=3)
    tried = 0
    for board in positions:
        mover = board.turn
        wins = set()
        for column in list(board.legal_moves):
            board.push(column)
            if board.winner == mover:
                wins.add(column)
            board.pop()
        if not wins:
            continue
        tried += 1
        assert play(board, tuple(board.legal_moves)) in wins, board
    assert tried >= 10


def test_a_player_is_seeded_and_makes_a_fresh_bot_per_call() -> None:
    made: list[tuple[int, NegamaxBot]] = []

    def make(seed: int) -> NegamaxBot:
        made.append((seed, NegamaxBot(2, seed)))
        return made[-1][1]

    board = Board()
    play = Player("negamax", make, seed=4)
    play(board, tuple(range(7)))
    play(board, tuple(range(7)))
    assert len(made) == 2 and made[0][1] is not made[1][1] and made[0][0] != made[1][0]
    # The same seed, the same sequence of seeds, so the same columns; each call its own
    one, two = Player("r", RandomBot, seed=9), Player("r", RandomBot, seed=9)
    columns = [one(board, None) for _ in range(12)]
    assert columns == [two(board, None) for _ in range(12)]
    assert len(set(columns)) > 1  # not one bot's first choice each time
    other = Player("r", RandomBot, seed=10)
    assert columns != [other(board, None) for _ in range(12)]


def test_a_player_refuses_what_it_cannot_play() -> None:
    play = Player("negamax", lambda seed: NegamaxBot(2, seed), seed=1)
    with pytest.raises(TypeError, match="no Board"):
        play({"moves": ""}, (0, 1))
    board = Board.from_moves("445566")  # it wins in column 3 (0-based 2) or 7 (6)
    with pytest.raises(ValueError, match="not among"):
        play(board, (0,))
    with pytest.raises(ValueError, match="game is over"):
        play(Board.from_moves("4455667"), ())


@needs_play
async def test_a_room_match_of_the_bundled_bots_and_its_moves_document() -> None:
    from server.rooms.inprocess import InProcessPlayer

    # The bundled bots as `bundled()` builds them, but seeded: the same game every run.
    negamax = InProcessPlayer(Player("connect4-negamax", lambda seed: NegamaxBot(6, seed),
                                     seed=1), "connect4-negamax")
    rand = InProcessPlayer(Player("connect4-random", RandomBot, seed=2), "connect4-random")
    game = PLUGIN.new_game(5)
    assert isinstance(game, Connect4Game)
    room = Room(game, [Slot(player=negamax), Slot(player=rand)], clocks=Clocks(),
                plugin=PLUGIN)
    room.start_task()
    room.seated(0)
    room.seated(1)
    async with asyncio.timeout(30):
        await negamax.done.wait()
        await rand.done.wait()
    assert room.result is not None and room.result.regular
    assert room.result.winner == 0 and room.result.reason == "four in a row"
    final = game.board
    assert final.is_over and final.winner == 0
    # The events as the store keeps them: each state's news as it is, the frames beside
    events: list[Any] = []
    for entry in room.log.entries:
        payload: dict[str, Any] = {}
        kind = type(entry.event).__name__.lower()
        if isinstance(entry.event, StateChanged):
            kind, payload["public"] = "state", entry.event.views.public
        elif isinstance(entry.event, GameOver):
            kind = "result"
        frame = frame_of(room, entry)
        if frame is not None:
            payload.update(frame.payload())
        events.append(SimpleNamespace(seq=entry.seq, kind=kind, payload=payload))
    states = [e.payload["public"] for e in events if e.kind == "state"]
    assert len(states) == final.ply + 1  # the start, then one per move
    assert [len(s["moves"]) for s in states] == list(range(final.ply + 1))
    text = moves_document(room.id, events)
    assert text is not None
    header, moves = text.splitlines()
    assert header == f"# connect4 {room.id}" and text.endswith("\n")
    assert Board.from_moves(moves) == final and Board.from_moves(moves).moves == final.moves
    # the stored frames are the live ones; the last state frame draws the final grid
    assert PLUGIN.spectating is not None
    frames = PLUGIN.spectating.stored_frames(room.id, events, ["n", "r"], None)
    state_frames = [f for f in frames if f.kind == "state"]
    assert len(state_frames) == len(states)
    last = state_frames[-1].neutral["state"]
    assert last["over"] and last["winner"] == 0 and last["moves"] == moves
    assert last["last"]["column"] == final.moves[-1] and "thinkMs" in last["last"]
    assert [f.kind for f in frames][-2:] == ["result", "closed"]
    assert frames[-2].neutral["state"]["moves"] == moves
