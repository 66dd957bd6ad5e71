"""The sans-I/O ``BotSession`` against a server made by hand (``hearth_kit_server``): the
frames a Kettle server sends, built with the codec from a real engine game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hearth_kit_server import HandServer, engine_view

from bots.hearth import (
    Bot,
    BotFailed,
    BotSession,
    EntityTree,
    GreedyBot,
    RandomBot,
    ServerClosed,
    ServerProtocolError,
    ServerRefused,
)
from bots.hearth.kit import parse_reservation
from games.hearth import END_TURN, Action, Kind, State
from protocols.kettle import (
    ClientConnection,
    Concede,
    GameJoined,
    HistoryBlock,
    JoinGame,
    Nack,
    QueuePlayer,
    ServerConnection,
)


class Recorder(Bot):
    """Random play that records what it was shown and checks it against the engine."""

    def __init__(self, seed: int, server: HandServer) -> None:
        self.inner = RandomBot(seed)
        self.server = server
        self.player = 0
        self.decisions = 0
        self.mulligans = 0
        self.outcome: Any = None

    def on_start(self, player: int) -> None:
        self.player = player

    def mulligan(self, state: Any, choices: Sequence[int]) -> list[int]:
        self.mulligans += 1
        assert sorted(choices) == sorted(self.server.game.legal_actions(self.player)[-1].cards)
        return self.inner.mulligan(state, choices)

    def act(self, state: Any, options: Sequence[Action]) -> Action:
        self.decisions += 1
        g = self.server.game
        assert g.current == self.player
        assert list(options) == g.legal_actions(self.player)  # same actions, same order
        session_tree = self.server.sessions[self.player].tree
        assert session_tree.snapshot() == engine_view(g, self.player)
        if isinstance(state, State):  # the engine rebuilt it (State.from_view)
            assert state.legal_actions() == list(options)
        else:
            assert state is session_tree
        return self.inner.act(state, options)

    def on_result(self, outcome: Any) -> None:
        self.outcome = outcome


def tree_view(tree: EntityTree, player: int) -> EntityTree:
    return tree


def play_by_hand(seed: int, chunk: int | None = None, tree_only: bool = False
                 ) -> tuple[HandServer, dict[int, BotSession]]:
    server = HandServer(seed)
    # Recorder.act compares the tree with the engine's view at every decision.
    view = tree_view if tree_only else None
    sessions = {p: BotSession(Recorder(seed + p, server), view=view) for p in (1, 2)}
    server.sessions = sessions
    server.pump(sessions, chunk=chunk)
    return server, sessions


@pytest.mark.parametrize(("seed", "tree_only"), [(s, s % 2 == 1) for s in range(6)])
def test_a_whole_game_by_hand(seed: int, tree_only: bool) -> None:
    server, sessions = play_by_hand(seed, tree_only=tree_only)
    g = server.game
    result = g.result()
    assert result is not None
    for p in (1, 2):
        session = sessions[p]
        bot = session.bot
        assert isinstance(bot, Recorder)
        assert session.finished and session.game_id == "g1" and session.player == p
        assert session.tree.snapshot() == engine_view(g, p)
        assert bot.mulligans == 1 and bot.decisions > 0
        assert session.outcome is not None and session.outcome == bot.outcome
        assert session.outcome.winner == result.winner
        assert session.outcome.won == (result.winner == p)
        assert session.outcome.reason == result.reason
    assert sum(s.options_answered for s in sessions.values()) == sum(
        1 for a in server.applied if a.kind != Kind.MULLIGAN)


def test_bytes_may_arrive_one_at_a_time() -> None:
    whole, _ = play_by_hand(11)
    split, _ = play_by_hand(11, chunk=1)
    assert split.applied == whole.applied
    assert split.game.hash() == whole.game.hash()


def test_the_first_message_queues_or_joins() -> None:
    server = ServerConnection()
    server.receive_data(BotSession(RandomBot(1)).start())
    assert server.next_event() == QueuePlayer("hearth-random", None, None)
    deck = ("HERO_08", ["CS2_182"] * 30)
    server.receive_data(BotSession(RandomBot(1), deck=deck, account_name="me").start())
    assert server.next_event() == QueuePlayer("me", "HERO_08", ("CS2_182",) * 30)
    server.receive_data(BotSession(RandomBot(1), reservation=("g2", "pw")).start())
    assert server.next_event() == JoinGame("g2", "pw")
    assert parse_reservation("g2:pw") == ("g2", "pw")


def test_a_refused_seat_is_a_clear_error() -> None:
    session = BotSession(RandomBot(1), reservation="g9:wrong")
    session.start()
    frame = ServerConnection().send(Nack("kettle:types/join_game", "no_such_game", "no game g9"))
    with pytest.raises(ServerRefused, match="no_such_game"):
        session.receive_data(frame)


def test_the_server_hanging_up_early_is_a_clear_error() -> None:
    session = BotSession(RandomBot(1))
    session.start()
    assert session.receive_data(ServerConnection().send(GameJoined("g1", 1)))  # get_game_state
    with pytest.raises(ServerClosed, match="before the game was over"):
        session.receive_data(b"")
    assert session.abort() == ClientConnection().send(Concede())
    assert session.abort() == b""  # once


def test_garbage_from_the_server_is_a_protocol_error() -> None:
    session = BotSession(RandomBot(1))
    session.start()
    with pytest.raises(ServerProtocolError):
        session.receive_data(b"\x00\x00\x00\x03abc")


def test_history_naming_unknown_entities_is_a_protocol_error() -> None:
    session = BotSession(RandomBot(1))
    session.start()
    server = ServerConnection()
    session.receive_data(server.send(GameJoined("g1", 1)))
    bad = {"type": "kettle:types/history/tag_change",
           "tag_change": {"entityID": 99, "tag": 49, "value": 1}}
    with pytest.raises(ServerProtocolError, match="entity 99"):
        session.receive_data(server.send(HistoryBlock([bad])))


class Cheat(Bot):
    def act(self, state: Any, options: Sequence[Action]) -> Action:
        return Action(Kind.ATTACK, 1, 1)


class Crash(Bot):
    def act(self, state: Any, options: Sequence[Action]) -> Action:
        raise RuntimeError("oops")


@pytest.mark.parametrize(("bot", "match"), [(Cheat(), "not one of its options"),
                                            (Crash(), "RuntimeError: oops")])
def test_a_failing_bot_is_named(bot: Bot, match: str) -> None:
    server = HandServer(3)
    sessions = {1: BotSession(bot), 2: BotSession(bot)}
    with pytest.raises(BotFailed, match=match):
        server.pump(sessions)


def test_a_mulligan_outside_the_choices_fails() -> None:
    class Greedy(Bot):
        def mulligan(self, state: Any, choices: Sequence[int]) -> list[int]:
            return [*choices, 999]

        def act(self, state: Any, options: Sequence[Action]) -> Action:
            return END_TURN

    server = HandServer(3)
    with pytest.raises(BotFailed, match="not a subset"):
        server.pump({1: BotSession(Greedy()), 2: BotSession(Greedy())})


def test_options_are_answered_with_index_target_and_position() -> None:
    seen = set()
    for seed in range(3):
        server = HandServer(seed)
        server.pump({p: BotSession(RandomBot(seed + p)) for p in (1, 2)})
        for answer, action in server.chosen:
            assert answer.sub_option_index is None
            assert (answer.option_index == 0) == (action.kind == Kind.END_TURN)
            assert answer.target == (action.target or None)
            minion_play = action.kind == Kind.PLAY and action.position >= 0
            # position is the ZONE_POSITION the minion takes (1 = leftmost), not an index
            assert answer.position == (action.position + 1 if minion_play else None)
            seen.add((action.kind, bool(action.target), minion_play))
    assert {(Kind.PLAY, False, True), (Kind.ATTACK, True, False), (Kind.END_TURN, False, False),
            (Kind.POWER, True, False)} <= seen



def test_the_bot_gets_an_engine_state_whose_legal_actions_are_its_options() -> None:
    class Checking(GreedyBot):
        def act(self, state: Any, options: Sequence[Action]) -> Action:
            assert isinstance(state, State)
            assert state.legal_actions() == list(options)
            return super().act(state, options)

    server = HandServer(8)
    server.pump({1: BotSession(Checking(1)), 2: BotSession(RandomBot(2))})
    assert server.game.is_over


def test_greedy_beats_random_through_the_kit() -> None:
    wins = 0
    for seed in range(10):
        greedy_seat = 1 + seed % 2
        server = HandServer(seed)
        bots = {greedy_seat: GreedyBot(seed), 3 - greedy_seat: RandomBot(seed)}
        server.pump({p: BotSession(bot) for p, bot in bots.items()})
        result = server.game.result()
        assert result is not None
        wins += result.winner == greedy_seat
    assert wins >= 8
