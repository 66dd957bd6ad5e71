"""The stored pairs of a test: counted once, in order, and the figures replayed from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.sprt import Tally
from server.store import Store
from server.store.models import PairStatus, SprtStatus, SprtTest
from server.store.sprt import SprtStore
from stats import SequentialTest


@pytest.fixture
def tests(tmp_path: Path) -> SprtStore:
    store = Store(f"sqlite:///{tmp_path / 'sprt.db'}")
    store.upgrade()
    return SprtStore(store)


def _test(tests: SprtStore, **fields: object) -> SprtTest:
    values: dict[str, object] = {"game": "g", "name_a": "a", "name_b": "b", "elo0": 0,
                                 "elo1": 5, "alpha": 0.05, "beta": 0.05, "max_games": 100,
                                 "seed": 7, **fields}
    row = SprtTest(**values)  # type: ignore[arg-type]
    return tests.create_test(row)


def _play(tests: SprtStore, test_id: int, first: str, second: str) -> int:
    pair = tests.claim_pair(test_id, lambda n: 1000 + n)
    assert pair is not None
    tests.set_game(test_id, pair.pair, 0, match_id=f"m{pair.pair}a")
    tests.set_game(test_id, pair.pair, 0, result=first)
    tests.set_game(test_id, pair.pair, 1, match_id=f"m{pair.pair}b")
    tests.set_game(test_id, pair.pair, 1, result=second)
    return pair.pair


def test_a_pair_is_counted_once_and_in_order(tests: SprtStore) -> None:
    row = _test(tests)
    assert row.id is not None
    first = _play(tests, row.id, "W", "D")
    second = _play(tests, row.id, "L", "L")
    assert tests.count_pair(row.id, second) == 0
    assert tests.count_pair(row.id, first) == 1
    assert tests.count_pair(row.id, first) == 1  # again: the same position, nothing new
    counted = tests.counted(row.id)
    assert [(p.pair, p.position) for p in counted] == [(second, 0), (first, 1)]
    assert [p.seed for p in counted] == [1000 + second, 1000 + first]
    assert counted[0].attempts == 2


def test_a_pair_without_both_results_is_not_counted(tests: SprtStore) -> None:
    row = _test(tests)
    assert row.id is not None
    pair = tests.claim_pair(row.id, lambda n: n)
    assert pair is not None
    tests.set_game(row.id, pair.pair, 0, result="W")
    assert tests.count_pair(row.id, pair.pair) is None
    tests.leave_out(row.id, pair.pair, PairStatus.INCOMPLETE)
    tests.set_game(row.id, pair.pair, 1, result="W")
    assert tests.count_pair(row.id, pair.pair) is None  # left out stays left out
    assert tests.status_counts(row.id) == {"incomplete": 1}


def test_a_restart_queues_the_pairs_being_played_and_keeps_their_results(
        tests: SprtStore) -> None:
    row = _test(tests)
    assert row.id is not None
    pair = tests.claim_pair(row.id, lambda n: 5)
    assert pair is not None
    tests.set_game(row.id, pair.pair, 0, match_id="x", result="D")
    assert tests.requeue_playing(row.id) == 1
    again = tests.claim_pair(row.id)  # the queued pair first, no new one
    assert again is not None and again.pair == pair.pair
    assert (again.result_0, again.match_0, again.result_1) == ("D", "x", None)
    assert tests.claim_pair(row.id) is None  # nothing queued, no seed for a new one


def test_the_end_of_a_test_cancels_its_pairs_left_and_stands(tests: SprtStore) -> None:
    row = _test(tests)
    assert row.id is not None
    counted = _play(tests, row.id, "W", "W")
    tests.count_pair(row.id, counted)
    tests.claim_pair(row.id, lambda n: n)
    assert tests.finish_test(row.id, SprtStatus.STOPPED, "enough")
    assert not tests.finish_test(row.id, SprtStatus.H1)  # the first end stands
    ended = tests.get_test(row.id)
    assert (ended.status, ended.reason) == ("stopped", "enough")
    assert ended.finished is not None
    assert tests.status_counts(row.id) == {"counted": 1, "cancelled": 1}


def test_the_tally_replays_the_stored_pairs_as_the_test_saw_them(tests: SprtStore) -> None:
    row = _test(tests, elo1=50)
    assert row.id is not None
    results = [("W", "W"), ("W", "D"), ("L", "W"), ("W", "W"), ("D", "D")] * 4
    reference = SequentialTest(0, 50, max_games=100)
    for first, second in results:
        tests.count_pair(row.id, _play(tests, row.id, first, second))
        reference.add_pair(first, second)
    tally = Tally(row)
    tally.add(tests.counted(row.id)[:7])
    tally.add(tests.counted(row.id, after=tally.position))
    assert tally.test.counts == reference.counts
    assert tally.test.llr == pytest.approx(reference.llr)
    assert tally.test.state is reference.state
    assert tally.test.decided_at == reference.decided_at
    assert len(tally.history) == len(results) + 1
    figures = tally.figures()
    assert (figures["wins"], figures["draws"], figures["losses"]) == (24, 12, 4)
    with pytest.raises(ValueError, match="position"):
        Tally(row).add(tests.counted(row.id)[1:])  # a gap is refused, never skipped


def test_no_pair_is_claimed_or_left_out_after_the_test_ended(tests: SprtStore) -> None:
    """A claim or a leave-out racing a stop (the runner's thread against the API's) changes
    nothing after it: no pair is left `playing` by a stopped test."""
    row = _test(tests)
    assert row.id is not None
    pair = tests.claim_pair(row.id, lambda n: n)
    assert pair is not None
    tests.finish_test(row.id, SprtStatus.STOPPED, "stop")
    assert tests.claim_pair(row.id, lambda n: n) is None
    tests.leave_out(row.id, pair.pair, PairStatus.INCOMPLETE)
    assert tests.status_counts(row.id) == {"cancelled": 1}
