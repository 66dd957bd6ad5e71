"""A game the server has never heard of, installed the way a third-party package would be:
a `*.dist-info` with an `entry_points.txt` on sys.path. The registry finds it and a Room
plays it with in-process seats; no server code knows tic-tac-toe."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.games.registry import GROUP, GamePlugin, GameRegistry
from server.rooms import (
    Cause,
    Clocks,
    DecisionRequested,
    Entry,
    GameOver,
    Lobby,
    MatchResult,
    Room,
    RoomClosed,
    Slot,
    SlotRequest,
    StateChanged,
    UnknownGameType,
)

TICTACTOE = '''
"""Tic-tac-toe for Gauntlet: seat 0 plays X, seat 1 plays O; an answer is a cell 0..8."""

from types import MappingProxyType

from server.games.registry import GamePlugin
from server.rooms.game import Decision, OnRefusal, RuleViolation, Views
from server.rooms.result import Outcome

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    game_type = "tictactoe"
    seat_count = 2
    on_refusal = OnRefusal.END_MATCH

    def __init__(self, seed=None):
        self.board = [None] * 9
        self.to_move = 0

    def _winner(self):
        for a, b, c in LINES:
            if self.board[a] is not None and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a]
        return None

    @property
    def is_over(self):
        return self._winner() is not None or all(c is not None for c in self.board)

    def pending(self):
        if self.is_over:
            return MappingProxyType({})
        free = tuple(i for i, c in enumerate(self.board) if c is None)
        return {self.to_move: Decision(free)}

    def accepts(self, data):
        return isinstance(data, int)

    def apply(self, seat, answer):
        if not 0 <= answer < 9 or self.board[answer] is not None:
            raise RuleViolation("TAKEN", f"cell {answer} is not free", answer)
        self.board[answer] = seat
        self.to_move = 1 - seat

    def news(self, seats, observers):
        return Views(tuple(self.board))

    def view(self, seat):
        return tuple(self.board)

    def scores(self):
        winner = self._winner()
        return tuple(1 if seat == winner else 0 for seat in range(2))

    def outcome(self):
        if not self.is_over:
            return None
        winner = self._winner()
        return Outcome(winner, "three in a row" if winner is not None else "board full",
                       self.scores())

    def stopped(self):
        return Outcome(None, "stopped", self.scores())

    def concede(self, seat):
        return False


PLUGIN = GamePlugin("tictactoe", TicTacToe, frozenset({"inproc"}), bots=("ttt-first-free",))
'''


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Install `gauntlet_tictactoe` as a distribution visible to importlib.metadata."""
    (tmp_path / "gauntlet_tictactoe.py").write_text(TICTACTOE)
    info = tmp_path / "gauntlet_tictactoe-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gauntlet-tictactoe\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(f"""\
        [{GROUP}]
        tictactoe = gauntlet_tictactoe:PLUGIN
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("gauntlet_tictactoe", None)


