"""What a launched bot said, per move (issue #29): `GET .../seats/{n}/log?turn=N` and
`GET .../seats/{n}/moves`, against a real server with real launched bots and a real
SQLite file. `turn` N is the match's decision N everywhere (as for `ask` and `from`);
`move` is the seat's own count."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from server.store import NewEvent, NewSeat, NotFound, SeatOutcome, Store, migrate
from tests.server.api.conftest import AUTH, Running, register, script, wait_settled

BLOKUS = "swc_2027_blokus"


async def played(running: Running, *bots: str) -> str:
    """A match of `bots`, finished, its room gone and its seat logs stored: its id."""
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": BLOKUS, "seats": [{"bot": b} for b in bots]})
    assert created.status_code == 201, created.text
    match_id: str = created.json()["id"]
    await wait_settled(running.http, match_id)
    # The files are written after the moves are stored (MatchService._stop_bots).
    folder = running.server.config.data_dir / "seat-logs" / match_id
    async with asyncio.timeout(30):
        while not all((folder / f"{i}.log").exists() for i in range(len(bots))):
            await asyncio.sleep(0.05)
    return match_id


async def decisions(running: Running, match_id: str) -> dict[int, list[int]]:
    """Each seat's decision events' seqs, in the order of the event log."""
    answer = await running.http.get(f"/api/matches/{match_id}/events", headers=AUTH,
                                    params={"limit": 10_000})
    found: dict[int, list[int]] = {0: [], 1: []}
    for event in map(json.loads, answer.text.splitlines()):
        if event["kind"] == "decision":
            found[event["payload"]["seat"]].append(event["seq"])
    return found


def thinks(events: list[dict[str, Any]]) -> dict[int, int]:
    """seq of a state event -> its think time in ms (Blokus records it with the move)."""
    found = {}
    for event in events:
        if event["kind"] != "state":
            continue
        for value in event["payload"].values():
            if isinstance(value, dict) and value.get("think") is not None:
                found[event["seq"]] = round(value["think"] * 1000)
    return found


async def test_each_turn_shows_exactly_what_the_bot_printed_then(running: Running) -> None:
    await register(running.http, "printer", script("print_moves_bot.py"))
    match_id = await played(running, "printer", "random")
    asked = (await decisions(running, match_id))[0]
    assert len(asked) > 10

    answer = await running.http.get(f"/api/matches/{match_id}/seats/0/moves", headers=AUTH)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["match"] == match_id and body["seat"] == 0
    moves = body["moves"]
    assert [m["move"] for m in moves] == list(range(len(asked) + 1))
    # Move N is the seat's N-th decision of the event log, at that seq.
    assert [m["seq"] for m in moves[1:]] == asked
    assert moves[0]["lines"] == ["starting up"]
    for move in moves[1:-1]:
        assert move["lines"] == [f"move {move['move']}"], move
    last = moves[-1]
    # After its last answer the bot is told the result, and says how it went.
    assert last["lines"][0] == f"move {last['move']}" and len(last["lines"]) <= 2, last
    assert not any(m["truncated"] for m in moves)

    # The think times are the event log's (the state event right after each decision).
    events = [json.loads(line) for line in (await running.http.get(
        f"/api/matches/{match_id}/events", headers=AUTH,
        params={"limit": 10_000})).text.splitlines()]
    logged = thinks(events)
    for move in moves[1:]:
        assert move["think_ms"] == logged[move["seq"] + 1], move
        assert move["cpu_ms"] is not None and move["cpu_ms"] >= 0
        assert move["peak_rss_kb"] is not None and move["peak_rss_kb"] > 1000  # a Python

    for move in (moves[1], moves[len(asked) // 2], moves[-1]):
        text = await running.http.get(f"/api/matches/{match_id}/seats/0/log", headers=AUTH,
                                      params={"turn": move["turn"]})
        assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
        assert text.text == "".join(line + "\n" for line in move["lines"])
    one = await running.http.get(f"/api/matches/{match_id}/seats/0/moves", headers=AUTH,
                                 params={"turn": moves[3]["turn"]})
    assert one.json()["moves"] == [moves[3]]
    # Without ?turn the whole log, as before.
    whole = await running.http.get(f"/api/matches/{match_id}/seats/0/log", headers=AUTH)
    assert "== stderr ==" in whole.text and "move 3\n" in whole.text

    # What is served is what the store holds: the moves are rows of the match.
    stored = await asyncio.to_thread(running.store.seat_moves, match_id, 0)
    assert [(r.turn, r.seq, r.lines, r.think_ms) for r in stored] == \
        [(m["move"], m["seq"], m["lines"], m["think_ms"]) for m in moves]


async def test_a_flooding_bot_is_truncated_and_the_database_stays_small(
        running: Running) -> None:
    await register(running.http, "spammer", script("spam_bot.py"))  # 4 MiB at moves 1, 2
    match_id = await played(running, "spammer", "random")
    moves = (await running.http.get(f"/api/matches/{match_id}/seats/0/moves",
                                    headers=AUTH)).json()["moves"]
    for flood in moves[1:3]:
        assert flood["truncated"], flood
        assert 0 < len(flood["lines"]) <= 64
        assert sum(len(line) + 1 for line in flood["lines"]) <= 8 * 1024
        assert len(flood["lines"]) + flood["dropped_lines"] == 4096
        assert flood["dropped_bytes"] == flood["dropped_lines"] * 1024
    assert not any(m["truncated"] for m in moves[3:])
    text = (await running.http.get(f"/api/matches/{match_id}/seats/0/log", headers=AUTH,
                                   params={"turn": moves[1]["turn"]})).text
    dropped = moves[1]["dropped_lines"]
    assert text.endswith(f"\n[... {dropped} lines ({dropped * 1024} bytes) dropped ...]\n")
    assert len(text) < 9 * 1024

    # 8 MiB printed; the store holds a few KiB of it.
    db = Path(running.db_url.removeprefix("sqlite:///"))
    with sqlite3.connect(db) as conn:
        [(kept,)] = conn.execute("SELECT sum(length(lines)) FROM seat_moves "
                                 "WHERE match_id = ?", (match_id,)).fetchall()
        [(pages,)] = conn.execute("PRAGMA page_count").fetchall()
        [(page_size,)] = conn.execute("PRAGMA page_size").fetchall()
    assert kept < 2 * 9 * 1024 + 4096, kept
    assert pages * page_size < 1 << 20, pages * page_size


async def test_bad_turns_are_refused_naming_them(running: Running) -> None:
    await register(running.http, "printer", script("print_moves_bot.py"))
    match_id = await played(running, "printer", "random")
    asked = await decisions(running, match_id)
    count = len(asked[0]) + len(asked[1])
    everyone = sorted(asked[0] + asked[1])
    theirs = everyone.index(asked[1][0])
    mine = [everyone.index(s) for s in asked[0]]
    for path in ("log", "moves"):
        url = f"/api/matches/{match_id}/seats/0/{path}"
        past = await running.http.get(url, headers=AUTH, params={"turn": count})
        assert past.status_code == 422, past.text
        detail = past.json()["detail"]
        assert f"turn {count} is past the end" in detail and f"0 to {count - 1}" in detail
        other = await running.http.get(url, headers=AUTH, params={"turn": theirs})
        assert other.status_code == 422, other.text
        detail = other.json()["detail"]
        assert f"turn {theirs} is seat 1's decision, not seat 0's" in detail, detail
        assert str(next(n for n in mine if n > theirs)) in detail  # the seat's own, near it
        for bad in ("-1", "two", "1.5", str(2**40)):
            answer = await running.http.get(url, headers=AUTH, params={"turn": bad})
            assert answer.status_code == 422, (bad, answer.text)
            assert "turn" in answer.text
        # The admin's only, as the whole log.
        assert (await running.http.get(url, params={"turn": mine[0]})).status_code == 401
        # A seat nobody launched a bot for, a match that does not exist.
        assert (await running.http.get(f"/api/matches/{match_id}/seats/5/{path}",
                                       headers=AUTH, params={"turn": 1})).status_code == 404
        assert (await running.http.get(f"/api/matches/nope/seats/0/{path}",
                                       headers=AUTH)).status_code == 404
    last = await running.http.get(f"/api/matches/{match_id}/seats/0/log", headers=AUTH,
                                  params={"turn": mine[-1]})
    assert last.status_code == 200 and last.text.startswith(f"move {len(mine)}\n")


def test_stored_moves_go_with_the_match_events_retention(tmp_path: Path) -> None:
    """`Store.save_seat_moves` replaces a seat's rows; the retention drops them with the
    events (as it deletes the seat-log files)."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    migrate.upgrade(url)
    store = Store(url)
    try:
        match = store.create_match(BLOKUS, [NewSeat("a"), NewSeat("b")])
        store.set_status(match.id, "running")
        store.append_events([NewEvent(match.id, 0, "welcome", {"seat": 0})])
        store.save_seat_moves(match.id, 0, [{"turn": 0, "lines": ["x"]}])
        store.save_seat_moves(match.id, 0, [
            {"turn": 0, "lines": ["hi"]},
            {"turn": 1, "seq": 3, "think_ms": 5, "cpu_ms": 0, "peak_rss_kb": 9000,
             "lines": ["move 1"], "dropped_lines": 2, "dropped_bytes": 20}])
        rows = store.seat_moves(match.id, 0)
        assert [(r.turn, r.lines, r.dropped_lines) for r in rows] == [
            (0, ["hi"], 0), (1, ["move 1"], 2)]
        assert store.seat_moves(match.id, 1) == []
        with pytest.raises(NotFound):
            store.save_seat_moves("nope", 0, [])
        store.store_result(match.id, winner=0, reason="regular",
                           seats=[SeatOutcome(0, "win"), SeatOutcome(1, "loss")],
                           at=datetime.now(UTC) - timedelta(days=10))
        store.prune(events_before=datetime.now(UTC) - timedelta(days=1))
        assert store.seat_moves(match.id, 0) == []
    finally:
        store.close()


async def test_turn_is_the_match_wide_decision_number_of_ask_and_from(
        running: Running) -> None:
    """`turn` counts every seat's decisions, as `from` and `ask` do: a move's `turn` is its
    decision's place among all decision events, and `?turn=N` picks the move `ask --turn N`
    asks again."""
    await register(running.http, "printer", script("print_moves_bot.py"))
    match_id = await played(running, "printer", "random")
    asked = await decisions(running, match_id)
    everyone = sorted(asked[0] + asked[1])
    moves = (await running.http.get(f"/api/matches/{match_id}/seats/0/moves",
                                    headers=AUTH)).json()["moves"]
    assert moves[0]["turn"] is None  # before the first decision
    assert [m["turn"] for m in moves[1:]] == [everyone.index(s) for s in asked[0]]
    assert any(m["turn"] != m["move"] for m in moves[1:])  # two different counts
    for move in moves[1:]:
        one = await running.http.get(f"/api/matches/{match_id}/seats/0/moves", headers=AUTH,
                                     params={"turn": move["turn"]})
        assert one.status_code == 200 and one.json()["moves"] == [move]
