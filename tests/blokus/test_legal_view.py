"""`legal_moves()` as a live view, and the masks validation reuses from the listing.

A listing keeps its generation masks on the state until the next push/pop, and
`validate()`/`apply()` start from them: a move from this very position's listing is
re-checked with a few ANDs. These tests make sure that nothing survives a change of
position: moves from other positions, from before a push, or after a pop are judged
against the position the state is in now, with the official mistake.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from itertools import chain

import pytest

from bench import socha_adapter as bridge
from games import blokus
from games.blokus import COLORS, IllegalMove, SetMove, SkipMove, State
from games.blokus.state import LegalMoveGenerator


def rebuilt(state: State) -> State:
    """The same position with nothing cached (built from what a memento carries)."""
    return State.from_snapshot(
        turn=state.turn,
        start_piece=state.start_piece,
        fields=state.fields(),
        undeployed={c: state.undeployed(c) for c in COLORS},
        valid_colors=state.valid_colors,
        last_move=state.last_move,
        last_move_mono=state.last_move_mono,
    )


def verdict(state: State, move: blokus.Move) -> str | None:
    try:
        state.validate(move)
    except IllegalMove as error:
        return error.mistake.name
    return None


def mid_game(seed: int, plies: int = 20) -> State:
    rng = random.Random(seed)
    state = blokus.new_game(seed=seed)
    for _ in range(plies):
        state.apply(rng.choice([m for m in state.legal_moves() if isinstance(m, SetMove)]))
    return state


# -- the view --------------------------------------------------------------------------


def test_view_counts_contains_and_iterates_like_the_list() -> None:
    state = mid_game(1)
    view = state.legal_moves()
    assert isinstance(view, LegalMoveGenerator)
    moves = list(view)
    lazily = list(chain.from_iterable(state._move_lists()))
    assert moves == lazily and all(a is b for a, b in zip(moves, lazily, strict=True))
    assert len(view) == view.count() == len(moves) == state.legal_placement_count() + 1
    assert list(iter(view)) == moves and [m for m in view] == moves
    assert bool(view) and moves[-1] == SkipMove(state.current_color)
    assert all(move in view for move in moves[:: max(1, len(moves) // 25)])
    assert SkipMove(state.current_color) in view
    other = COLORS[(COLORS.index(state.current_color) + 1) % 4]
    assert SkipMove(other) not in view
    assert SetMove(state.current_color, "MONO", x=-1, y=0) not in view
    assert "not a move" not in view and None not in view
    assert random.Random(3).choice(list(view)) in moves
    assert f"({len(moves)} moves of {state.current_color})" in repr(view)


def test_list_lists_once_and_iteration_stays_lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    state = mid_game(2)
    calls = {"bulk": 0, "lazy": 0}
    bulk, lazy = State._legal_list, State._move_lists

    def counting_bulk(self: State) -> list[blokus.Move]:
        calls["bulk"] += 1
        return bulk(self)

    def counting_lazy(self: State) -> Iterator[Iterable[blokus.Move]]:
        calls["lazy"] += 1
        return lazy(self)

    monkeypatch.setattr(State, "_legal_list", counting_bulk)
    monkeypatch.setattr(State, "_move_lists", counting_lazy)
    view = state.legal_moves()
    moves = list(view)  # list() takes the iterator, then asks len(): one listing
    assert calls == {"bulk": 1, "lazy": 0}
    assert len(view) == len(moves) and list(view) == moves
    assert calls == {"bulk": 1, "lazy": 0}, "the view kept its list"
    # A fresh view iterated without len(): one anchor at a time, no full list.
    first = next(iter(state.legal_moves()))
    assert first is moves[0] and calls == {"bulk": 1, "lazy": 1}
    # Truthiness and membership list nothing either.
    assert state.legal_moves() and moves[5] in state.legal_moves()
    assert calls == {"bulk": 1, "lazy": 1}


def test_view_is_live_across_push_pop_and_playouts() -> None:
    state = mid_game(3)
    view = state.legal_moves()
    before = list(view)
    state.push(before[0])
    after = list(state.legal_moves())
    assert list(view) == after and len(view) == len(after)
    assert state.pop() is before[0]
    assert list(view) == before
    clone = state.clone()
    clone.push(before[1])
    assert list(view) == before, "a clone's moves do not touch the original's view"
    blokus.random_playout(state, random.Random(1))
    assert state.is_over
    assert len(view) == 0 and not view and list(view) == [] and before[0] not in view


def test_game_over_and_first_moves() -> None:
    state = blokus.new_game("PENTO_L")
    view = state.legal_moves()
    assert SkipMove("BLUE") not in view and len(view) == state.legal_placement_count()
    assert all(isinstance(m, SetMove) and m.kind == "PENTO_L" for m in view)
    blokus.random_playout(state, random.Random(4))
    assert not state.legal_moves() and len(state.legal_moves()) == 0


# -- validation after the listing --------------------------------------------------------


def test_moves_from_before_a_push_are_checked_against_the_new_position() -> None:
    rng = random.Random(5)
    state = mid_game(5)
    for _ in range(30):
        if state.is_over:
            break
        stale = list(state.legal_moves())
        state.push(rng.choice(stale))
        fresh = rebuilt(state)
        for move in stale:
            assert verdict(state, move) == verdict(fresh, move), move
            assert state.is_legal(move) == fresh.is_legal(move)
        # Every verdict names a real mistake: none of the old colour's moves is legal now.
        assert not any(state.is_legal(move) for move in stale), "the colour changed"
        with pytest.raises(IllegalMove) as raised:
            state.apply(stale[0])
        assert raised.value.mistake.name == verdict(fresh, stale[0]) == "WRONG_COLOR"


def test_moves_of_the_same_colour_from_an_earlier_turn() -> None:
    """Same colour, four plies later: some old moves are now blocked, or their shape used."""
    rng = random.Random(6)
    state = mid_game(6)
    seen = set()
    for _ in range(12):
        if state.is_over:
            break
        old = list(state.legal_moves())
        for _ in range(4):
            if state.is_over:
                break
            state.apply(rng.choice(list(state.legal_moves())))
        if state.is_over:
            break
        list(state.legal_moves())  # the listing that keeps this position's masks
        fresh = rebuilt(state)
        for move in old:
            mistake = verdict(state, move)
            assert mistake == verdict(fresh, move), move
            seen.add(mistake)
    assert {None, "DUPLICATE_SHAPE", "OBSTRUCTED"} <= seen, seen


def test_pop_brings_the_old_moves_back_and_push_takes_them_away() -> None:
    state = mid_game(7)
    moves = [m for m in state.legal_moves() if isinstance(m, SetMove)]
    first = moves[0]
    # A placement of the same shape at another anchor shares no cells with `first`, but
    # after `first` is pushed the colour has used the shape: DUPLICATE_SHAPE (next time
    # it is this colour's turn), and first itself is then OBSTRUCTED.
    state.push(first)
    while state.current_color != first.color and not state.is_over:
        state.push(next(m for m in state.legal_moves() if isinstance(m, SkipMove)))
    assert state.current_color == first.color
    assert verdict(state, first) == verdict(rebuilt(state), first) == "DUPLICATE_SHAPE"
    for _ in range(4):
        state.pop()
    assert state.current_color == first.color
    assert all(state.is_legal(m) for m in moves), "after pop, the old list is legal again"
    state.apply(first)


def test_moves_from_another_game_are_judged_here_with_socha_agreeing() -> None:
    rng = random.Random(8)
    here = mid_game(8, plies=24)
    elsewhere = mid_game(9, plies=24)
    while elsewhere.current_color != here.current_color:
        elsewhere.apply(rng.choice(list(elsewhere.legal_moves())))
    list(here.legal_moves())
    theirs = bridge.socha_state_of(here)
    foreign = [m for m in elsewhere.legal_moves() if isinstance(m, SetMove)]
    assert foreign
    agree = 0
    for move in foreign:
        ours = verdict(here, move)
        assert ours == verdict(rebuilt(here), move), move
        official = bridge.socha_mistake(theirs, move)
        if ours is None or official is None:
            assert ours == official, move
        agree += ours == official
    assert agree > 0


def test_apply_refuses_foreign_moves_and_leaves_the_state_alone() -> None:
    here = mid_game(10)
    other = mid_game(11)
    key = here._key()
    listed = list(here.legal_moves())
    for move in other.legal_moves():
        if move in listed:
            continue
        with pytest.raises(IllegalMove):
            here.apply(move)
        assert here._key() == key
    here.apply(listed[len(listed) // 2])
    assert here.turn == rebuilt(here).turn


def test_a_colour_alone_in_the_game_gets_new_masks_after_its_own_move() -> None:
    """With the other colours out, the next turn is the same colour's: its masks must be
    recomputed after the push, not reused from the listing before it."""
    played = mid_game(12)
    alone = State.from_snapshot(
        turn=played.turn,
        start_piece=played.start_piece,
        fields=played.fields(),
        undeployed={c: played.undeployed(c) for c in COLORS},
        valid_colors=[played.current_color],
    )
    moves = [m for m in alone.legal_moves() if isinstance(m, SetMove)]
    first = moves[0]
    overlapping = [m for m in moves if m.kind != first.kind and m.mask & first.mask]
    touching = [
        m
        for m in moves
        if m.kind != first.kind
        and not m.mask & first.mask
        and m.mask & blokus.edge_neighbours(first.mask)
    ]
    assert overlapping and touching
    alone.push(first)
    assert alone.current_color == first.color
    for move in overlapping + touching:
        assert verdict(alone, move) == verdict(rebuilt(alone), move) is not None, move
    # (An overlapping move may hit a cell next to `first` before one of its cells: the
    # official loop reports whichever cell comes first.)
    assert {verdict(alone, m) for m in overlapping} <= {"OBSTRUCTED", "TOUCHES_SAME_COLOR"}
    assert {verdict(alone, m) for m in touching} == {"TOUCHES_SAME_COLOR"}
    assert not any(m in alone.legal_moves() for m in overlapping + touching)
    alone.pop()
    assert all(m in alone.legal_moves() for m in overlapping + touching)
