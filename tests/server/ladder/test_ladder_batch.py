"""The batch Elo beside openskill in the ladder API (issue #26): every standing carries the
Bradley–Terry fit over all rated games, the fit is refitted only when a match was rated,
and a match both bots lost stays out of it.

The games are written into the store directly (a finished match, then `rate_match`), so
the figures are known without playing: the ladder itself is not started."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import server.api.ladder as ladder_api
from server.ladder import rate
from server.store import NewSeat, SeatOutcome, Store
from server.store.ladder import LadderStore
from stats.batch import batch_fit
from tests.server.ladder.conftest import BLOKUS, Running


def finish(store: Store, ladder: LadderStore, a: int, b: int, outcome_a: str,
           outcome_b: str | None = None) -> None:
    """A rated Blokus match of bots a and b: a's outcome, b's the opposite unless given."""
    outcome_b = outcome_b or {"win": "loss", "loss": "win", "draw": "draw"}[outcome_a]
    match = store.create_match(BLOKUS, [NewSeat(bot_id=a), NewSeat(bot_id=b)], seed=1)
    winner = 0 if outcome_a == "win" else 1 if outcome_b == "win" else None
    store.store_result(match.id, winner=winner, reason="test", seats=[
        SeatOutcome(0, outcome_a), SeatOutcome(1, outcome_b)])
    assert ladder.rate_match(match.id, rate).rated


async def standings(running: Running) -> dict[str, dict[str, Any]]:
    answer = await running.http.get(f"/api/ladder/{BLOKUS}")
    assert answer.status_code == 200, answer.text
    return {s["bot"]: s for s in answer.json()["standings"]}


async def test_each_standing_has_the_batch_elo_and_its_interval(
        running: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    fits: list[int] = []

    def counted(games: Any, **options: Any) -> Any:
        fits.append(1)
        return batch_fit(games, **options)

    monkeypatch.setattr(ladder_api, "batch_fit", counted)
    store = running.store
    ladder = LadderStore(store)
    ids = {}
    for name in ("strong", "middle", "weak", "idle"):
        ids[name] = store.create_bot(name, BLOKUS, ["true"]).id

    before = await standings(running)
    assert {"strong", "idle", "greedy", "random"} <= set(before)
    assert all(s["elo"] is None and s["elo_low"] is None and s["elo_high"] is None
               for s in before.values()), before

    def play() -> None:
        s, m, w = ids["strong"], ids["middle"], ids["weak"]
        for a, b, outcomes in ((s, m, "win win win draw loss win"),
                               (m, w, "win win draw win loss"),
                               (w, s, "loss loss loss draw")):
            for outcome in outcomes.split():
                finish(store, ladder, a, b, outcome)

    await asyncio.to_thread(play)
    fits.clear()
    lines = await standings(running)
    assert len(fits) == 1
    games = await asyncio.to_thread(ladder.rated_games, BLOKUS)
    assert len(games) == 15 and all(a < b for a, b, _ in games)
    fit = batch_fit(games)
    for name in ("strong", "middle", "weak"):
        line, expected = lines[name], fit.rating(ids[name])
        assert line["elo"] == round(expected.elo, 1), line
        assert line["elo_low"] == round(expected.low, 1)
        assert line["elo_high"] == round(expected.high, 1)
        assert line["elo_low"] < line["elo"] < line["elo_high"]
        # openskill's figures are still there, unchanged.
        assert line["games"] == expected.games and line["rating"] == pytest.approx(
            line["mu"] - 3 * line["sigma"], abs=1e-2)
    assert lines["strong"]["elo"] > lines["middle"]["elo"] > lines["weak"]["elo"]
    assert sum(lines[n]["elo"] for n in ("strong", "middle", "weak")) == pytest.approx(
        0, abs=0.2)
    for name in ("idle", "greedy", "random"):
        assert lines[name]["elo"] is None, lines[name]

    # Nothing rated since: the cached fit, no refit, for either route (GET /api/ladder
    # fits Hearth's ladder once too: a fit per game).
    assert await standings(running) == lines
    assert len(fits) == 1
    for _ in range(2):
        everything = (await running.http.get("/api/ladder")).json()
        assert next(g for g in everything if g["game"] == BLOKUS)["standings"] == \
            list(lines.values())
    assert len(fits) == 2
    fits.pop()

    # A double loss (both bots failed) is rated, so the fit is taken again, but it is no
    # game of the fit: the figures stay.
    await asyncio.to_thread(finish, store, ladder, ids["strong"], ids["weak"], "loss", "loss")
    again = await standings(running)
    assert len(fits) == 2
    assert again["strong"]["losses"] == lines["strong"]["losses"] + 1
    for name in ("strong", "middle", "weak"):
        assert (again[name]["elo"], again[name]["elo_low"], again[name]["elo_high"]) == \
            (lines[name]["elo"], lines[name]["elo_low"], lines[name]["elo_high"])

    # One more real game moves them.
    await asyncio.to_thread(finish, store, ladder, ids["weak"], ids["strong"], "win")
    moved = await standings(running)
    assert len(fits) == 3
    assert moved["weak"]["elo"] > lines["weak"]["elo"]
    assert moved["strong"]["elo"] < lines["strong"]["elo"]
