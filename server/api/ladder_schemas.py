"""The ladder's response bodies, each with an example for the OpenAPI document."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


def _examples(*examples: Any) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": list(examples)})


class StandingOut(BaseModel):
    model_config = _examples({
        "rank": 1, "bot_id": 2, "bot": "greedy", "rating": 21.4, "mu": 28.9, "sigma": 2.5,
        "games": 40, "wins": 33, "draws": 1, "losses": 6, "failures": {"timeout": 1},
        "elo": 212.4, "elo_low": 121.9, "elo_high": 302.9})
    rank: int
    bot_id: int
    bot: str
    rating: float = Field(description="The conservative rating the table sorts by: "
                                      "mu - 3 sigma.")
    mu: float = Field(description="openskill (Plackett-Luce) skill estimate.")
    sigma: float = Field(description="Its uncertainty.")
    games: int
    wins: int
    draws: int
    losses: int
    failures: dict[str, int] = Field(description="Games lost by failing, per category "
                                                 "(timeout, crash, failed_to_start, ...).")
    elo: float | None = Field(
        default=None,
        description="Batch rating: logistic Elo from one Bradley-Terry fit over every rated "
                    "game of the ladder (independent of their order), mean 0 over the bots "
                    "with games. None for a bot without a rated two-bot game.")
    elo_low: float | None = Field(default=None,
                                  description="Its 95 % interval: the lower end.")
    elo_high: float | None = Field(default=None,
                                   description="Its 95 % interval: the upper end.")


class OpeningIn(BaseModel):
    """A position a ladder round starts from: stored match `match` before its decision
    `turn` (the `turn` of `from`, `ask` and `?turn=`)."""

    model_config = _examples({"match": "3f0c2b1e-8a41-4c6e-9a57-0d6f1b2c3d4e", "turn": 8})
    match: str = Field(min_length=1, max_length=64)
    turn: int = Field(ge=0, le=100_000)


class OpeningsIn(BaseModel):
    model_config = _examples({"openings": [
        {"match": "3f0c2b1e-8a41-4c6e-9a57-0d6f1b2c3d4e", "turn": 8}]}, {"openings": []})
    openings: list[OpeningIn] = Field(max_length=256, description="Round k starts from "
                                      "opening k mod n, both legs alike; empty: every round "
                                      "from the game's start.")


class LadderOut(BaseModel):
    model_config = _examples({
        "game": "swc_2027_blokus", "running": True, "concurrency": 1, "live": 1, "queued": 1,
        "rated": 40, "games_per_minute": 12.5, "openings": [], "standings": []})
    game: str
    running: bool
    concurrency: int = Field(description="Matches the ladder keeps running (all games).")
    live: int = Field(description="Matches of this game being played now.")
    queued: int = Field(description="Legs waiting in the queue.")
    rated: int = Field(description="Matches rated so far.")
    games_per_minute: float = Field(description="Rated matches per minute, last 10 minutes.")
    openings: list[OpeningIn] = Field(description="The positions new rounds start from, "
                                      "in turn (empty: the game's start).")
    standings: list[StandingOut]


class CrossCellOut(BaseModel):
    model_config = _examples({"opponent": "random", "points": 7.5, "games": 8})
    opponent: str
    points: float = Field(description="Win 1, draw 1/2, loss 0.")
    games: int


class CrossRowOut(BaseModel):
    model_config = _examples({"bot": "greedy", "results": [
        {"opponent": "random", "points": 7.5, "games": 8}]})
    bot: str
    results: list[CrossCellOut]


class CrosstableOut(BaseModel):
    model_config = _examples({"game": "swc_2027_blokus", "bots": ["greedy", "random"],
                              "rows": []})
    game: str
    bots: list[str] = Field(description="Row and column order: the standings' order.")
    rows: list[CrossRowOut]


class HistoryPointOut(BaseModel):
    model_config = _examples({"game": 12, "at": "2027-03-01T12:00:00Z", "rating": 14.2,
                              "mu": 27.1, "sigma": 4.3, "outcome": "win",
                              "match_id": "3f2c..."})
    game: int = Field(description="The bot's rated games so far: 0 is its start, before "
                                  "any (no time, outcome or match).")
    at: datetime | None = Field(description="When the game was rated (UTC).")
    rating: float = Field(description="mu - 3 sigma after that game.")
    mu: float
    sigma: float
    outcome: str | None = Field(description="win, draw or loss.")
    match_id: str | None


class BotHistoryOut(BaseModel):
    model_config = _examples({"bot_id": 2, "bot": "greedy", "games": 40, "points": []})
    bot_id: int
    bot: str
    games: int = Field(description="Rated games in all (points: the last `limit` of them).")
    points: list[HistoryPointOut]


class HistoryOut(BaseModel):
    model_config = _examples({"game": "swc_2027_blokus", "limit": 200, "bots": []})
    game: str
    limit: int
    bots: list[BotHistoryOut] = Field(description="The standings' order; a bot without "
                                                  "rated games has no points.")
