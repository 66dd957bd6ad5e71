"""The room adapter and the plugin: whole games through pending/apply/outcome, refusals that
change nothing, the entry point in the package's pyproject.toml, and a Room that plays it."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from connect4.board import Board
from connect4.bots import NegamaxBot, RandomBot
from connect4.bundled import bundled
from connect4.game import Connect4Game, new_game, news_of
from connect4.plugin import PLUGIN
from connect4.replay import MOVES
from connect4.spectate import Connect4Spectating

from server.games.registry import GROUP, GamePlugin, GameRegistry
from server.rooms import (
    Clocks,
    DecisionRequested,
    Entry,
    GameOver,
    MatchResult,
    Room,
    RoomClosed,
    Slot,
    StateChanged,
)
from server.rooms.game import Clock, Game, OnRefusal, RuleViolation, Views
from server.rooms.result import Outcome

from .conftest import PACKAGE_ROOT
from .test_board import DRAW

Bot = RandomBot | NegamaxBot


def play_through_the_adapter(game: Connect4Game, bots: tuple[Bot, Bot]) -> int:
    """Answer every decision with the seat's bot, reading only what the adapter gives."""
    decisions = 0
    while not game.is_over:
        pending = game.pending()
        assert len(pending) == 1 and game.outcome() is None
        [(seat, decision)] = pending.items()
        assert decision.clock is Clock.MOVE
        board = game.view(seat)
        assert isinstance(board, Board) and board.turn == seat
        column = bots[seat].choose(board)
        assert game.accepts(column) and column in decision.payload
        game.apply(seat, column)
        decisions += 1
    assert dict(game.pending()) == {}
    return decisions


def test_a_whole_game_with_both_bots() -> None:
    for seed in range(4):
        game = new_game(seed)
        negamax_seat = seed % 2
        bots: tuple[Bot, Bot] = (NegamaxBot(4, seed), RandomBot(seed))
        if negamax_seat == 1:
            bots = (bots[1], bots[0])
        decisions = play_through_the_adapter(game, bots)
        outcome = game.outcome()
        assert outcome is not None and decisions == game.board.ply
        assert outcome == Outcome(negamax_seat, "four in a row",
                                  (1, 0) if negamax_seat == 0 else (0, 1))
        assert game.scores() == outcome.scores and game.stopped() == outcome


def test_a_drawn_game_through_the_adapter() -> None:
    game = Connect4Game()
    for column in DRAW:
        game.apply(game.board.turn, int(column) - 1)
    assert game.is_over and game.outcome() == Outcome(None, "board full", (0, 0))
    assert game.scores() == (0, 0) and dict(game.pending()) == {}


def test_an_illegal_answer_raises_and_changes_nothing() -> None:
    game = Connect4Game()
    for column in (3, 3, 3, 3, 3, 3):
        game.apply(game.board.turn, column)
    before = (game.board.key(), game.board.moves, dict(game.pending()))
    assert 3 not in game.pending()[0].payload
    for seat, answer, name in [(0, 3, "COLUMN_FULL"), (0, 7, "OUT_OF_RANGE"),
                               (0, -1, "OUT_OF_RANGE"), (1, 0, "NOT_YOUR_TURN"),
                               (0, "3", "NOT_A_COLUMN"), (0, True, "NOT_A_COLUMN")]:
        with pytest.raises(RuleViolation) as caught:
            game.apply(seat, answer)
        assert caught.value.name == name and caught.value.move == answer
        assert caught.value.text
        assert (game.board.key(), game.board.moves, dict(game.pending())) == before
    assert game.outcome() is None and not game.is_over


def test_no_answer_after_the_end() -> None:
    game = Connect4Game()
    for column in (3, 0, 3, 0, 3, 0, 3):
        game.apply(game.board.turn, column)
    assert game.outcome() == Outcome(0, "four in a row", (1, 0))
    with pytest.raises(RuleViolation):
        game.apply(game.board.turn, 1)
    assert game.board.ply == 7


def test_accepts_only_ints() -> None:
    game = Connect4Game()
    for column in (0, 3, 6, 9, -1):  # an int is an answer; whether legal is apply's call
        assert game.accepts(column)
    for other in ("3", 3.0, True, None, [3], (3,), b"3"):
        assert not game.accepts(other)


def test_news_is_plain_json_and_views_are_copies_of_the_board() -> None:
    game = Connect4Game()
    game.apply(0, 3)
    news = game.news([0, 1], True)
    assert isinstance(news, Views) and not news.seats  # no hidden information
    assert news.of(0) is news.of(None)
    assert news.public == {"moves": "4", "turn": 1, "winner": None, "over": False}
    assert json.loads(json.dumps(news.public)) == news.public  # the store keeps it as is
    news.public["moves"] = "44"
    assert game.board.moves == (3,) and game.news([], True).public["moves"] == "4"
    view = game.view(None)
    assert isinstance(view, Board) and view == game.board and view is not game.board
    view.push(0)
    assert game.board.moves == (3,) and game.view(0) == Board.from_moves("4")


def test_the_news_at_the_end_names_the_winner_and_nobody_to_move() -> None:
    game = Connect4Game()
    for column in (3, 0, 3, 0, 3, 0, 3):
        game.apply(game.board.turn, column)
    assert game.news([0, 1], True).public == {"moves": "4141414", "turn": None,
                                             "winner": 0, "over": True}
    assert news_of(Board.from_moves(DRAW)) == {"moves": DRAW, "turn": None, "winner": None,
                                               "over": True}


