"""Bodies of the sequential tests' routes (`server.api.routes.sprt`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StrictInt, StrictStr

from server.api.ladder_schemas import OpeningIn
from server.api.schemas import MATCH_ID, TIME, _examples
from server.store.models import PairStatus, SprtStatus

BotKey = StrictStr | Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]


class TestCreate(BaseModel):
    """A test of bot `a` (the candidate) against bot `b` (the baseline), both registered
    for `game`: H0 "a is at most elo0 better", H1 "a is elo1 better", in the model's Elo."""

    __test__ = False
    model_config = _examples({"game": "swc_2027_blokus", "a": "greedy", "b": "random",
                              "elo0": 0, "elo1": 50})
    game: str = Field(min_length=1, max_length=32)
    a: BotKey = Field(description="The candidate: a registered bot's name or id.")
    b: BotKey = Field(description="The baseline: a registered bot's name or id.")
    elo0: float = Field(0.0, ge=-1000, le=1000)
    elo1: float = Field(5.0, ge=-1000, le=1000)
    alpha: float = Field(0.05, gt=0, lt=0.5, description="False-positive rate.")
    beta: float = Field(0.05, gt=0, lt=0.5, description="False-negative rate.")
    max_games: int = Field(20_000, ge=2, le=1_000_000,
                           description="Stop, inconclusive, after this many games (even).")
    model: Literal["normalized", "logistic"] = "normalized"
    concurrency: int = Field(1, ge=1, le=64, description="Pairs played at the same time "
                             "(each pair's two games side by side).")
    seed: int | None = Field(None, ge=0, le=2**63 - 1,
                             description="Seeds every pair's game (None: a fresh one).")
    openings: list[OpeningIn] = Field(
        [], max_length=256, description="Stored positions the pairs start from: pair k from "
        "opening k mod n, both games alike (an opening book); empty: the game's start.")


class TestOut(BaseModel):
    """A test and its figures as of now (`history` in GET /api/tests/{id} only)."""

    __test__ = False
    model_config = _examples({
        "id": 1, "game": "swc_2027_blokus", "a": "greedy", "b": "random", "elo0": 0,
        "elo1": 50, "alpha": 0.05, "beta": 0.05, "model": "normalized", "max_games": 20000,
        "concurrency": 1, "seed": None, "openings": [], "status": "h1", "reason": "",
        "created": TIME, "finished": TIME, "llr": 2.98, "lower": -2.94, "upper": 2.94,
        "progress": 101.2,
        "pairs": 17, "games": 34, "pentanomial": [0, 0, 1, 2, 14], "wins": 30, "draws": 1,
        "losses": 3, "decided_at": 34, "elo": 364.1, "elo_ci": [213.3, 670.8],
        "nelo": 248.6, "nelo_ci": [142.0, 355.2], "los": 1.0, "stopped_elo": 301.5,
        "stopped_elo_ci": [150.2, 520.9], "playing": 0, "incomplete": 0, "cancelled": 1,
        "history": [[0, 0.0], [2, 0.21]]})
    id: int
    game: str
    a: str
    b: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    max_games: int
    concurrency: int
    seed: int | None = Field(description="The admin's only: it tells every pair's game.")
    openings: list[OpeningIn] = Field(description="The positions its pairs start from.")
    status: SprtStatus
    reason: str = Field(description="Why it ended when no bound did (stopped).")
    created: datetime
    finished: datetime | None
    llr: float
    lower: float
    upper: float
    progress: float = Field(description="Percent of the way to the bound on the LLR's side.")
    pairs: int
    games: int
    pentanomial: list[int] = Field(description="Pairs scoring 0, 1/4, 1/2, 3/4, 1.")
    wins: int
    draws: int
    losses: int
    decided_at: int | None = Field(description="Games counted when the test decided.")
    elo: float | None
    elo_ci: list[float] | None
    nelo: float | None
    nelo_ci: list[float] | None
    los: float | None
    stopped_elo: float | None = Field(description="Median-unbiased Elo of a decided test.")
    stopped_elo_ci: list[float] | None
    playing: int = Field(description="Pairs being played now.")
    incomplete: int = Field(description="Pairs left out: a game without a result.")
    cancelled: int = Field(description="Pairs left out: the test ended while they played.")
    history: list[list[float]] | None = Field(
        None, description="(games, LLR) after each counted pair, thinned to 400 points.")


class TestPage(BaseModel):
    __test__ = False
    model_config = _examples({"items": [], "total": 0, "limit": 50, "offset": 0})
    items: list[TestOut]
    total: int
    limit: int
    offset: int


class PairOut(BaseModel):
    model_config = _examples({"pair": 0, "status": "counted", "matches": [MATCH_ID, None],
                              "results": ["W", "D"], "attempts": 2, "position": 0,
                              "seed": None, "finished": TIME})
    pair: int
    status: PairStatus
    matches: list[str | None] = Field(description="Game 0 (the candidate in seat 0) and "
                                      "game 1 (seats swapped): the latest match of each.")
    results: list[str | None] = Field(description="The candidate's W, D or L per game.")
    attempts: int
    position: int | None = Field(description="The order in which it was counted.")
    seed: int | None = Field(description="The admin's only.")
    finished: datetime | None
