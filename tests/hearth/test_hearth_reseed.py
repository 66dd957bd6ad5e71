"""`State.reseed`: a position keeps what is dealt, its later randomness comes from the new
stream (a match started from a stored position with fresh randomness)."""

from __future__ import annotations

from games import hearth


def _played(state: hearth.State, steps: int) -> hearth.State:
    for _ in range(steps):
        if state.is_over:
            break
        player = state.pending()[0]
        state.apply(state.legal_actions(player)[-1], player=player)
    return state


def test_reseed_keeps_the_position_and_changes_what_follows() -> None:
    same = hearth.new_game(seed=3)
    fresh = hearth.new_game(seed=3)
    before = fresh.hash()
    fresh.reseed(99)
    assert fresh.observation(1) == same.observation(1)
    assert fresh.rng.state != same.rng.state and before == same.hash()
    # The same seed again gives the same stream: reseeding is deterministic.
    again = hearth.new_game(seed=3)
    again.reseed(99)
    assert _played(again, 40).hash() == _played(fresh, 40).hash()