class FirstFree:
    """An in-process seat: answers every decision with the first free cell."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.done = asyncio.Event()

    async def send_room_event(self, room: Room, seat: int, entry: Entry) -> float | None:
        self.events.append(entry.event)
        if isinstance(entry.event, DecisionRequested):
            room.submit(self, entry.event.decision.payload[0], time.monotonic())
        elif isinstance(entry.event, RoomClosed):
            self.done.set()
        return time.monotonic()

    def result(self) -> MatchResult:
        return next(e.result for e in self.events if isinstance(e, GameOver))


def test_the_registry_finds_a_third_party_game(installed: Path) -> None:
    registry = GameRegistry.from_entry_points()
    assert {"swc_2027_blokus", "hearth", "tictactoe"} <= set(registry.ids())
    plugin = registry.get("tictactoe")
    assert plugin.protocols == frozenset({"inproc"}) and plugin.bots == ("ttt-first-free",)
    assert not plugin.speaks("sc") and registry.get("hearth").speaks("kettle")


async def test_a_room_plays_the_third_party_game(installed: Path) -> None:
    registry = GameRegistry.from_entry_points()
    x, o = FirstFree(), FirstFree()
    room = Room(registry.new_game("tictactoe", seed=1), [Slot(player=x), Slot(player=o)],
                clocks=Clocks())
    room.start_task()
    room.seated(0)
    room.seated(1)
    async with asyncio.timeout(10):
        await x.done.wait()
        await o.done.wait()
    result = x.result()
    # X takes 0, O 1, X 2, O 3, X 4, O 5, X 6: the diagonal 2-4-6.
    assert result.regular and result.winner == 0 and result.reason == "three in a row"
    assert result.scores == (1, 0)
    boards = [e.state for e in o.events if isinstance(e, StateChanged)]
    assert boards[-1] == (0, 1, 0, 1, 0, 1, 0, None, None)


async def test_the_lobby_prepares_and_seats_it_for_its_protocol_only(installed: Path) -> None:
    lobby = Lobby(games=GameRegistry.from_entry_points())
    room, codes = lobby.prepare("tictactoe", [SlotRequest("x"), SlotRequest("o")], pause=False)
    x, o = FirstFree(), FirstFree()
    lobby.seated(lobby.join_prepared(x, codes[0], protocol="inproc"))
    lobby.seated(lobby.join_prepared(o, codes[1], protocol="inproc"))
    async with asyncio.timeout(10):
        await o.done.wait()
    assert room.result is not None and room.result.winner == 0
    await lobby.close()


async def test_a_game_that_raises_ends_with_no_winner_and_a_reason(installed: Path) -> None:
    registry = GameRegistry.from_entry_points()
    game = registry.new_game("tictactoe")

    def broken(seat: int, answer: Any) -> None:
        raise RuntimeError("a bug in the game")

    game.apply = broken  # type: ignore[method-assign]
    x, o = FirstFree(), FirstFree()
    room = Room(game, [Slot(player=x), Slot(player=o)], clocks=Clocks())
    room.start_task()
    room.seated(0)
    room.seated(1)
    async with asyncio.timeout(10):
        await o.done.wait()
    result = o.result()
    assert result.winner is None and result.reason == "crashed: RuntimeError"
    assert result.violation is not None and result.violation.cause is Cause.CRASHED
    assert result.violation.seat is None and result.scores == (0, 0)


def test_a_broken_plugin_is_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     caplog: pytest.LogCaptureFixture) -> None:
    info = tmp_path / "gauntlet_broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gauntlet-broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nbroken = no_such_module_here:PLUGIN\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = GameRegistry.from_entry_points()
    assert "broken" not in registry and "swc_2027_blokus" in registry
    assert "game plugin broken" in caplog.text


def test_unknown_and_duplicate_games() -> None:
    registry = GameRegistry()
    with pytest.raises(UnknownGameType):
        registry.get("chess")
    plugin = GamePlugin("x", lambda seed: None)  # type: ignore[arg-type,return-value]
    registry.register(plugin)
    with pytest.raises(ValueError, match="twice"):
        registry.register(plugin)


def test_a_protocols_default_game_is_the_one_that_claims_it_or_the_only_one() -> None:
    def plugin(game_id: str, *claims: str) -> GamePlugin:
        return GamePlugin(game_id, lambda seed: None,  # type: ignore[arg-type,return-value]
                          protocols=frozenset({"sc"}), default_for=frozenset(claims))

    registry = GameRegistry([plugin("swc_2028_other")])
    assert registry.default_for("sc") == "swc_2028_other"  # the only one it seats
    registry.register(plugin("swc_2029_next"))
    assert registry.default_for("sc") is None  # two, and neither claims it
    registry.register(plugin("swc_2030_claimed", "sc"))
    assert registry.default_for("sc") == "swc_2030_claimed"
    assert registry.default_for("kettle") is None


async def test_in_process_players_play_any_game_and_a_raising_one_loses(installed: Path) -> None:
    """`server.rooms.inprocess`: a function answers each decision from the seat's view, in a
    worker thread; one that raises loses its seat, as a crashed bot process does."""
    from server.rooms.inprocess import IN_PROCESS, InProcessPlayer

    seen: list[tuple[Any, Any]] = []

    def first_free(view: Any, payload: Any) -> int:
        seen.append((view, payload))
        return int(payload[0])

    def broken(view: Any, payload: Any) -> int:
        raise ValueError("a bug in the bot")

    lobby = Lobby(games=GameRegistry.from_entry_points())
    for o_play, winner in ((first_free, 0), (broken, 0)):
        room, codes = lobby.prepare("tictactoe", [SlotRequest("x"), SlotRequest("o")],
                                    pause=False)
        x, o = InProcessPlayer(first_free, "x"), InProcessPlayer(o_play, "o")
        lobby.seated(lobby.join_prepared(x, codes[0], IN_PROCESS))
        lobby.seated(lobby.join_prepared(o, codes[1], IN_PROCESS))
        async with asyncio.timeout(10):
            await x.done.wait()
        assert room.result is not None and room.result.winner == winner
        if o_play is broken:
            assert room.result.violation is not None and room.result.violation.seat == 1
        else:
            assert room.result.reason == "three in a row"
    # Each answer came from the seat's own view and the decision's payload.
    view, payload = seen[0]
    assert view == (None,) * 9 and payload == tuple(range(9))
    with pytest.raises(Exception, match="cannot be played over sc"):
        room, codes = lobby.prepare("tictactoe", [SlotRequest("x"), SlotRequest("o")],
                                    pause=False)
        lobby.join_prepared(FirstFree(), codes[0], "sc")
    await lobby.close()
