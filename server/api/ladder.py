"""The ladder over HTTP: standings, crosstable, start and stop per game.

Each standing carries the live openskill rating and the batch Elo (`stats.batch`): one
Bradley–Terry fit over every rated game of the ladder, which does not depend on the order
of the games. The fit is cached per ladder and game, keyed by the number of rated matches:
a request refits only when a match was rated since the last fit.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from server.api.deps import Admin, ContextDep
from server.api.ladder_schemas import (
    BotHistoryOut,
    CrossCellOut,
    CrossRowOut,
    CrosstableOut,
    HistoryOut,
    HistoryPointOut,
    LadderOut,
    OpeningsIn,
    StandingOut,
)
from server.api.schemas import ErrorOut
from server.games.registry import GameRegistry
from server.ladder import Ladder
from server.matches import MatchError
from server.store.ladder import LadderStore
from stats.batch import BatchFit, batch_fit

router = APIRouter(prefix="/ladder", tags=["ladder"])

def _game_of_path(
    request: Request,
    game: Annotated[str, Path(min_length=1, max_length=32, examples=["blokus"])],
) -> str:
    """The path's game: its id or an alias, as everywhere else."""
    games: GameRegistry = request.app.state.gauntlet.games
    return games.resolve(game)


Game = Annotated[str, Depends(_game_of_path)]
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No ladder for this game"},
    503: {"model": ErrorOut, "description": "This server runs without a store"}}


def _ladder(context: Any, game: str) -> Ladder:
    ladder: Ladder | None = context.ladder
    if ladder is None:
        raise MatchError("this server runs without a store: no ladder", 503)
    if game not in ladder.ladder_games():
        raise MatchError(f"no ladder for game {game!r}; ladder games: "
                         f"{', '.join(ladder.ladder_games())}", 404)
    return ladder


_fits: weakref.WeakKeyDictionary[LadderStore, dict[str, tuple[int, BatchFit[int]]]] = \
    weakref.WeakKeyDictionary()
_fits_lock = threading.Lock()


def batch(store: LadderStore, game: str) -> BatchFit[int]:
    """Blocking: the game's batch fit, refitted only when the count of rated matches moved.

    The count is read before the games: a match rated in between is in the fit and makes
    the next request fit again, never the other way round (a stale fit kept as new).
    """
    rated = store.rated_matches(game)
    with _fits_lock:
        cached = _fits.get(store, {}).get(game)
    if cached is not None and cached[0] == rated:
        return cached[1]
    fit = batch_fit(store.rated_games(game))  # a few ms for a ladder's bots and games
    with _fits_lock:
        _fits.setdefault(store, {})[game] = (rated, fit)
    return fit


def _standings(ladder: Ladder, game: str) -> list[StandingOut]:
    fit = batch(ladder.ladder, game)
    elo = {r.name: r for r in fit.ratings}
    lines = []
    for i, s in enumerate(ladder.ladder.standings(game), start=1):
        b = elo.get(s.bot_id)
        lines.append(StandingOut(
            rank=i, bot_id=s.bot_id, bot=s.name, rating=round(s.ordinal, 3),
            mu=round(s.mu, 3), sigma=round(s.sigma, 3), games=s.games, wins=s.wins,
            draws=s.draws, losses=s.losses, failures=s.failures,
            elo=None if b is None else round(b.elo, 1),
            elo_low=None if b is None else round(b.low, 1),
            elo_high=None if b is None else round(b.high, 1)))
    return lines


@router.get("", summary="Every ladder game")
def ladders(context: ContextDep) -> list[LadderOut]:
    ladder = context.ladder
    if ladder is None:
        return []
    return [LadderOut(**ladder.status(g), standings=_standings(ladder, g))
            for g in ladder.ladder_games()]


@router.get("/{game}", summary="A game's ladder: state and standings", responses=NOT_FOUND)
def standings(game: Game, context: ContextDep) -> LadderOut:
    ladder = _ladder(context, game)
    return LadderOut(**ladder.status(game), standings=_standings(ladder, game))


