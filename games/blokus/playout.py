"""Fast random playouts for search bots (Monte-Carlo rollouts)."""

from __future__ import annotations

import random

from games.blokus import tables as T
from games.blokus.state import ALL_SHAPES, State


def random_playout(state: State, rng: random.Random) -> State:
    """Play uniformly random placements until the game is over; returns `state` (mutated).

    A colour never passes voluntarily: when it has no placement it is eliminated by the
    official bookkeeping anyway, so passing would only stretch the game. Pass a clone if
    the original is still needed. The moves are not recorded (`pop()` cannot undo them).

    >>> from games.blokus import new_game
    >>> final = random_playout(new_game(seed=1), random.Random(1))
    >>> final.is_over
    True
    """
    boards = state._boards
    undeployed = state._undeployed
    mono = state._mono
    p_mask = T.P_MASK
    p_shape = T.P_SHAPE
    placement_ids = state._placement_ids
    choice = rng.choice
    last_pid = -1
    last_color = -1
    while state._valid and state._turn < 96:
        color = state._turn % 4
        pids = placement_ids(color)
        if not pids:
            # Only reachable from a hand-made snapshot: the bookkeeping below never leaves
            # a colour without placements on move.
            state._remove_invalid_colors()
            continue
        pid = choice(pids)
        mask = p_mask[pid]
        boards[color] |= mask
        state._occupied |= mask
        shape = p_shape[pid]
        bits = undeployed[color] & ~(1 << shape)
        undeployed[color] = bits
        if not bits:
            mono[color] = shape == 0
        last_pid, last_color = pid, color
        state._advance()
        state._remove_invalid_colors()
    if last_pid >= 0:
        from games.blokus.state import _move_of

        state._last_move = _move_of(last_color, last_pid)
    assert ALL_SHAPES  # the module constant is part of the contract of _placement_ids
    return state
