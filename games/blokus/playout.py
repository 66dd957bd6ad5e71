"""Fast random playouts for search bots (Monte-Carlo rollouts).

A playout needs one uniformly random legal placement per ply, not the list of all of
them, so it samples: draw a candidate from the anchors' candidate lists and keep it if it
is legal and the anchor is the first one it covers (each placement then has exactly one
chance to be drawn). After a few misses it falls back to full generation, so the choice is
always uniform over the legal placements, like choosing from `legal_moves()`.
"""

from __future__ import annotations

import random
from bisect import bisect_right

from games.blokus import tables as T
from games.blokus.moves import SetMove
from games.blokus.state import ALL_SHAPES, TURN_LIMIT, State, _move_of

# Misses before falling back to generating every placement; about a third of the
# candidates are accepted, so the fallback is rare.
_MAX_DRAWS = 24


def random_placement(state: State, rng: random.Random) -> int | None:
    """The id of a uniformly random legal placement of the colour to move, or None."""
    color = state._turn % 4
    bits = state._undeployed[color]
    if not bits:
        return None
    draw = rng.random
    if bits == ALL_SHAPES:
        occupied = state._occupied
        start = T.start_placements(state._start)
        for _ in range(_MAX_DRAWS):
            mask, pid = start[int(draw() * len(start))]
            if not mask & occupied:
                return pid
    else:
        _, _, anchors, shifted, deployed = state._masks(color)
        by_pattern = T.BY_PATTERN
        local_mask = T.LOCAL_MASK
        window = T.WINDOW
        pattern_shift = T.PATTERN_SHIFT
        low_bit = T.LOCAL_SHIFT + 1
        lists = []
        lows = []
        ends = []
        total = 0
        remaining = anchors << T.LOCAL_SHIFT
        while remaining:
            low = remaining & -remaining
            cell = low.bit_length() - low_bit
            pattern = (shifted >> (cell + pattern_shift)) & window
            found = by_pattern[cell].get(pattern)
            if found is None:
                found = T.candidates(cell, pattern)
            if found:
                lists.append(found)
                lows.append(low)
                total += len(found)
                ends.append(total)
            remaining ^= low
        if not total:
            return None
        # Anchors before the drawn one count as forbidden: a placement is only drawn
        # through the first anchor it covers.
        shifted_anchors = anchors << T.LOCAL_SHIFT
        for _ in range(_MAX_DRAWS):
            index = int(draw() * total)
            which = bisect_right(ends, index)
            found = lists[which]
            mask, r = found[index - ends[which] + len(found)]
            low = lows[which]
            cell = low.bit_length() - low_bit
            blocked = (shifted | (shifted_anchors & (low - 1))) >> cell
            if mask & ((blocked & local_mask) | deployed):
                continue
            return T.PID_AT[cell][r]
    pids = state._placement_ids(color)
    return rng.choice(pids) if pids else None


def random_playout(state: State, rng: random.Random, record: list[SetMove] | None = None) -> State:
    """Play uniformly random placements until the game is over; returns `state` (mutated).

    A colour never passes voluntarily: when it has no placement it is eliminated by the
    official bookkeeping anyway, so passing would only stretch the game. Pass a clone if
    the original is still needed. `pop()` cannot undo these moves (the undo stack is
    emptied); pass a list as `record` to get them (replaying them with `apply()` gives the
    same final state).

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
    last_pid = -1
    last_color = -1
    changed = False
    while state._valid and state._turn < TURN_LIMIT:
        color = state._turn % 4
        pid = random_placement(state, rng)
        if pid is None:
            # The official bookkeeping eliminates a colour when its turn comes and it
            # cannot place anything: finding no placement here is exactly that check.
            state._remove_active_color()
            changed = True
            continue
        mask = p_mask[pid]
        boards[color] |= mask
        state._occupied |= mask
        shape = p_shape[pid]
        bits = undeployed[color] & ~(1 << shape)
        undeployed[color] = bits
        if not bits:
            mono[color] = shape == 0
        state._gen = None  # the board changed: the next colour's masks are new
        last_pid, last_color = pid, color
        changed = True
        if record is not None:
            record.append(_move_of(color, pid))
        state._advance()
    if changed:
        state._version += 1  # views of the old position must list again
        # Stopped by the turn limit: finish the elimination the last move started.
        state._remove_invalid_colors()
        # The undo stack no longer matches the position: make pop() fail loudly.
        state._stack = None
    if last_pid >= 0:
        state._last_move = _move_of(last_color, last_pid)
    return state