@router.get("/{game}/crosstable", summary="Points of every bot against every other",
            responses=NOT_FOUND)
def crosstable(game: Game, context: ContextDep) -> CrosstableOut:
    ladder = _ladder(context, game)
    lines = ladder.ladder.standings(game)
    names = {s.bot_id: s.name for s in lines}
    table = ladder.ladder.crosstable(game)
    rows = []
    for line in lines:
        cells = table.get(line.bot_id, {})
        rows.append(CrossRowOut(bot=line.name, results=[
            CrossCellOut(opponent=names[o], points=cells[o][0], games=cells[o][1])
            for o in names if o in cells]))
    return CrosstableOut(game=game, bots=[s.name for s in lines], rows=rows)


HISTORY_LIMIT = 200
"""Points per bot of GET /api/ladder/{game}/history unless `limit` says otherwise."""


@router.get("/{game}/history", summary="Each bot's rating after each of its games",
            responses=NOT_FOUND)
def history(game: Game, context: ContextDep,
            limit: Annotated[int, Query(ge=1, le=5000, description="The last games per bot")]
            = HISTORY_LIMIT) -> HistoryOut:
    """Per bot (the standings' order) its conservative rating (mu - 3 sigma) after each of
    its last `limit` rated games, oldest first, led by the rating it had before the first
    of them (`game` one lower; 0 is the start, before any game): the ladder page's charts."""
    ladder = _ladder(context, game)
    lines = ladder.ladder.standings(game)
    found = ladder.ladder.game_history(game, limit)
    bots = []
    for line in lines:
        points = found.get(line.bot_id, [])
        bots.append(BotHistoryOut(bot_id=line.bot_id, bot=line.name, games=line.games, points=[
            HistoryPointOut(game=p.game, at=p.at, rating=round(p.ordinal, 3),
                            mu=round(p.mu, 3), sigma=round(p.sigma, 3), outcome=p.outcome,
                            match_id=p.match_id) for p in points]))
    return HistoryOut(game=game, limit=limit, bots=bots)


async def _switch(context: Any, game: str, running: bool) -> LadderOut:
    ladder = _ladder(context, game)
    await ladder.set_running(game, running)
    status = await asyncio.to_thread(ladder.status, game)
    lines = await asyncio.to_thread(_standings, ladder, game)
    return LadderOut(**status, standings=lines)


@router.put("/{game}/openings", summary="The positions a game's ladder rounds start from",
            dependencies=[Admin],
            responses={**NOT_FOUND, 401: {"model": ErrorOut},
                       422: {"model": ErrorOut, "description": "An opening that does not "
                             "rebuild, named by its index"}})
async def set_openings(game: Game, body: OpeningsIn, context: ContextDep) -> LadderOut:
    """Round k of the ladder starts from opening k mod n: both legs (the seats swapped)
    from the same position, rated as any ladder match (a match started from a position
    through `POST /api/matches` never is). Each opening is rebuilt once here: one that
    cannot be is a 422 and nothing changes. Queued rounds keep theirs; an empty list
    plays new rounds from the game's start again."""
    ladder = _ladder(context, game)
    await ladder.set_openings(game, [o.model_dump() for o in body.openings])
    status = await asyncio.to_thread(ladder.status, game)
    lines = await asyncio.to_thread(_standings, ladder, game)
    return LadderOut(**status, standings=lines)


@router.post("/{game}/start", summary="Start a game's ladder", dependencies=[Admin],
             responses={**NOT_FOUND, 401: {"model": ErrorOut}})
async def start(game: Game, context: ContextDep) -> LadderOut:
    """The flag is stored: the ladder keeps running across restarts until stopped."""
    return await _switch(context, game, True)


@router.post("/{game}/stop", summary="Stop a game's ladder", dependencies=[Admin],
             responses={**NOT_FOUND, 401: {"model": ErrorOut}})
async def stop(game: Game, context: ContextDep) -> LadderOut:
    """Matches being played finish and are rated; no new ones start."""
    return await _switch(context, game, False)