def test_stop_concede_and_the_seed() -> None:
    game = new_game(7)
    game.apply(0, 3)
    assert game.stopped() == Outcome(None, "stopped", (0, 0))
    assert game.concede(1) is False and not game.is_over
    assert new_game(7).board == new_game(None).board == Board()
    assert game.on_refusal is OnRefusal.END_MATCH and game.seat_count == 2


def test_the_adapter_has_every_member_of_the_game_protocol() -> None:
    game: Game = Connect4Game()  # mypy checks the protocol; this checks at run time
    members = set(Game.__annotations__) | {
        name for name in vars(Game) if not name.startswith("_")}
    assert {"pending", "apply", "news", "outcome", "concede", "is_over"} <= members
    for name in members:
        assert hasattr(game, name), name


def test_the_plugin() -> None:
    assert isinstance(PLUGIN, GamePlugin)
    assert PLUGIN.game_id == "connect4" == Connect4Game.game_type
    assert PLUGIN.bots == ("connect4-random", "connect4-negamax") and PLUGIN.seat_count == 2
    assert PLUGIN.protocols == frozenset() and not PLUGIN.speaks("sc")
    game = PLUGIN.new_game(3)
    assert isinstance(game, Connect4Game) and game.game_type == PLUGIN.game_id
    assert PLUGIN.display_name == "Connect Four" == PLUGIN.name
    assert PLUGIN.aliases == frozenset({"c4"})
    assert isinstance(PLUGIN.spectating, Connect4Spectating)
    assert PLUGIN.viewer == PACKAGE_ROOT / "connect4" / "viewer.js" and PLUGIN.viewer.is_file()
    assert PLUGIN.viewer.with_name("viewer.css").is_file()
    assert PLUGIN.replays == (MOVES,) and PLUGIN.bundled is bundled
    assert PLUGIN.recording is None and PLUGIN.default_for == frozenset()
    assert PLUGIN.read_events is None


def entry_points_of_the_package() -> dict[str, str]:
    with (PACKAGE_ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    assert project["name"] == "gauntlet-connect4" and project["dependencies"] == []
    points: dict[str, str] = project["entry-points"][GROUP]
    return points


def test_the_entry_point_names_the_plugin_and_its_game_id() -> None:
    points = entry_points_of_the_package()
    assert points == {"connect4": "connect4.plugin:PLUGIN"}
    [(name, target)] = points.items()
    module, attribute = target.split(":")
    assert getattr(importlib.import_module(module), attribute) is PLUGIN
    assert name == PLUGIN.game_id


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The package's metadata as an installed distribution would have it (a dist-info
    with the pyproject's entry points), visible to importlib.metadata for this test only."""
    info = tmp_path / "gauntlet_connect4-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gauntlet-connect4\n"
                                   "Version: 0.1.0\n")
    lines = [f"[{GROUP}]"] + [f"{name} = {target}"
                              for name, target in entry_points_of_the_package().items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path


def test_the_registry_loads_it_from_the_entry_point(installed: Path) -> None:
    registry = GameRegistry.from_entry_points()
    assert "connect4" in registry and registry.get("connect4") is PLUGIN
    assert isinstance(registry.new_game("connect4", seed=1), Connect4Game)
    assert registry.resolve("c4") == "connect4" and registry.short_name("connect4") == "c4"


class BotSeat:
    """An in-process seat that answers each decision with its bot's column."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.events: list[Any] = []
        self.done = asyncio.Event()

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        self.events.append(entry.event)
        if isinstance(entry.event, DecisionRequested):
            game = room.game
            assert isinstance(game, Connect4Game)
            room.submit(self, self.bot.choose(game.view(seat)), time.monotonic())
        elif isinstance(entry.event, RoomClosed):
            self.done.set()
        return time.monotonic()

    def result(self) -> MatchResult:
        return next(e.result for e in self.events if isinstance(e, GameOver))


async def test_a_room_plays_it_with_the_bundled_bots() -> None:
    negamax, rand = BotSeat(NegamaxBot(4, seed=2)), BotSeat(RandomBot(seed=2))
    room = Room(PLUGIN.new_game(2), [Slot(player=negamax), Slot(player=rand)],
                clocks=Clocks())
    room.start_task()
    room.seated(0)
    room.seated(1)
    async with asyncio.timeout(10):
        await negamax.done.wait()
        await rand.done.wait()
    result = negamax.result()
    assert result.regular and result.winner == 0 and result.reason == "four in a row"
    assert result.scores == (1, 0) and rand.result() == result
    news = [e.state for e in rand.events if isinstance(e, StateChanged)]
    assert news and news[-1]["winner"] == 0 and news[-1]["over"]
    assert isinstance(room.game, Connect4Game)
    assert Board.from_moves(news[-1]["moves"]) == room.game.board


def test_the_package_is_not_installed_in_the_server_environment() -> None:
    # The tests import it from its folder (conftest.py), not from site-packages.
    import connect4

    assert Path(connect4.__file__).resolve().parent == PACKAGE_ROOT / "connect4"
    assert str(PACKAGE_ROOT) in sys.path
