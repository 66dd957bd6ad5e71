"""The queries the API needs, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from server.store import (
    Conflict,
    JSONText,
    Match,
    MatchStatus,
    NewEvent,
    NewSeat,
    NotFound,
    Seat,
    SeatOutcome,
    Store,
    StoreError,
    encode_json,
)


def test_bots_crud(store: Store) -> None:
    a = store.create_bot("alpha", "blokus", ["python", "a.py", "--fast"], workdir="/bots/a",
                         env={"SEED": "1"})
    b = store.create_bot("beta", "hearth", ["./beta"])
    assert a.id is not None and b.id is not None and a.id != b.id
    assert store.get_bot(a.id) == a
    assert store.get_bot_by_name("beta") == b
    assert [x.name for x in store.list_bots()] == ["alpha", "beta"]
    assert [x.name for x in store.list_bots(game="hearth")] == ["beta"]
    with pytest.raises(Conflict):
        store.create_bot("alpha", "hearth", ["x"])
    changed = store.update_bot(a.id, command=["python", "a2.py"], workdir=None)
    assert changed.command == ["python", "a2.py"] and changed.workdir is None
    assert changed.env == {"SEED": "1"} and changed.name == "alpha"
    with pytest.raises(Conflict):
        store.update_bot(a.id, name="beta")
    with pytest.raises(NotFound):
        store.update_bot(12345, name="x")
    assert store.delete_bot(b.id) is True
    assert store.delete_bot(b.id) is False
    assert store.get_bot(b.id) is None


def test_deleting_a_bot_keeps_its_matches(store: Store) -> None:
    bot = store.create_bot("gone", "blokus", ["x"])
    assert bot.id is not None
    match = store.create_match("blokus", [NewSeat("gone", bot.id), NewSeat("other")])
    store.delete_bot(bot.id)
    seats = store.seats(match.id)
    assert [(s.index, s.display_name, s.bot_id) for s in seats] == [
        (0, "gone", None), (1, "other", None)]


def test_create_and_get_a_match(store: Store) -> None:
    seed = 2**63 - 1
    match = store.create_match("blokus", [NewSeat("a", reservation="r-0"), NewSeat("b")],
                               seed=seed, options={"timeout": 2.0, "names": ["a", "b"]})
    assert len(match.id) == 36
    got = store.get_match(match.id)
    assert got is not None
    assert (got.game, got.status, got.seed, got.options, got.attempt) == (
        "blokus", "waiting", seed, {"timeout": 2.0, "names": ["a", "b"]}, 1)
    assert got.started is None and got.finished is None
    assert [(s.index, s.display_name, s.reservation) for s in store.seats(match.id)] == [
        (0, "a", "r-0"), (1, "b", None)]
    assert store.get_match("missing") is None
    with pytest.raises(Conflict):
        store.create_match("blokus", match_id=match.id)
    with pytest.raises(Conflict):  # no such bot: the foreign key says no
        store.create_match("blokus", [NewSeat("ghost", bot_id=999)])


def test_list_matches_filters_and_pages(store: Store) -> None:
    a = store.create_bot("a", "blokus", ["a"])
    b = store.create_bot("b", "hearth", ["b"])
    start = datetime(2030, 1, 1, tzinfo=UTC)
    ids: list[str] = []
    for i in range(12):
        game = "blokus" if i % 3 else "hearth"
        bot = a if game == "blokus" else b
        match = store.create_match(game, [NewSeat("x", bot.id), NewSeat("y")])
        ids.append(match.id)
        with store.engine.begin() as conn:  # distinct creation times, oldest first
            conn.execute(sa.update(Match).where(sa.column("id") == match.id)
                         .values(created=start + timedelta(minutes=i)))
    for i in (1, 2):
        store.set_status(ids[i], "running")

    page = store.list_matches(limit=5)
    assert page.total == 12 and [m.id for m in page.items] == ids[::-1][:5]
    page2 = store.list_matches(limit=5, offset=10)
    assert [m.id for m in page2.items] == ids[::-1][10:]
    hearth = store.list_matches(game="hearth")
    assert hearth.total == 4 and {m.game for m in hearth.items} == {"hearth"}
    running = store.list_matches(status=MatchStatus.RUNNING)
    assert [m.id for m in running.items] == [ids[2], ids[1]]
    assert store.list_matches(status="running", game="hearth").total == 0
    assert a.id is not None
    by_bot = store.list_matches(bot_id=a.id, limit=3)
    assert by_bot.total == 8 and len(by_bot.items) == 3
    assert all(m.game == "blokus" for m in by_bot.items)
    assert store.list_matches(limit=10_000).limit == 500
    with pytest.raises(ValueError):
        store.list_matches(status="lost")


def test_status_changes(store: Store) -> None:
    match = store.create_match("blokus")

    def moved(status: MatchStatus | str) -> Match:
        store.set_status(match.id, status)
        found = store.get_match(match.id)
        assert found is not None
        return found

    running = moved("running")
    assert running.status == "running" and running.started is not None
    assert running.finished is None
    paused = moved(MatchStatus.PAUSED)
    assert paused.status == "paused" and paused.started == running.started
    assert moved("running").started == running.started  # stamped the first time only
    cancelled = moved("cancelled")
    assert cancelled.status == "cancelled" and cancelled.finished is not None
    with pytest.raises(Conflict):
        store.set_status(match.id, "running")
    with pytest.raises(StoreError):
        store.set_status(match.id, "finished")
    with pytest.raises(ValueError):
        store.set_status(match.id, "sleeping")
    with pytest.raises(NotFound):
        store.set_status("missing", "running")


def test_events_since(store: Store) -> None:
    match = store.create_match("blokus")
    other = store.create_match("blokus")
    store.append_events([NewEvent(match.id, i, "move", {"i": i, "cells": [[1, 2]]})
                         for i in range(10)])
    store.append_events([NewEvent(other.id, 0, "start")])
    assert [e.seq for e in store.events_since(match.id)] == list(range(10))
    tail = store.events_since(match.id, 7)
    assert [(e.seq, e.kind, e.payload) for e in tail] == [
        (i, "move", {"i": i, "cells": [[1, 2]]}) for i in (7, 8, 9)]
    assert [e.seq for e in store.events_since(match.id, 2, limit=3)] == [2, 3, 4]
    assert store.events_since(match.id, 10) == []
    assert store.last_seq(match.id) == 9 and store.last_seq("missing") is None
    with pytest.raises(sa.exc.IntegrityError):  # a seq is stored once
        store.append_events([NewEvent(match.id, 10, "x"), NewEvent(match.id, 3, "again")])
    assert store.last_seq(match.id) == 9  # the whole call was rolled back


def test_created_seats_are_the_models_defaults(store: Store) -> None:
    """Seat rows are written from a template of the model's defaults, not `Seat` objects:
    what reads back is what a `Seat` would have stored."""
    match = store.create_match("blokus", [NewSeat("a", None, "code"), NewSeat()])
    expected = [Seat(match_id=match.id, index=0, display_name="a", reservation="code"),
                Seat(match_id=match.id, index=1)]
    assert [s.model_dump() for s in store.seats(match.id)] == \
        [s.model_dump() for s in expected]


def test_payloads_encoded_already_read_back_as_values(store: Store) -> None:
    """A `JSONText` payload is stored as the JSON it is (SQLite: the text itself), not as
    a string; mixed with plain payloads in one call."""
    match = store.create_match("blokus")
    value = {"seats": [0, 1], "observers": False, "seat": 1, "name": "Ünïcode \"q\""}
    store.append_events([NewEvent(match.id, 0, "decision", JSONText(encode_json(value))),
                         NewEvent(match.id, 1, "state", value)])
    assert [e.payload for e in store.events_since(match.id)] == [value, value]


def test_store_result_finishes_the_match(store: Store) -> None:
    match = store.create_match("blokus", [NewSeat("a"), NewSeat("b")])
    store.set_status(match.id, "running")
    result = store.store_result(
        match.id, winner=None, reason="SOFT_TIMEOUT", scores={"win_points": [2, 0]},
        seats=[SeatOutcome(0, "win", [2, 40]),
               SeatOutcome(1, "loss", [0, 0], failure="timeout", detail="2.3 s")])
    assert store.get_result(match.id) == result
    done = store.get_match(match.id)
    assert done is not None and done.status == "finished" and done.finished is not None
    seats = store.seats(match.id)
    assert [(s.outcome, s.score_parts, s.failure, s.detail) for s in seats] == [
        ("win", [2, 40], None, ""), ("loss", [0, 0], "timeout", "2.3 s")]
    with pytest.raises(Conflict):
        store.store_result(match.id, winner=0, reason="again")
    with pytest.raises(NotFound):
        store.store_result("missing", winner=0, reason="x")


def test_a_bad_result_writes_nothing(store: Store) -> None:
    match = store.create_match("blokus", [NewSeat("a")])
    with pytest.raises(NotFound):
        store.store_result(match.id, winner=0, reason="x", seats=[SeatOutcome(3, "win")])
    with pytest.raises(ValueError):
        store.store_result(match.id, winner=0, reason="x", seats=[SeatOutcome(0, "won")])
    with pytest.raises(ValueError):
        store.store_result(match.id, winner=0, reason="x",
                           seats=[SeatOutcome(0, "loss", failure="bored")])
    again = store.get_match(match.id)
    assert again is not None and again.status == "waiting"
    assert store.get_result(match.id) is None


def test_the_database_refuses_unknown_statuses(store: Store) -> None:
    match = store.create_match("blokus", [NewSeat("a")])
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE matches SET status = 'lost' WHERE id = :i"),
                     {"i": match.id})
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE seats SET failure = 'bored' WHERE match_id = :i"),
                     {"i": match.id})


def test_deleting_a_match_takes_its_rows(store: Store) -> None:
    match = store.create_match("blokus", [NewSeat("a")])
    store.append_events([NewEvent(match.id, 0, "start")])
    store.store_result(match.id, winner=0, reason="REGULAR")
    with store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM matches WHERE id = :i"), {"i": match.id})
    assert store.seats(match.id) == [] and store.events_since(match.id) == []
    assert store.get_result(match.id) is None
