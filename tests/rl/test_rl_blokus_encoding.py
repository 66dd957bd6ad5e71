"""The numbers of `games.blokus.rl_encoding`: action indices both ways, masks, observations.

Masks are compared with the engine's own `legal_moves()` over whole random games, every
(rotation, flipped) spelling of a placement must give its one index, and the observation
of a position is the same whether the position comes from the environment, from a server
room's game, or from the Software-Challenge memento a bot receives.
"""

from __future__ import annotations

import doctest
import importlib
import random

import numpy as np
import pytest
from lxml import etree

from games import blokus
from games.blokus import COLORS, ROTATIONS, SHAPES, SetMove, SkipMove
from games.blokus import rl_encoding as E
from games.blokus.shapes import COLOR_INDEX
from protocols.sc.blokus import state_from_element, state_text
from server.games.blokus.room import BlokusGame


def random_games(count: int, first_seed: int = 0) -> list[list[blokus.State]]:
    """Seeded random games (passes included) as the list of their positions."""
    games = []
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        state = blokus.new_game(seed=seed)
        states = [state.clone()]
        while not state.is_over:
            state.apply(rng.choice(list(state.legal_moves())))
            states.append(state.clone())
        games.append(states)
    return games


GAMES = random_games(6)


@pytest.mark.parametrize("name", ["games.blokus.rl_encoding", "games.blokus.env",
                                  "games.blokus.rl_batched", "games.blokus.rl_openspiel"])
def test_doctests(name: str) -> None:
    if name.endswith("openspiel"):
        pytest.importorskip("pyspiel")
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_every_index_round_trips() -> None:
    """action_of(move_of(a)) == a for all 30,434 indices, for every colour."""
    state = blokus.new_game("PENTO_X")
    assert E.ACTION_COUNT == E.PLACEMENT_COUNT + 1 == 30434
    for color in range(4):
        state._turn = color
        for action in range(E.ACTION_COUNT):
            move = E.move_of(action, state)
            assert move.color == COLORS[color]
            assert E.action_of(move) == action
        assert E.move_of(E.SKIP_ACTION, state) == SkipMove(COLORS[color])


def test_all_spellings_of_a_placement_give_one_index() -> None:
    """The 8 (rotation, flipped) spellings of each shape at each fitting position: the
    distinct cell sets are exactly the indices, and each set has one."""
    seen: dict[frozenset[tuple[int, int]], int] = {}
    for kind in SHAPES:
        for rotation in ROTATIONS:
            for flipped in (False, True):
                for x in range(0, 20, 3):
                    for y in range(0, 20, 3):
                        move = SetMove("BLUE", kind, rotation, flipped, x=x, y=y)
                        if move.mask < 0:
                            with pytest.raises(ValueError, match="does not fit"):
                                E.action_of(move)
                            continue
                        action = E.action_of(move)
                        assert seen.setdefault(move.cells, action) == action
                        kind_, rotation_, flipped_, x_, y_ = E.action_fields(action)
                        assert SetMove("RED", kind_, rotation_, flipped_, x=x_, y=y_).cells \
                            == move.cells
    assert len(set(seen.values())) == len(seen)


def test_indices_are_ordered_shape_by_shape() -> None:
    firsts = E.SHAPE_FIRST_ACTION
    assert firsts[0] == 0 and list(firsts) == sorted(firsts)
    for shape, first in enumerate(firsts):
        assert E.action_fields(first)[0] == SHAPES[shape]
        if shape:
            assert E.action_fields(first - 1)[0] == SHAPES[shape - 1]


@pytest.mark.parametrize("bad", [-1, E.ACTION_COUNT, 10**9, 1.0, "3", None, True,
                                 np.float32(2)])
def test_bad_indices_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        E.check_action(bad)
    with pytest.raises(ValueError):
        E.move_of(bad, blokus.new_game("PENTO_X"))  # type: ignore[arg-type]


def test_numpy_integers_are_indices() -> None:
    assert E.check_action(np.int32(5)) == 5 == E.check_action(np.int64(5))


def test_mask_is_legal_moves_in_every_position() -> None:
    for states in GAMES:
        for state in states:
            mask = E.action_mask(state)
            assert mask.dtype == np.int8 and mask.shape == (E.ACTION_COUNT,)
            expected = sorted(E.action_of(move) for move in state.legal_moves())
            assert np.flatnonzero(mask).tolist() == expected == E.legal_actions(state)
            if state.is_over:
                assert not mask.any()


def test_observation_layout() -> None:
    high = E.observation_high()
    for states in GAMES[:3]:
        for state in states:
            for team in ("ONE", "TWO", "team_1", "team_2"):
                key = state._key()
                obs = E.observe(state, team)
                assert state._key() == key  # pure
                assert obs.shape == (E.OBSERVATION_SIZE,) and obs.dtype == np.uint8
                assert (obs <= high).all()
                me = E.perspective_color(state, team)
                assert me % 2 == E.team_index(team)
                order = [(me + k) % 4 for k in range(4)]
                planes = E.board_planes(obs)
                for x, y, color in state.fields():
                    assert planes[order.index(COLOR_INDEX[color]), y, x] == 1
                assert planes.sum() == len(state.fields())
                pieces = obs[E.PIECES].reshape(4, len(SHAPES))
                points = obs[E.POINTS]
                in_game = obs[E.IN_GAME]
                for k, color in enumerate(order):
                    left = state.undeployed(COLORS[color])
                    assert [SHAPES[s] for s in np.flatnonzero(pieces[k])] == list(left)
                    assert points[k] == state.points(COLORS[color])
                    assert in_game[k] == (COLORS[color] in state.valid_colors)
                assert obs[E.PERSPECTIVE].tolist() == [int(c == me) for c in range(4)]
                assert obs[E.TO_MOVE] == int(state.turn % 4 == me)
                assert obs[E.ROUND] == min(state.round, 25)
                assert SHAPES[int(np.flatnonzero(obs[E.START_PIECE])[0])] == state.start_piece


def test_perspective_of_the_team_to_move_is_the_colour_to_move() -> None:
    state = blokus.new_game("PENTO_U")
    assert E.perspective_color(state, "ONE") == 0  # BLUE moves
    assert E.perspective_color(state, "TWO") == 1  # YELLOW moves next
    state.apply(next(iter(state.legal_moves())))
    assert E.perspective_color(state, "TWO") == 1 and E.perspective_color(state, "ONE") == 2
    with pytest.raises(ValueError, match="unknown team"):
        E.observe(state, "THREE")


def test_the_same_position_from_a_server_room_and_from_a_memento() -> None:
    """A server room's game with seed s, played with the same moves, and the state a bot
    parses from the memento it gets, observe and mask exactly as the environment does."""
    from games.blokus.env import raw_env

    env = raw_env()
    for seed in (3, 11):
        env.reset(seed=seed)
        room = BlokusGame(seed=seed)
        rng = random.Random(seed)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            for team, name in (("ONE", "team_1"), ("TWO", "team_2")):
                ours = env.observe(name)["observation"]
                assert np.array_equal(ours, E.observe(room.state, team))
                parsed = state_from_element(etree.fromstring(state_text(env.state)))
                assert np.array_equal(ours, E.observe(parsed, team))
            assert np.array_equal(env.observe(agent)["action_mask"], E.action_mask(room.state))
            action = rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist())
            room.apply(next(iter(room.pending())), E.move_of(action, room.state))
            env.step(action)
        assert room.is_over
