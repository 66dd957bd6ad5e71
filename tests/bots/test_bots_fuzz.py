"""Whatever a server sends, the kit's session fails only with a KitError (never a crash)."""

from __future__ import annotations

import functools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.blokus import GreedyBot, KitError, RandomBot
from bots.blokus.kit import BotSession
from games import blokus
from protocols.sc import ServerConnection
from protocols.sc import messages as m


@functools.cache
def transcript(seed: int) -> bytes:
    """A plausible server stream: join, welcome, a few mementos and requests, result, left."""
    rng = random.Random(seed)
    server = ServerConnection()
    state = blokus.new_game(seed=seed)
    data = server.send(m.Joined("r")) + server.send(m.Welcome("r", "ONE"))
    for _ in range(rng.randrange(1, 6)):
        data += server.send(m.Memento("r", state.clone())) + server.send(m.MoveRequest("r"))
        state.apply(rng.choice(list(state.legal_moves())))
    scores = (m.PlayerScore("ONE", (2, 10)), m.PlayerScore("TWO", (0, 5)))
    data += server.send(m.Result("r", scores, m.Winner("x", True, "ONE")))
    return data + server.send(m.Left("r")) + server.close()


def feed(data: bytes, chunk: int, bot_seed: int) -> None:
    bot = GreedyBot(bot_seed) if bot_seed % 2 else RandomBot(bot_seed)
    session = BotSession(bot, check_moves=bool(bot_seed % 3))
    session.start()
    try:
        for start in range(0, len(data), chunk):
            session.receive_data(data[start:start + chunk])
        session.receive_data(b"")
    except KitError:
        assert isinstance(session.abort(), bytes)  # polite closing bytes, never a crash


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000), st.integers(1, 64), st.integers(0, 5))
def test_random_bytes(data: bytes, chunk: int, bot_seed: int) -> None:
    feed(b"<protocol>" + data, chunk, bot_seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)),
                                        max_size=8), st.integers(1, 4096), st.integers(0, 5))
def test_mutated_transcripts(seed: int, flips: list[tuple[int, int]], chunk: int,
                             bot_seed: int) -> None:
    data = bytearray(transcript(seed % 8))
    for position, value in flips:
        data[position % len(data)] = value
    feed(bytes(data), chunk, bot_seed)


def test_unmutated_transcript_finishes() -> None:
    session = BotSession(RandomBot(1))
    session.start()
    session.receive_data(transcript(3))
    assert session.finished and session.outcome is not None and session.outcome.won
